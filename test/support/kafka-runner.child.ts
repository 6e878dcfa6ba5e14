/**
 * One grid runner of a scaled-out fleet, as its own OS process, for test/scale-out-kafka.spec.ts: the
 * same GridRunner and command handlers as the app, with FencedOwnership(KafkaOwnership) on a real
 * broker, the shared SQLite event store (several processes on one file) and the test's paper venue
 * over RPC (RemotePaperProvider). Run from source:
 *   node -r libs/streaming/src/testing/ts-register.js test/support/kafka-runner.child.ts
 *
 * Environment: DATA_DIR, PAPER_RPC_URL, RUNNER_KAFKA_BROKERS, RUNNER_NAME, RUNNER_GROUP, RUNNER_TOPIC,
 * RUNNER_PARTITIONS, RUNNER_SESSION_TIMEOUT_MS, RUNNER_HEARTBEAT_MS, POLL_MS.
 *
 * What it tells the test, one line each on stdout (prefixed "@@ "):
 *   @@ ready <pid>
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
import { Kafka, logLevel } from 'kafkajs';
import { FencedError, SqliteEventStore, type AppendOptions, type EventStore, type ExpectedRevision, type NewEvent } from '@gridrocket/event-store';
import { SqliteReadStore } from '@gridrocket/read-store';
import { FencedOwnership, KafkaOwnership } from '@gridrocket/streaming';
import { GridRunner } from '@gridrocket/trading';
import { directCommands } from '@gridrocket/trading/nest';
import { RemotePaperProvider } from '@gridrocket/trading/testing/paper-rpc';

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

async function main() {
  const dir = process.env.DATA_DIR!;
  const name = process.env.RUNNER_NAME!;
  const pollMs = Number(process.env.POLL_MS ?? 25);
  const sessionTimeout = Number(process.env.RUNNER_SESSION_TIMEOUT_MS ?? 6000);
  const heartbeatInterval = Number(process.env.RUNNER_HEARTBEAT_MS ?? 500);
  const store = new SqliteEventStore(join(dir, 'events.sqlite'), 20);
  const events = reportingFenced(store);
  // each runner its own read store (its reactor checkpoint and its index of bots that should run)
  const reads = new SqliteReadStore(join(dir, `read-${name}.sqlite`));
  const kafka = new Kafka({
    clientId: `gridrocket-${name}`,
    brokers: process.env.RUNNER_KAFKA_BROKERS!.split(','),
    logLevel: logLevel.ERROR,
    logCreator: () => (entry) => process.stderr.write(`[kafkajs ${entry.namespace}] ${entry.log.message}\n`),
    retry: { retries: 8, initialRetryTime: 200, maxRetryTime: 2000 },
    connectionTimeout: 2000,
    requestTimeout: 5000,
  });
  const kafkaOwnership = new KafkaOwnership({
    kafka,
    groupId: process.env.RUNNER_GROUP!,
    topic: process.env.RUNNER_TOPIC!,
    partitions: Number(process.env.RUNNER_PARTITIONS ?? 12),
    replicationFactor: 1,
    consumerConfig: { sessionTimeout, heartbeatInterval, rebalanceTimeout: sessionTimeout },
    onError: (err) => process.stderr.write(`ownership: ${err.message}\n`),
  });
  const ownership = new FencedOwnership(kafkaOwnership, events, {
    scope: process.env.RUNNER_GROUP!,
    owner: name,
    onError: (err) => process.stderr.write(`fence: ${err.message}\n`),
    retryDelay: (attempt) => Math.min(1000, 50 * 2 ** Math.min(attempt, 5)),
  });
  const runner = new GridRunner({
    events,
    reads,
    commands: directCommands(events),
    exchanges: new RemotePaperProvider(process.env.PAPER_RPC_URL!, pollMs),
    ownership,
    name,
    pollMs,
    retryBaseMs: 20,
    retryMaxMs: 300,
    logger: { log: () => undefined, warn: (m) => process.stderr.write(`${m}\n`), error: (m) => process.stderr.write(`${m}\n`) },
  });
  const status = setInterval(() => {
    const owned = ownership.owned();
    const epochs = Object.fromEntries(owned.map((p) => [p, String(ownership.epochOf(p))]));
    say(`status ${JSON.stringify({ owned, running: runner.runningBots().sort(), epochs })}`);
  }, 250);
  let stopping = false;
  process.on('SIGTERM', () => {
    if (stopping) return;
    stopping = true;
    clearInterval(status);
    void (async () => {
      try {
        await runner.stop(); // leaves the group: its partitions go to the others, its bots' orders stay
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
  say(`ready ${process.pid}`);
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
