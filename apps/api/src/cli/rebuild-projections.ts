import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Projector } from '@gridrocket/read-store';
import { loadConfig } from '@gridrocket/shared';
import { AppModule } from '../app.module';

/**
 * `npm run projections:rebuild`: empties every read model and applies the whole
 * event log again, with the same projections the app registers. Stop the
 * server first (it would keep projecting from its own checkpoint meanwhile).
 */
async function main() {
  const config = loadConfig(process.env, { embeddedRunner: false, logLevel: 'error' });
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config), { logger: ['error'] });
  const projector = app.get(Projector);
  const started = Date.now();
  let last = 0;
  const count = await projector.rebuild((done, head) => {
    const now = Date.now();
    if (now - last > 500) {
      last = now;
      process.stdout.write(`\rprojecting… position ${done} of ${head}`);
    }
  });
  const seconds = (Date.now() - started) / 1000;
  process.stdout.write(`\rRebuilt the read models from ${count} events in ${seconds.toFixed(1)} s (${Math.round(count / Math.max(seconds, 0.001))} events/s)\n`);
  await app.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
