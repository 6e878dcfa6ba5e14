import { randomUUID } from 'node:crypto';
import { EventStore, NewEvent, SqliteEventStore } from '@gridrocket/event-store';
import { ReadStore, SqliteReadStore } from '@gridrocket/read-store';
import { until } from '@gridrocket/shared/testing/until';
import type { EventSink } from './event-sink.port';
import { Forwarder } from './forwarder';
import { StreamValue, TopicMap, allTopics, defaultTopicMap } from './stream-message';

export interface ReceivedMessage {
  topic: string;
  key: string;
  headers: Record<string, string>;
  value: StreamValue;
}

/** What a sink's contract run needs: fresh sinks on its own topics, and a way to read them back. */
export interface SinkHarness {
  topics: { routes: TopicMap; fallback: string };
  newSink(): EventSink;
  /** Every message on the harness's topics so far (a stream's messages in order). */
  received(): Promise<ReceivedMessage[]>;
  existingTopics(): Promise<string[]>;
  close(): Promise<void>;
}

export function event(type: string, data: unknown, correlationId: string = randomUUID()): NewEvent {
  return {
    id: randomUUID(),
    type,
    data,
    metadata: { userId: 'u-1', correlationId, causationId: null, occurredAt: new Date().toISOString(), schemaVersion: 1 },
  };
}

/**
 * The forwarder's contract, run against every sink (in-process always, Kafka
 * when KAFKA_BROKERS is set): topics by stream prefix, key = stream id,
 * headers, value without secrets, per-stream order, topics created at
 * start-up, resume from the checkpoint, retries without skipping, lag.
 */
/**
 * Fault injection (optional): wrappers put around the stores and the sink the forwarder uses
 * (the test itself appends and reads through the plain stores). Only faults that change no
 * outcome the contract states belong here (no lost acknowledgements: they duplicate by design).
 */
export interface ContractFaults {
  events?(store: EventStore): EventStore;
  reads?(store: ReadStore): ReadStore;
  sink?(sink: EventSink): EventSink;
}

