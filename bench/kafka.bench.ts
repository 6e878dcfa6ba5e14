import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Consumer, Kafka } from 'kafkajs';
import { SqliteEventStore } from '@gridrocket/event-store';
import { allTopics, createKafka, defaultTopicMap, ensureTopics } from '@gridrocket/streaming';
import { spotBot } from '../test/support/http-client';
import { spawnServer, stop } from '../test/support/server-process';
import { LightClient } from './light-client';
import { Figure, percentile, round } from './stats';
// the repository's broker script, from the sources or from dist/bench
const ROOT = __dirname.includes(`${sep}dist${sep}`) ? join(__dirname, '../..') : join(__dirname, '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { KafkaBroker, brokerAvailability } = require(join(ROOT, 'scripts/kafka/broker')) as {
  KafkaBroker: { start(): Promise<Broker> };
  brokerAvailability(): { ok: boolean; reason?: string };
};

interface Broker {
  brokers: string[];
  start(): Promise<unknown>;
  kill(signal: string): void;
  destroy(): Promise<void>;
}

/**
 * Issue 41, Kafka as an operator sees it from outside: the embedded stack (the built server, its runner on the
 * paper exchange, its forwarder) with `KAFKA_BROKERS` on a real broker of this section's own, under a steady load
 * of commands (users creating and editing bots) and bots trading on the paper walk. A consumer outside the server
 * reads the topics and times each event from its write in the store (`created` in the value) to its arrival.
 * - The floor, in the same run: a bare kafkajs producer and consumer on the same broker (what any event pays for
 *   the Kafka round trip alone, with acks=-1).
 * - An outage: the broker is SIGKILLed for BENCH_KAFKA_OUTAGE_S while the load goes on, then started again on its
 *   log; the time from its return to the forwarder reporting everything delivered (health: live, lag 0), and to
 *   the outside consumer having every event appended during the outage.
 * Needs Java 17 and Maven (or the jars fetched); skipped with the reason otherwise.
 */
