/*
 * Finding 5: a dead Kafka producer must not be retried forever, and the forwarder must say when it
 * is not delivering. The sink is the real KafkaSink on a stub of kafkajs's Kafka whose producers
 * throw kafkajs's real errors (KafkaJSProtocolError built by kafkajs's createErrorFromCode, as its
 * produce response decoder does); the forwarder is the real one on SQLite stores.
 */
import { randomUUID } from 'node:crypto';
import { KafkaJSConnectionError, KafkaJSNonRetriableError, KafkaJSNumberOfRetriesExceeded, KafkaJSProtocolError } from 'kafkajs';
import type { Kafka, ProducerBatch, ProducerConfig } from 'kafkajs';
import { NewEvent, SqliteEventStore } from '@gridrocket/event-store';
import { SqliteReadStore } from '@gridrocket/read-store';
import { until } from '@gridrocket/shared/testing/until';
import type { EventSink } from './event-sink.port';
import { Forwarder } from './forwarder';
import { KafkaSink } from './kafka.sink';
import { defaultTopicMap, StreamMessage } from './stream-message';
import { stubKafkaAdmin } from './testing/stub-kafka-admin';

// built here as kafkajs builds a broker's error answer (src/protocol/error.js), so that this spec
// needs nothing of ours but the sink and the forwarder
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createErrorFromCode } = require('kafkajs/src/protocol/error') as { createErrorFromCode(code: number): KafkaJSProtocolError };
const kafkaProtocolError = (code: number) => createErrorFromCode(code);
const KAFKA_ERROR_CODES = { OUT_OF_ORDER_SEQUENCE_NUMBER: 45, INVALID_PRODUCER_EPOCH: 47, UNKNOWN_PRODUCER_ID: 59 };
const FATAL = ['OUT_OF_ORDER_SEQUENCE_NUMBER', 'UNKNOWN_PRODUCER_ID', 'INVALID_PRODUCER_EPOCH'];
const typeOf = (e: unknown): string | undefined => (e as { type?: string }).type ?? ((e as { cause?: { type?: string } }).cause?.type);
const refused = () => new KafkaJSNumberOfRetriesExceeded(new KafkaJSConnectionError('Connection error: connect ECONNREFUSED 127.0.0.1:9092', { broker: '127.0.0.1:9092', code: 'ECONNREFUSED' }), { retryCount: 5, retryTime: 4800 });

class StubProducer {
  connected = false;
  disconnected = false;
  readonly sent: { key: string; id: string; topic: string }[] = [];
  constructor(
    readonly id: number,
    readonly config: ProducerConfig,
    /** What each sendBatch throws (null: it goes through), by call. */
    private readonly fail: (call: number) => Error | null,
  ) {}
  private calls = 0;
  async connect() {
    this.connected = true;
  }
  async disconnect() {
    this.connected = false;
    this.disconnected = true;
  }
  async sendBatch(batch: ProducerBatch) {
    if (!this.connected) throw new Error(`producer ${this.id} is not connected`);
    const err = this.fail(++this.calls);
    if (err) throw err;
    for (const t of batch.topicMessages ?? []) for (const m of t.messages) this.sent.push({ topic: t.topic, key: String(m.key), id: String((m.headers as Record<string, string>)['event-id']) });
    return [];
  }
}

/** kafkajs's Kafka, as far as KafkaSink uses it: admin (topics) and producers. */
function stubKafka(failFor: (producer: number, call: number) => Error | null) {
  const producers: StubProducer[] = [];
  const topics = new Set<string>();
  const kafka = {
    // kafkajs: UNKNOWN_TOPIC_OR_PARTITION for a topic the broker does not serve
    admin: stubKafkaAdmin(topics, (asked) => {
      if (asked.some((t) => !topics.has(t))) throw kafkaProtocolError(3); // UNKNOWN_TOPIC_OR_PARTITION
      return { topics: asked.map((name) => ({ name, partitions: [{ partitionId: 0, leader: 1 }] })) };
    }),
    producer: (config: ProducerConfig) => {
      const id = producers.length + 1;
      const p: StubProducer = new StubProducer(id, config, (call: number) => failFor(id, call));
      producers.push(p);
      return p;
    },
  } as unknown as Kafka;
  return { kafka, producers };
}

const message = (n: number): StreamMessage => ({
  topic: 'gridrocket.bots',
  key: `bot-${n % 3}`,
  headers: { 'event-id': `e${n}`, 'event-type': 'BotStarted', 'correlation-id': 'c' },
  value: JSON.stringify({ n }),
  position: BigInt(n),
});

const settings = { brokers: ['127.0.0.1:1'], partitions: 1 };

