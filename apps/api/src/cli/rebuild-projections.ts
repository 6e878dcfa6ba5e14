import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Presets, SingleBar } from 'cli-progress';
import { Projector } from '@gridrocket/read-store';
import { loadConfig } from '@gridrocket/shared/runtime';
import { AppModule } from '../app.module';

/**
 * `npm run projections:rebuild`: builds every read model again from the whole
 * event log, with the same projections the app registers, into fresh tables
 * swapped in at the end (until then, and after a failure, the old ones stay).
 * Both read stores do this: SQLite renames its `r_` tables in one transaction; MongoDB writes
 * `r_<collection>` collections in bulk writes of 1,000 and renames each over the served one at the end
 * (a swap cut short by a crash is recorded and finished by the next start; docs/resilience.md).
 * Stop the server first (it would keep projecting from its own checkpoint meanwhile).
 */
async function main() {
  // projections: false: the projector does not start catching up, only to be stopped by the rebuild
  const config = loadConfig(process.env, { embeddedRunner: false, logLevel: 'error', forwarder: false, projections: false });
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config), { logger: ['error'] });
  const projector = app.get(Projector);
  const started = Date.now();
  // A progress bar on stderr (a line every 2 s when stderr is not a terminal).
  const bar = new SingleBar(
    { format: 'projecting [{bar}] {percentage}% | position {value} of {total} | {eta_formatted} left', hideCursor: true, stream: process.stderr, noTTYOutput: true, notTTYSchedule: 2000, etaBuffer: 50 },
    Presets.shades_classic,
  );
  bar.start(1, 0);
  const count = await projector.rebuild((done, head) => {
    bar.setTotal(Number(head));
    bar.update(Number(done));
  });
  bar.update(bar.getTotal());
  bar.stop();
  const seconds = (Date.now() - started) / 1000;
  process.stdout.write(`\rRebuilt the read models from ${count} events in ${seconds.toFixed(1)} s (${Math.round(count / Math.max(seconds, 0.001))} events/s)\n`);
  await app.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