export async function kafkaBench(): Promise<Figure[]> {
  const available = brokerAvailability();
  if (!available.ok) {
    console.log(`Kafka section skipped: ${available.reason}`);
    return [];
  }
  const seconds = Number(process.env.BENCH_KAFKA_SECONDS ?? 30);
  const outageS = Number(process.env.BENCH_KAFKA_OUTAGE_S ?? 30);
  const rate = Number(process.env.BENCH_KAFKA_RATE ?? 20); // commands a second (each one or two events)
  const broker = await KafkaBroker.start();
  const prefix = `bench-${randomUUID().slice(0, 8)}.`;
  const dataDir = mkdtempSync(join(tmpdir(), 'gr-bench-kafka-'));
  const figures: Figure[] = [];
  const kafka = createKafka({ brokers: broker.brokers, clientId: 'bench-outside' }, { level: 'error' });
  try {
    // 1. The floor: kafkajs alone, produce (acks=-1) → consume, on the same broker, at the same rate of messages.
    const floor = await kafkaFloor(kafka, `${prefix}floor`, Math.min(seconds, 15), rate * 2);
    figures.push({ name: 'floor: bare kafkajs produce (acks=-1) → consume, p99', value: round(percentile(floor, 99), 1), unit: 'ms' });

    // 2. The embedded stack on Kafka, outside faults.
    const server = await spawnServer(dataDir, { KAFKA_BROKERS: broker.brokers.join(','), KAFKA_TOPIC_PREFIX: prefix, KAFKA_PARTITIONS: '3', LOG_LEVEL: 'error', WEB_DIST: join(dataDir, 'none') }, { startTimeoutMs: 120_000 });
    const watch = await watchTopics(kafka, allTopics(defaultTopicMap(prefix)));
    try {
      const users = await Promise.all(Array.from({ length: 4 }, (_, i) => user(server.url, i)));
      // bots that trade on the paper walk (a tight ladder around the price), as a busy install does
      for (const u of users) for (let b = 0; b < 5; b++) await u.startBot();
      await new Promise((r) => setTimeout(r, 3_000)); // their first orders out
      watch.reset();
      const load = steadyLoad(users, rate);
      await new Promise((r) => setTimeout(r, seconds * 1000));
      const steady = watch.latencies();
      figures.push(
        { name: `event → Kafka consumer, embedded stack, ${rate} commands/s + 20 paper bots, p50`, value: round(percentile(steady, 50), 1), unit: 'ms' },
        { name: `event → Kafka consumer, embedded stack, ${rate} commands/s + 20 paper bots, p99`, value: round(percentile(steady, 99), 1), unit: 'ms', aim: '≤ 100 ms' },
        { name: 'event → Kafka p99 over the bare kafkajs floor', value: round(percentile(steady, 99) / Math.max(0.1, percentile(floor, 99)), 1), unit: '×' },
      );
      const parts = watch.parts();
      console.log(
        `kafka bench: ${steady.length} events timed outside faults; store write → sent by the server p50 ${round(percentile(parts.server, 50), 1)} ms p99 ${round(percentile(parts.server, 99), 1)} ms; sent → outside consumer p50 ${round(percentile(parts.kafka, 50), 1)} ms p99 ${round(percentile(parts.kafka, 99), 1)} ms; floor p50 ${round(percentile(floor, 50), 1)} ms`,
      );

      // 3. An outage: the broker killed, the load going on; then started again on its log. The outside consumer
      // of the steady run is closed first (a kafkajs consumer may give up on a long outage); the events appended
      // during the outage are read from the server's own store afterwards, and a new consumer looks for them.
      await watch.close();
      broker.kill('SIGKILL');
      const killedAt = Date.now();
      await new Promise((r) => setTimeout(r, outageS * 1000));
      await broker.start();
      const backAt = Date.now();
      const back = performance.now();
      await untilDelivered(server.url, 120_000);
      const deliveredS = (performance.now() - back) / 1000;
      await load.stop();
      const store = new SqliteEventStore(join(dataDir, 'events.sqlite'));
      const outageIds = new Set((await store.readAll()).filter((e) => Date.parse(e.created) >= killedAt && Date.parse(e.created) <= backAt).map((e) => e.id));
      await store.close();
      const after = await watchTopics(kafka, allTopics(defaultTopicMap(prefix)));
      const seen = await after.until((ids) => [...outageIds].every((id) => ids.has(id)), 120_000);
      await after.close();
      figures.push(
        { name: `outage ${outageS} s: events appended during it (commands and trading)`, value: outageIds.size, unit: 'events' },
        { name: `outage ${outageS} s: broker back → forwarder delivered all (health live, lag 0)`, value: round(deliveredS, 1), unit: 's', aim: '≤ 10 s' },
        { name: `outage ${outageS} s: broker back → a new outside consumer has every outage event`, value: round((seen - back) / 1000, 1), unit: 's' },
      );
      await stop(server.proc);
    } finally {
      await watch.close().catch(() => undefined);
      if (server.proc.exitCode === null) server.proc.kill('SIGKILL');
    }
    return figures;
  } finally {
    await broker.destroy().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function user(url: string, i: number) {
  const c = new LightClient(url);
  await c.signUp(`kafka-bench${i}-${randomUUID().slice(0, 8)}@example.com`);
  const uid = (await c.send('GET', '/api/auth/me')).body.uid as string;
  await c.send('POST', '/api/api-credentials', { access: { exchange: 'Binance', apiKey: `kafka-bench-key-${i}`, keySecret: 'bench-secret-0123456789', passPhrase: '', userId: uid } });
  const price = Number((await c.send('GET', `/api/priceSpot?exchange=Binance&symbol=BTCUSDT&userId=${uid}`)).body);
  if (!Number.isFinite(price) || price <= 0) throw new Error('no paper price for BTCUSDT');
  return {
    c,
    async startBot() {
      const created = await c.send('POST', '/api/bots', { ...spotBot, entryPrice: Math.round(price), interval: 20, takeProfit: 0.25 });
      if (created.status !== 201) throw new Error(`create ${created.status} ${JSON.stringify(created.body)}`);
      await c.send('GET', `/api/startBot?id=${created.body.id}`);
    },
    /** One command: a bot created, then edited (two events). */
    async command() {
      const created = await c.send('POST', '/api/bots', spotBot);
      if (created.status === 201) await c.send('PUT', `/api/bots/${created.body.id}`, { ...spotBot, numOfOrders: 4 });
    },
  };
}

/** `rate` commands a second spread over the users, until stopped. */
function steadyLoad(users: Awaited<ReturnType<typeof user>>[], rate: number) {
  let running = true;
  const loops = users.map(async (u) => {
    const period = (1000 * users.length) / rate;
    while (running) {
      const t0 = performance.now();
      await u.command().catch(() => undefined);
      await new Promise((r) => setTimeout(r, Math.max(0, period - (performance.now() - t0))));
    }
  });
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** The outside consumer: every message's delay from its write (`created`) to its arrival here. */
async function watchTopics(kafka: Kafka, topics: string[]) {
  await ensureTopics(kafka, topics, 3); // the server's forwarder makes them too, in the background: whoever is first
  const consumer: Consumer = kafka.consumer({ groupId: `bench-watch-${randomUUID()}`, maxWaitTimeInMs: 100 });
  await consumer.connect();
  await consumer.subscribe({ topics, fromBeginning: true });
  let lat: number[] = [];
  /** The same split at the producer's timestamp (kafkajs stamps each message as it sends it): the server's part, then Kafka's. */
  let serverPart: number[] = [];
  let kafkaPart: number[] = [];
  const ids = new Set<string>();
  const waiters: (() => void)[] = [];
  let closed = false;
  const state = {
    reset: () => {
      lat = [];
      serverPart = [];
      kafkaPart = [];
    },
    latencies: () => lat.slice(),
    parts: () => ({ server: serverPart.slice(), kafka: kafkaPart.slice() }),
    async until(done: (ids: Set<string>) => boolean, timeoutMs: number): Promise<number> {
      const deadline = Date.now() + timeoutMs;
      while (!done(ids)) {
        if (Date.now() > deadline) throw new Error('the outside consumer did not get every event');
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 100);
        });
      }
      return performance.now();
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await consumer.disconnect();
    },
  };
  await consumer.run({
    eachMessage: async ({ message }) => {
      const value = JSON.parse(message.value!.toString()) as { id: string; created: string };
      const created = Date.parse(value.created);
      if (!ids.has(value.id)) {
        ids.add(value.id);
        const now = Date.now();
        const sentAt = Number(message.timestamp);
        lat.push(now - created);
        serverPart.push(sentAt - created);
        kafkaPart.push(now - sentAt);
      }
      for (const w of waiters.splice(0)) w();
    },
  });
  return state;
}