describe('KafkaSink: a producer that cannot recover is replaced', () => {
  it.each([
    ['UNKNOWN_PRODUCER_ID', () => kafkaProtocolError(KAFKA_ERROR_CODES.UNKNOWN_PRODUCER_ID)],
    ['OUT_OF_ORDER_SEQUENCE_NUMBER', () => kafkaProtocolError(KAFKA_ERROR_CODES.OUT_OF_ORDER_SEQUENCE_NUMBER)],
    ['INVALID_PRODUCER_EPOCH', () => kafkaProtocolError(KAFKA_ERROR_CODES.INVALID_PRODUCER_EPOCH)],
    ['UNKNOWN_PRODUCER_ID inside a KafkaJSNonRetriableError', () => { const e = kafkaProtocolError(KAFKA_ERROR_CODES.UNKNOWN_PRODUCER_ID); return Reflect.construct(KafkaJSNonRetriableError, [e, { cause: e }]) as Error; /* as kafkajs's retrier wraps it */ }],
  ])('after %s it closes the producer, and the retry goes out on a new one', async (_name, fatal) => {
    const { kafka, producers } = stubKafka((producer) => (producer === 1 ? fatal() : null));
    const resets: Error[] = [];
    const sink = new KafkaSink(settings, kafka, { onProducerReset: (e) => resets.push(e) });
    await sink.start(['gridrocket.bots']);
    const err = await sink.publish([message(1), message(2)]).catch((e: Error) => e);
    expect(FATAL).toContain(typeOf(err));
    expect(producers[0].disconnected).toBe(true); // closed, not retried
    await sink.publish([message(1), message(2)]); // the forwarder's retry of the same batch
    expect(producers).toHaveLength(2); // a new producer: InitProducerId gives it a new producer id
    expect(producers[1].connected).toBe(true);
    expect(producers[1].sent.map((m) => m.id)).toEqual(['e1', 'e2']);
    expect(sink.producerResets).toBe(1);
    expect(resets).toHaveLength(1);
    await sink.close();
    expect(producers[1].disconnected).toBe(true);
  });

  it('keeps the producer for retriable errors (its sequence numbers were rolled back: the broker de-duplicates the resend)', async () => {
    const faults = [refused(), new KafkaJSConnectionError('Connection error: connect ECONNREFUSED 127.0.0.1:9092'), kafkaProtocolError(19), kafkaProtocolError(6)];
    const { kafka, producers } = stubKafka((_p, call) => faults[call - 1] ?? null);
    const sink = new KafkaSink(settings, kafka);
    await sink.start(['gridrocket.bots']);
    for (const f of faults) {
      await expect(sink.publish([message(1)])).rejects.toBe(f);
    }
    await sink.publish([message(1)]);
    expect(producers).toHaveLength(1);
    expect(sink.producerResets).toBe(0);
    await sink.close();
  });

  it("gives the producer a bounded retry, so that an outage surfaces to the forwarder (KafkaJSNumberOfRetriesExceeded) instead of hanging", async () => {
    const { kafka, producers } = stubKafka(() => null);
    const sink = new KafkaSink(settings, kafka);
    await sink.start(['gridrocket.bots']);
    const retry = producers[0].config.retry!;
    expect(producers[0].config).toMatchObject({ idempotent: true, maxInFlightRequests: 1 });
    expect(retry.retries).toBeLessThanOrEqual(10);
    // the worst case of kafkajs's back-off (factor 0.2, multiplier 2, capped at maxRetryTime)
    let wait = 0;
    for (let i = 0, t = retry.initialRetryTime ?? 300; i < retry.retries!; i++, t = Math.min(t * 2 * 1.2, retry.maxRetryTime ?? 30_000)) wait += t;
    expect(wait).toBeLessThan(30_000);
    await sink.close();
  });
});

function ev(n: number): NewEvent {
  return {
    id: randomUUID(),
    type: 'BotStarted',
    data: { n },
    metadata: { userId: 'u', correlationId: `c-${n}`, causationId: null, occurredAt: new Date().toISOString(), schemaVersion: 1 },
  };
}

