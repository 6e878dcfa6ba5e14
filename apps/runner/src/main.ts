import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { hostname } from 'node:os';
import { loadConfig } from '@gridrocket/shared/runtime';
import { RunnerModule } from './runner.module';

async function main() {
  // The runner reads and appends events; the API process owns the projections.
  const config = loadConfig(process.env, { embeddedRunner: true, projections: false });
  // Runners sharing a read store keep their reactor checkpoints apart (docs/resilience.md): name each one.
  process.env.RUNNER_NAME ||= `grid-runner-${hostname()}`;
  const app = await NestFactory.createApplicationContext(RunnerModule.forRoot(config));
  app.enableShutdownHooks();
  console.log(`GridRocket runner ${process.pid} started as ${process.env.RUNNER_NAME} (event store ${config.eventStore.kind}, data in ${config.dataDir})`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
