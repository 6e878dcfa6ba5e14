import { forwarderContract, ReceivedMessage, type SinkHarness } from './event-sink.contract';
import { InProcessSink } from './in-process.sink';
import { defaultTopicMap, StreamValue } from './stream-message';
import type { StreamMessage } from './stream-message';
import { FaultSchedule } from '@gridrocket/event-store/testing/fault-schedule';
import { FaultyEventStore } from '@gridrocket/event-store/testing/faulty.event-store';
import { FaultyReadStore } from '@gridrocket/read-store/testing/faulty.read-store';
import { FaultySink, KafkaFaultKind, kafkaFault } from './testing/faulty.sink';
import { randomUUID } from 'node:crypto';
import { KafkaJSConnectionError, KafkaJSError, KafkaJSNumberOfRetriesExceeded } from 'kafkajs';
import { SqliteEventStore } from '@gridrocket/event-store';
import { SqliteReadStore } from '@gridrocket/read-store';
import { until } from '@gridrocket/shared/testing/until';
import type { EventSink } from './event-sink.port';
import { Forwarder } from './forwarder';
import { isFatalProducerError } from './kafka.sink';

const toReceived = (m: StreamMessage): ReceivedMessage => ({ topic: m.topic, key: m.key, headers: { ...m.headers }, value: JSON.parse(m.value) as StreamValue });

/** The contract's broker: in-process sinks, what they hold and the topics they were started with. */
const inProcessBroker = async (): Promise<SinkHarness> => {
  const sinks: InProcessSink[] = [];
  return {
    topics: defaultTopicMap(),
    newSink() {
      const s = new InProcessSink();
      sinks.push(s);
      return s;
    },
    async received() {
      return sinks.flatMap((s) => s.snapshot().map(toReceived));
    },
    async existingTopics() {
      return [...new Set(sinks.flatMap((s) => s.topics()))];
    },
    async close() {},
  };
};

forwarderContract('in-process', inProcessBroker);

describe('in-process sink: the live tail', () => {
  const msg = (type: string, n: number): StreamMessage => ({
    topic: 'gridrocket.bots',
    key: 'bot-1',
    headers: { 'event-id': `e${n}`, 'event-type': type, 'correlation-id': 'c' },
    value: JSON.stringify({ n }),
    position: BigInt(n),
  });

  it('tails live, optionally from the beginning and by event type', async () => {
    const sink = new InProcessSink(3);
    await sink.start(['gridrocket.bots']);
    await sink.publish([msg('BotCreated', 1), msg('BotStarted', 2)]);
    const live = sink.tail();
    const fromStart = sink.tail({ fromBeginning: true, types: ['BotStarted'] });
    await sink.publish([msg('BotStarted', 3), msg('BotStopped', 4)]);
    const liveIt = live[Symbol.asyncIterator]();
    expect((await liveIt.next()).value.headers['event-id']).toBe('e3');
    expect((await liveIt.next()).value.headers['event-id']).toBe('e4');
    const startIt = fromStart[Symbol.asyncIterator]();
    expect((await startIt.next()).value.headers['event-id']).toBe('e2');
    expect((await startIt.next()).value.headers['event-id']).toBe('e3');
    live.close();
    fromStart.close();
    expect((await liveIt.next()).done).toBe(true);
    // bounded memory: keeps the newest `capacity`
    expect(sink.snapshot().map((m) => m.headers['event-id'])).toEqual(['e2', 'e3', 'e4']);
    expect(sink.published).toBe(4);
  });

  it('keeps the newest `capacity` in order however often the window has turned, for snapshots and tails from the beginning', async () => {
    const sink = new InProcessSink(3);
    await sink.start(['gridrocket.bots']);
    for (let n = 1; n <= 8; n++) await sink.publish([msg(n % 2 ? 'BotStarted' : 'BotStopped', n)]);
    expect(sink.snapshot().map((m) => m.headers['event-id'])).toEqual(['e6', 'e7', 'e8']);
    const fromStart = sink.tail({ fromBeginning: true, types: ['BotStarted'] });
    const it = fromStart[Symbol.asyncIterator]();
    expect((await it.next()).value.headers['event-id']).toBe('e7');
    fromStart.close();
    expect(sink.published).toBe(8);
  });

  it('refuses a topic it was not started with', async () => {
    const sink = new InProcessSink();
    await sink.start(['a']);
    await expect(sink.publish([{ ...msg('X', 1), topic: 'b' }])).rejects.toThrow(/Unknown topic b/);
  });

  it('ends open tails when it closes', async () => {
    const sink = new InProcessSink();
    await sink.start(['gridrocket.bots']);
    const tail = sink.tail();
    const it = tail[Symbol.asyncIterator]();
    const next = it.next();
    await sink.close();
    expect((await next).done).toBe(true);
  });
});

