/**
 * The grid runner as its own OS process, for the crash test (test/runner-crash.spec.ts), run from
 * source: `node -r libs/streaming/src/testing/ts-register.js libs/trading/src/testing/crash-runner.child.ts`.
 * The same GridRunner and command handlers as the app; the exchange is the test's paper venue over
 * RPC (RemotePaperProvider), or the ccxt adapter against the test's venue stand-ins
 * (exchangeProviderFromEnv); the event and read stores are SQLite files in DATA_DIR.
 */
import { join } from 'node:path';
import { SqliteEventStore } from '@gridrocket/event-store';
import { SqliteReadStore } from '@gridrocket/read-store';
import { EmbeddedOwnership } from '@gridrocket/streaming';
import { GridRunner } from '../runner/grid-runner';
import { directCommands } from '../runner/direct-commands';
import { exchangeProviderFromEnv } from './paper-rpc';

async function main() {
  const dir = process.env.DATA_DIR!;
  const pollMs = Number(process.env.POLL_MS ?? 25);
  const events = new SqliteEventStore(join(dir, 'events.sqlite'), 20);
  const reads = new SqliteReadStore(join(dir, 'read.sqlite'));
  const runner = new GridRunner({
    events,
    reads,
    commands: directCommands(events),
    exchanges: exchangeProviderFromEnv(pollMs),
    ownership: new EmbeddedOwnership(),
    pollMs,
    retryBaseMs: 20,
    retryMaxMs: 200,
    ...(process.env.WATCHDOG_MS ? { watchdogMs: Number(process.env.WATCHDOG_MS) } : {}),
    logger: { log: () => undefined, warn: (m) => process.stderr.write(`${m}\n`), error: (m) => process.stderr.write(`${m}\n`) },
  });
  await runner.start();
  process.stdout.write(`ready ${process.pid}\n`);
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