describe('the forwarder on a dead producer, a hung publish and a long outage', () => {
  jest.setTimeout(20_000);
  let events: SqliteEventStore;
  let reads: SqliteReadStore;
  const forwarders: Forwarder[] = [];
  beforeEach(() => {
    events = new SqliteEventStore(':memory:', 20);
    reads = new SqliteReadStore(':memory:');
  });
  afterEach(async () => {
    for (const f of forwarders.splice(0)) await f.stop();
    await events.close();
    await reads.close();
  });
  const streams = ['bot-a', 'bot-b', 'bot-c'];
  const appendMany = async (count: number, from = 0) => {
    const ids: string[] = [];
    for (let i = from; i < from + count; i++) {
      const e = ev(i);
      await events.append(streams[i % streams.length], [e], 'any');
      ids.push(e.id);
    }
    return ids;
  };

  it('resends the whole batch on a new producer after UNKNOWN_PRODUCER_ID: every event once, in order per stream', async () => {
    // the first producer is dead: every send of it fails, as kafkajs's would after the broker lost its state
    const { kafka, producers } = stubKafka((producer) => (producer === 1 ? kafkaProtocolError(KAFKA_ERROR_CODES.UNKNOWN_PRODUCER_ID) : null));
    const sink = new KafkaSink(settings, kafka);
    const failures: Error[] = [];
    const f = new Forwarder({ events, reads, sink, topics: defaultTopicMap(), batchSize: 20, retryDelay: () => 10, onPublishFailed: (e) => failures.push(e) });
    forwarders.push(f);
    const ids = await appendMany(50);
    await f.start();
    expect(await f.waitFor(await events.headPosition(), 5_000)).toBe(true);
    expect(producers.length).toBe(2);
    expect(producers[0].sent).toEqual([]);
    expect(producers[1].sent.map((m) => m.id)).toEqual(ids);
    expect(failures.map((e) => (e as { type?: string }).type)).toEqual(['UNKNOWN_PRODUCER_ID']);
    expect(f.health()).toMatchObject({ running: true, delivering: true, failed: null });
    expect((await f.delivery()).state).toBe('live');
  });

  it('says it is not delivering while publishes fail, and that it recovered after', async () => {
    let down = true;
    const sink: EventSink = {
      kind: 'kafka',
      start: async () => undefined,
      publish: async () => {
        if (down) throw refused();
      },
      close: async () => undefined,
    };
    const f = new Forwarder({ events, reads, sink, topics: defaultTopicMap(), batchSize: 20, retryDelay: () => 20 });
    forwarders.push(f);
    await f.start();
    await appendMany(5);
    await until('the forwarder retrying', async () => (await f.delivery()).state === 'retrying');
    const during = await f.delivery();
    expect(during).toMatchObject({ delivering: false, lastDeliveryAt: null });
    expect(during.failedAttempts).toBeGreaterThan(0);
    expect(during.lastError).toMatch(/ECONNREFUSED/);
    expect(f.health().delivering).toBe(false);
    expect((await f.status()).state).toBe('retrying');
    down = false;
    expect(await f.waitFor(await events.headPosition(), 5_000)).toBe(true);
    const after = await f.delivery();
    expect(after).toMatchObject({ state: 'live', delivering: true, failedAttempts: 0, undeliveredSeconds: 0, buffered: 0 });
    expect(after.lastDeliveryAt).not.toBeNull();
  });

  it('says it is not delivering while a publish hangs (a broker that does not answer), not only once it fails', async () => {
    let release!: () => void;
    const hung = new Promise<void>((r) => (release = r));
    const sink: EventSink = { kind: 'kafka', start: async () => undefined, publish: () => hung, close: async () => undefined };
    const f = new Forwarder({ events, reads, sink, topics: defaultTopicMap(), batchSize: 20, stallAfterMs: 200 });
    forwarders.push(f);
    await f.start();
    await appendMany(3);
    await new Promise((r) => setTimeout(r, 100));
    expect(f.health().delivering).toBe(true); // in flight, not yet late
    await new Promise((r) => setTimeout(r, 250));
    expect(f.health().delivering).toBe(false);
    expect((await f.status()).state).toBe('retrying');
    const d = await f.delivery();
    expect(d.state).toBe('retrying');
    expect(d.undeliveredSeconds).toBeGreaterThan(0.2);
    release();
    expect(await f.waitFor(await events.headPosition(), 5_000)).toBe(true);
    expect(f.health().delivering).toBe(true);
  });

  it('holds at most one batch in memory while the sink is away, however many events wait in the store', async () => {
    let down = true;
    const seen: number[] = [];
    const sink: EventSink = {
      kind: 'kafka',
      start: async () => undefined,
      publish: async (messages) => {
        seen.push(messages.length);
        if (down) throw refused();
      },
      close: async () => undefined,
    };
    const f = new Forwarder({ events, reads, sink, topics: defaultTopicMap(), batchSize: 25, retryDelay: () => 5 });
    forwarders.push(f);
    await f.start();
    let max = 0;
    for (let i = 0; i < 20; i++) {
      await appendMany(20, i * 20);
      await new Promise((r) => setTimeout(r, 5));
      max = Math.max(max, f.buffered, (await f.delivery()).buffered);
    }
    expect(max).toBeLessThanOrEqual(25);
    expect((await f.delivery()).bufferedMax).toBeLessThanOrEqual(25);
    down = false;
    expect(await f.waitFor(await events.headPosition(), 10_000)).toBe(true);
    expect(Math.max(...seen)).toBeLessThanOrEqual(25);
    expect((await f.delivery()).bufferedMax).toBeLessThanOrEqual(25);
  });
});
