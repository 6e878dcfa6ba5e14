import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { hostname } from 'node:os';
import { READ_STORE, ReadStore, runningReactors } from '@gridrocket/read-store';
import { loadConfig } from '@gridrocket/shared/runtime';
import { MetricsService } from '@gridrocket/streaming';
import { serveOps } from '@gridrocket/streaming/nest';
import { GridRunnerService } from '@gridrocket/trading/nest';
import { RunnerModule } from './runner.module';

/** RUNNER_PORT: the runner's /health and /metrics (default 3001; 0: a free port, printed at start). */
export function runnerPort(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 3001;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`RUNNER_PORT must be a port number from 0 to 65535 (got ${JSON.stringify(value)})`);
  return port;
}

async function main() {
  // The runner reads and appends events; the API process owns the projections and the forwarder.
  const config = loadConfig(process.env, { embeddedRunner: true, projections: false, forwarder: false });
  // Runners sharing a read store keep their reactor checkpoints apart (docs/resilience.md): name each one.
  process.env.RUNNER_NAME ||= `grid-runner-${hostname()}`;
  // A runner of its own shares the bots with the group's other runners: leases in the event store (issue 41)
  process.env.RUNNER_OWNERSHIP ||= 'leases';
  const port = runnerPort(process.env.RUNNER_PORT);
  const host = process.env.RUNNER_HOST || '127.0.0.1';
  // The operators' port first (a port in use refuses the start before this runner joins its group); /health
  // says `starting` until the runner is up
  const metrics = new MetricsService();
  let service: GridRunnerService | null = null;
  const ops = await serveOps({
    host,
    port,
    metrics,
    metricsToken: config.metricsToken,
    metricsPublic: config.metricsPublic,
    health: () => service?.health() ?? { status: 'starting', trading: false, runner: process.env.RUNNER_NAME, pid: process.pid },
  }).catch((err: NodeJS.ErrnoException) => {
    throw new RunnerPortError(err.code === 'EADDRINUSE' ? `${host}:${port} is in use: give each runner on this host its own RUNNER_PORT (0: any free port)` : `its health and metrics port ${host}:${port} cannot be opened: ${err.message}`);
  });
  // abortOnError false: a start-up error reaches main's catch (a refusal is printed in its own words)
  const app = await NestFactory.createApplicationContext(RunnerModule.forRoot(config, metrics), { abortOnError: false });
  app.enableShutdownHooks();
  const reads = app.get<ReadStore>(READ_STORE);
  metrics.setConsumers(() => Promise.all(runningReactors(reads).map((r) => r.status())));
  const started = app.get(GridRunnerService);
  service = started;
  console.log(
    `GridRocket runner ${process.pid} started as ${process.env.RUNNER_NAME} (event store ${config.eventStore.kind}, data in ${config.dataDir}, ownership ${started.ownership.kind}); health and metrics on ${ops.url}`,
  );
}

class RunnerPortError extends Error {
  name = 'RunnerPortError';
}

main().catch((err) => {
  // a refusal that says what to do (the paper exchange run by another process, paper-lock.ts; a port in use): its words alone
  console.error(err instanceof Error && (err.name === 'PaperExchangeInUseError' || err.name === 'RunnerPortError') ? `GridRocket runner not started: ${err.message}` : err);
  process.exit(1);
});