// The same contract with the forwarder's store and sink failing on seeded schedules: its
// subscription is dropped every ~80 ms, a fifth of its checkpoint commits are rejected, a fifth of
// its publishes are refused or time out. What it states still holds (order, nothing skipped, resume).
// Each wrapper draws from its own schedule, so the n-th commit's and the n-th publish's fate is
// fixed by its seed whatever the timers do (one shared schedule let the subscription drops' draws
// reorder the others: a CI run's publishes drew no refusal). With these seeds the 2nd commit is
// rejected, and the first three publishes are refused fatally, refused, and timed out.
describe('under injected faults', () => {
  const drops = new FaultSchedule(12);
  const commits = new FaultSchedule(12);
  const publishes = new FaultSchedule(27);
  forwarderContract(
    'in-process, under faults',
    inProcessBroker,
    {
      events: (e) => new FaultyEventStore(e, drops, { dropSubscriptionsEveryMs: 80 }),
      reads: (r) => new FaultyReadStore(r, commits, { rejectCommitRate: 0.2 }),
      sink: (s) => new FaultySink(s, publishes, { failPublishRate: 0.2, timeoutRate: 0.1, timeoutMs: 30, fatalRate: 0.05 }),
    },
  );
  afterAll(() => {
    const hit = { ...drops.summary(), ...commits.summary(), ...publishes.summary() };
    console.log(`forwarder contract under faults: injected ${JSON.stringify(hit)}`);
    expect(hit['publish.fail'] ?? 0).toBeGreaterThan(0);
    expect(hit['commit.reject'] ?? 0).toBeGreaterThan(0);
    expect(hit['publish.timeout'] ?? 0).toBeGreaterThan(0);
  });
});

// Each error a KafkaSink's publish can reject with (kafkajs's own classes and broker codes, as
// FaultySink throws them): the forwarder reports it (health: retrying, not delivering), retries the
// whole batch with back-off, and delivers every event in order; none is skipped.
describe('the forwarder on each kafkajs error', () => {
  const kinds: KafkaFaultKind[] = ['connection', 'retries-exceeded', 'not-enough-replicas', 'not-leader', 'timeout', 'unknown-producer', 'out-of-order'];
  const classOf: Record<KafkaFaultKind, string> = {
    connection: 'KafkaJSConnectionError',
    'retries-exceeded': 'KafkaJSNumberOfRetriesExceeded',
    'not-enough-replicas': 'KafkaJSProtocolError',
    'not-leader': 'KafkaJSProtocolError',
    timeout: 'KafkaJSRequestTimeoutError',
    'unknown-producer': 'KafkaJSProtocolError',
    'out-of-order': 'KafkaJSProtocolError',
  };

  it('builds them as kafkajs does (class, broker code, retriable)', () => {
    expect(kafkaFault('unknown-producer')).toMatchObject({ name: 'KafkaJSProtocolError', type: 'UNKNOWN_PRODUCER_ID', code: 59, retriable: false });
    expect(kafkaFault('out-of-order')).toMatchObject({ type: 'OUT_OF_ORDER_SEQUENCE_NUMBER', code: 45, retriable: false });
    expect(kafkaFault('not-enough-replicas')).toMatchObject({ type: 'NOT_ENOUGH_REPLICAS', code: 19, retriable: true });
    expect(kafkaFault('not-leader')).toMatchObject({ type: 'NOT_LEADER_FOR_PARTITION', code: 6, retriable: true });
    expect(kafkaFault('retries-exceeded')).toBeInstanceOf(KafkaJSNumberOfRetriesExceeded);
    expect((kafkaFault('retries-exceeded') as Error & { cause?: Error }).cause).toBeInstanceOf(KafkaJSConnectionError);
    for (const k of kinds) expect(kafkaFault(k)).toBeInstanceOf(KafkaJSError);
    expect(kinds.filter((k) => isFatalProducerError(kafkaFault(k)))).toEqual(['unknown-producer', 'out-of-order']);
  });

  it.each(kinds)('%s: reported, retried, and every event delivered in order', async (kind) => {
    const events = new SqliteEventStore(':memory:', 20);
    const reads = new SqliteReadStore(':memory:');
    const inner = new InProcessSink();
    let failuresLeft = 3;
    const thrown: Error[] = [];
    const sink: EventSink = {
      kind: 'kafka',
      start: (t) => inner.start(t),
      publish: async (m) => {
        if (failuresLeft-- > 0) {
          const err = kafkaFault(kind);
          thrown.push(err);
          throw err;
        }
        await inner.publish(m);
      },
      close: () => inner.close(),
    };
    const seen: Error[] = [];
    const f = new Forwarder({ events, reads, sink, topics: defaultTopicMap(), batchSize: 10, retryDelay: () => 30, onPublishFailed: (e) => seen.push(e) });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 25; i++) {
        const e = { id: randomUUID(), type: 'BotStarted', data: { i }, metadata: { userId: 'u', correlationId: 'c', causationId: null, occurredAt: new Date().toISOString(), schemaVersion: 1 } };
        await events.append(`bot-${i % 3}`, [e], 'any');
        ids.push(e.id);
      }
      await f.start();
      await until('the forwarder reports the failure', async () => (await f.delivery()).state === 'retrying');
      expect(f.health().delivering).toBe(false);
      expect((await f.delivery()).lastError).toBe(thrown[0].message);
      expect(await f.waitFor(await events.headPosition(), 5_000)).toBe(true);
      expect(seen.map((e) => e.name)).toEqual([classOf[kind], classOf[kind], classOf[kind]]);
      expect(seen).toEqual(thrown);
      expect(inner.snapshot().map((m) => m.headers['event-id'])).toEqual(ids);
      expect(await f.delivery()).toMatchObject({ state: 'live', delivering: true, failedAttempts: 0 });
    } finally {
      await f.stop();
      await events.close();
      await reads.close();
    }
  });
});
