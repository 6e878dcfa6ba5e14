/**
 * One grid runner of a scaled-out fleet, as its own OS process, for test/scale-out.spec.ts: the same
 * GridRunner, command handlers and ownership adapter as the app (LeaseOwnership: leases in the event store,
 * issue 41), the shared SQLite event store (several processes on one file), the test's paper venue over RPC
 * (RemotePaperProvider) for Binance bots and the ccxt adapter against the test's KuCoin stand-in for KuCoin
 * bots, and the product's operators' port (serveOps: /health, /metrics). Run from source:
 *   node -r libs/streaming/src/testing/ts-register.js test/support/scale-runner.child.ts
 *
 * Environment: DATA_DIR, PAPER_RPC_URL, STANDIN_ORIGINS, STANDIN_KEYS, RUNNER_NAME, RUNNER_GROUP,
 * RUNNER_PARTITIONS, RUNNER_LEASE_MS, RUNNER_RENEW_MS, POLL_MS.
 *
 * What it tells the test, one line each on stdout (prefixed "@@ "):
 *   @@ ready <pid> <ops url>
 *   @@ status {"owned":[…],"running":[…],"epochs":{…}}       (every 250 ms)
 *   @@ fenced {"streamId":…,"fence":…,"actual":…}              (an append the event store refused)
 *   @@ stopped                                                 (after a clean stop on SIGTERM)
 *
 * For the test's "no two epochs interleave on a bot" check, every event a runner appends carries in
 * its metadata the fence it was appended under (`metadata.fence`, written by the product's
 * toNewEvents); the claim at that epoch names the runner. The store is the product's, unchanged: a
 * thin wrapper only reports the appends its fence refused.
 */
import { join } from 'node:path';
import { FencedError, SqliteEventStore, type AppendOptions, type EventStore, type ExpectedRevision, type NewEvent } from '@gridrocket/event-store';
import { SqliteReadStore, runningReactors } from '@gridrocket/read-store';
import type { ExchangeName, ExchangeProvider } from '@gridrocket/exchanges';
import { LeaseOwnership, MetricsService } from '@gridrocket/streaming';
import { serveOps, type OpsServer } from '@gridrocket/streaming/nest';
import { GridRunner, runnerHealth } from '@gridrocket/trading';
import { directCommands } from '@gridrocket/trading/nest';
import { RemotePaperProvider, exchangeProviderFromEnv } from '@gridrocket/trading/testing/paper-rpc';

const say = (line: string) => process.stdout.write(`@@ ${line}\n`);

/** The event store, reporting the appends the ownership fence refused (the test's summary counts them). */
function reportingFenced(inner: SqliteEventStore): EventStore {
  const append = async (streamId: string, events: NewEvent[], expected: ExpectedRevision, options: AppendOptions = {}) => {
    try {
      return await inner.append(streamId, events, expected, options);
    } catch (err) {
      const fence = options.fence ? { streamId: options.fence.streamId, revision: String(options.fence.revision) } : null;
      if (err instanceof FencedError) say(`fenced ${JSON.stringify({ streamId, fence, actual: String(err.actual), types: events.map((e) => e.type) })}`);
      throw err;
    }
  };
  return new Proxy(inner, {
    get(target, prop) {
      if (prop === 'append') return append;
      const v = (target as any)[prop];
      return typeof v === 'function' ? v.bind(target) : v;
    },
  }) as EventStore;
}

/**
 * Binance bots on the paper venue over RPC, KuCoin bots through the ccxt adapter and the stand-in (both over
 * the test's one venue, which keeps the wall clock): one runner trades both kinds.
 */
function routed(paper: ExchangeProvider, ccxt: ExchangeProvider, ccxtVenues: ExchangeName[]): ExchangeProvider {
  const pick = (exchange: ExchangeName) => (ccxtVenues.includes(exchange) ? ccxt : paper);
  return {
    mode: 'live',
    for: (ref) => pick(ref.exchange).for(ref),
    prices: { subscribe: (key, listener) => pick(key.exchange).prices.subscribe(key, listener), activeCount: () => paper.prices.activeCount() + ccxt.prices.activeCount() },
    forget: (userId, exchange) => {
      paper.forget(userId, exchange);
      ccxt.forget(userId, exchange);
    },
    onVenuePause: ccxt.onVenuePause ? (listener) => ccxt.onVenuePause!(listener) : undefined,
    close: async () => {
      await Promise.all([paper.close(), ccxt.close()]);
    },
  };
}

async function main() {
  const dir = process.env.DATA_DIR!;
  const name = process.env.RUNNER_NAME!;
  const pollMs = Number(process.env.POLL_MS ?? 25);
  const store = new SqliteEventStore(join(dir, 'events.sqlite'), 20);
  const events = reportingFenced(store);
  // each runner its own read store (its reactor checkpoint and its index of bots that should run)
  const reads = new SqliteReadStore(join(dir, `read-${name}.sqlite`));
  const ownership = new LeaseOwnership({
    events,
    scope: process.env.RUNNER_GROUP!,
    owner: name,
    partitions: Number(process.env.RUNNER_PARTITIONS ?? 12),
    leaseMs: Number(process.env.RUNNER_LEASE_MS ?? 3000),
    renewMs: Number(process.env.RUNNER_RENEW_MS ?? 500),
    onError: (err) => process.stderr.write(`ownership: ${err.message}\n`),
    log: (m) => process.stderr.write(`ownership: ${m}\n`),
  });
  const metrics = new MetricsService({ defaultMetrics: false });
  metrics.setConsumers(() => Promise.all(runningReactors(reads).map((r) => r.status())));
  const exchanges = routed(new RemotePaperProvider(process.env.PAPER_RPC_URL!, pollMs), exchangeProviderFromEnv(pollMs), ['Kucoin']);
  const runner = new GridRunner({
    events,
    reads,
    commands: directCommands(events),
    exchanges,
    ownership,
    metrics,
    name,
    pollMs,
    retryBaseMs: 20,
    retryMaxMs: 300,
    // the venue is local and unlimited: no token bucket between a fill and its reaction (with the live default
    // of 8 calls a second per account, four bots of one account reacting late to a fast path sometimes meet a
    // previous cycle's fill after their next take-profit: reported, not this test's subject)
    rateLimit: { capacity: 1000, perSecond: 1000 },
    logger: { log: () => undefined, warn: (m) => process.stderr.write(`${m}\n`), error: (m) => process.stderr.write(`${m}\n`) },
  });
  const status = setInterval(() => {
    const owned = ownership.owned();
    const epochs = Object.fromEntries(owned.map((p) => [p, String(ownership.epochOf(p))]));
    say(`status ${JSON.stringify({ owned, running: runner.runningBots().sort(), epochs })}`);
  }, 250);
  let stopping = false;
  let ops: OpsServer | null = null;
  process.on('SIGTERM', () => {
    if (stopping) return;
    stopping = true;
    clearInterval(status);
    void (async () => {
      try {
        await runner.stop(); // releases its partitions: the others take them, its bots' orders stay
        await ops?.close();
        await reads.close();
        await store.close();
        say('stopped');
        process.exit(0);
      } catch (err) {
        process.stderr.write(`stop failed: ${(err as Error).stack}\n`);
        process.exit(1);
      }
    })();
  });
  await runner.start();
  ops = await serveOps({ host: '127.0.0.1', port: 0, metrics, metricsPublic: true, health: () => runnerHealth(runner, ownership, reads) });
  say(`ready ${process.pid} ${ops.url}`);
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