export function forwarderContract(name: string, makeHarness: () => Promise<SinkHarness>, faults?: ContractFaults) {
  describe(`forwarder contract: ${name}`, () => {
    let harness: SinkHarness;
    let events: SqliteEventStore;
    let reads: SqliteReadStore;
    const forwarders: Forwarder[] = [];

    const forwarder = (sink = harness.newSink(), extra: Partial<ConstructorParameters<typeof Forwarder>[0]> = {}) => {
      const f = new Forwarder({
        events: faults?.events ? faults.events(events) : events,
        reads: faults?.reads ? faults.reads(reads) : reads,
        sink: faults?.sink ? faults.sink(sink) : sink,
        topics: harness.topics,
        retryDelay: () => 20,
        ...extra,
      });
      forwarders.push(f);
      return f;
    };
    const mine = async () => {
      const ids = new Set((await events.readAll()).map((e) => e.id));
      return (await harness.received()).filter((m) => ids.has(m.headers['event-id']));
    };

    beforeEach(async () => {
      harness = await makeHarness();
      events = new SqliteEventStore(':memory:', 20);
      reads = new SqliteReadStore(':memory:');
    });
    afterEach(async () => {
      for (const f of forwarders.splice(0)) await f.stop();
      await harness.close();
      await events.close();
      await reads.close();
    });

    it('creates its topics at start-up', async () => {
      const f = forwarder();
      await f.start();
      expect(f.topics).toEqual(allTopics(harness.topics));
      const existing = await harness.existingTopics();
      for (const t of allTopics(harness.topics)) expect(existing).toContain(t);
    });

    it('publishes every event to the topic of its stream, keyed by stream id, with headers and a JSON value', async () => {
      const bot = `bot-${randomUUID()}`;
      const cred = `credential-${randomUUID()}`;
      const user = `user-${randomUUID()}`;
      const odd = `runner-${randomUUID()}`;
      await events.append(bot, [event('BotCreated', { botId: 'b', symbol: 'BTCUSDT' }, 'corr-1')], 'no_stream');
      await events.append(cred, [event('CredentialAdded', { exchange: 'Binance', apiKey: 'pub-key-id' })], 'no_stream');
      await events.append(user, [event('UserRegistered', { email: 'a@example.com' })], 'no_stream');
      await events.append(odd, [event('RunnerHeartbeat', { at: 1 })], 'no_stream');
      const f = forwarder();
      await f.start();
      // no order across topics (Kafka keeps it per partition only)
      const got = (await until('4 messages', async () => {
        const seen = await mine();
        return seen.length >= 4 && seen;
      }, 15_000)).sort((a, b) => a.value.position - b.value.position);
      const { routes, fallback } = harness.topics;
      const topicOf = (prefix: string) => routes.find((r) => r.prefix === prefix)!.topic;
      expect(got.map((m) => [m.topic, m.key])).toEqual([
        [topicOf('bot-'), bot],
        [topicOf('credential-'), cred],
        [topicOf('user-'), user],
        [fallback, odd],
      ]);
      const stored = (await events.readStream(bot))[0];
      expect(got[0].headers).toEqual(expect.objectContaining({ 'event-id': stored.id, 'event-type': 'BotCreated', 'correlation-id': 'corr-1' }));
      expect(got[0].value).toEqual({
        id: stored.id,
        type: 'BotCreated',
        streamId: bot,
        revision: 0,
        position: Number(stored.position),
        created: stored.created,
        data: { botId: 'b', symbol: 'BTCUSDT' },
        metadata: stored.metadata,
      });
    });

    it('never publishes a secret: sealed values and secret fields are dropped', async () => {
      const sealed = 'v1.AAAAAAAAAAAAAAAA.BBBBBBBBBBBBBBBBBBBBBB.CCCCCCCCCCCC';
      const cred = `credential-${randomUUID()}`;
      await events.append(cred, [event('CredentialAdded', {
        exchange: 'Kucoin',
        apiKey: 'pub-key-id',
        keySecret: 'plain-secret-that-must-not-leak',
        passPhrase: 'plain-passphrase',
        wrappedDataKey: sealed,
        nested: { anything: sealed, ok: 1 },
      })], 'no_stream');
      const f = forwarder();
      await f.start();
      const [m] = await until('1 message', async () => {
        const seen = await mine();
        return seen.length >= 1 && seen;
      }, 15_000);
      const raw = JSON.stringify(m);
      expect(raw).not.toContain('plain-secret-that-must-not-leak');
      expect(raw).not.toContain('plain-passphrase');
      expect(raw).not.toContain(sealed);
      expect(m.value.data).toEqual({ exchange: 'Kucoin', apiKey: 'pub-key-id', nested: { ok: 1 } });
      expect(m.value.redacted).toEqual(['data.keySecret', 'data.passPhrase', 'data.wrappedDataKey', 'data.nested.anything']);
    });

    it('keeps each stream in order, live as well as catching up', async () => {
      const streams = [0, 1, 2].map(() => `bot-${randomUUID()}`);
      for (const s of streams) await events.append(s, [event('A', { n: 0 })], 'no_stream');
      const f = forwarder(undefined, { batchSize: 7 });
      await f.start();
      for (let n = 1; n < 40; n++) {
        const s = streams[n % 3];
        await events.append(s, [event('A', { n })], 'any');
      }
      const got = await until('42 messages', async () => {
        const seen = await mine();
        return seen.length >= 42 && seen;
      }, 15_000);
      expect(got).toHaveLength(42);
      for (const s of streams) {
        const revisions = got.filter((m) => m.key === s).map((m) => m.value.revision);
        expect(revisions).toEqual([...revisions].sort((a, b) => a - b));
        expect(new Set(revisions).size).toBe(revisions.length);
      }
    });

    it('resumes from its checkpoint after a restart, skipping nothing and resending nothing after a clean stop', async () => {
      const s = `bot-${randomUUID()}`;
      await events.append(s, [event('A', { n: 1 }), event('A', { n: 2 })], 'no_stream');
      const first = forwarder();
      await first.start();
      expect(await first.waitFor(await events.headPosition())).toBe(true);
      await first.stop();
      await events.append(s, [event('A', { n: 3 }), event('A', { n: 4 })], 1n);
      const second = forwarder();
      await second.start();
      expect(await second.waitFor(await events.headPosition())).toBe(true);
      const got = await until('4 messages', async () => {
        const seen = await mine();
        return seen.length >= 4 && seen;
      }, 15_000);
      expect(got.map((m) => (m.value.data as { n: number }).n)).toEqual([1, 2, 3, 4]);
    });

    it('retries a batch the sink refuses, and never moves past it', async () => {
      const s = `bot-${randomUUID()}`;
      await events.append(s, [event('A', { n: 1 }), event('A', { n: 2 })], 'no_stream');
      const real = harness.newSink();
      let failures = 3;
      const flaky: EventSink = {
        kind: real.kind,
        start: (t) => real.start(t),
        close: () => real.close(),
        async publish(messages) {
          if (failures-- > 0) throw new Error('broker unavailable');
          return real.publish(messages);
        },
      };
      const errors: number[] = [];
      const f = forwarder(flaky, { onError: (_e, attempt) => errors.push(attempt) });
      await f.start();
      expect(await f.waitFor(await events.headPosition(), 10_000)).toBe(true);
      if (faults) expect(errors.length).toBeGreaterThanOrEqual(3); // the injected faults count too
      else expect(errors).toEqual([1, 2, 3]);
      const got = await until('2 messages', async () => {
        const seen = await mine();
        return seen.length >= 2 && seen;
      }, 15_000);
      expect(got.map((m) => (m.value.data as { n: number }).n)).toEqual([1, 2]);
    });

    it('reports its lag', async () => {
      const s = `bot-${randomUUID()}`;
      await events.append(s, [event('A', {}), event('A', {}), event('A', {})], 'no_stream');
      let gate!: () => void;
      const opened = new Promise<void>((r) => (gate = r));
      const real = harness.newSink();
      const held: EventSink = { kind: real.kind, start: (t) => real.start(t), close: () => real.close(), publish: async (m) => { await opened; return real.publish(m); } };
      const f = forwarder(held);
      await f.start();
      const behind = await f.lag();
      expect(behind).toMatchObject({ position: 0n, head: await events.headPosition(), behind: 3n });
      gate();
      expect(await f.waitFor(await events.headPosition())).toBe(true);
      const caught = await f.lag();
      expect(caught.behind).toBe(0n);
      expect(caught.lastLatencyMs).toEqual(expect.any(Number));
    });
  });
}