/** Until the server's health says the forwarder is live with nothing behind. */
async function untilDelivered(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const h = (await (await fetch(`${url}/api/health`)).json()) as { forwarder?: { state: string; delivering: boolean } };
    if (h.forwarder?.state === 'live' && h.forwarder.delivering) return;
    if (Date.now() > deadline) throw new Error(`the forwarder did not deliver within ${timeoutMs} ms: ${JSON.stringify(h.forwarder)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** kafkajs alone: `perSecond` messages a second for `seconds`, each timed from send to arrival. */
async function kafkaFloor(kafka: Kafka, topic: string, seconds: number, perSecond: number): Promise<number[]> {
  await ensureTopics(kafka, [topic], 3); // created and known to the broker's metadata (retried while it propagates)
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  const consumer = kafka.consumer({ groupId: `bench-floor-${randomUUID()}`, maxWaitTimeInMs: 100 });
  await Promise.all([producer.connect(), consumer.connect()]);
  await consumer.subscribe({ topics: [topic], fromBeginning: false });
  const sent = new Map<string, number>();
  const lat: number[] = [];
  let joined = false;
  consumer.on(consumer.events.GROUP_JOIN, () => (joined = true));
  await consumer.run({
    eachMessage: async ({ message }) => {
      const at = sent.get(message.key!.toString());
      if (at !== undefined) lat.push(performance.now() - at);
    },
  });
  while (!joined) await new Promise((r) => setTimeout(r, 100));
  const end = performance.now() + seconds * 1000;
  for (let n = 0; performance.now() < end; n++) {
    const key = `k${n}`;
    sent.set(key, performance.now());
    await producer.send({ topic, acks: -1, messages: [{ key, value: 'x' }] });
    await new Promise((r) => setTimeout(r, 1000 / perSecond));
  }
  await new Promise((r) => setTimeout(r, 1000));
  await Promise.all([producer.disconnect(), consumer.disconnect()]);
  return lat;
}
