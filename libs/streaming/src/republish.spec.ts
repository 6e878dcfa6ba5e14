/*
 * `npm run republish` (issue 41): the event log, or a range of its positions, sent to the sink again as the
 * forwarder sends it (topic, key, value, event-id), with `republished: true`; in order, a batch at a time,
 * a refused batch sent again, the sink closed at the end. The real SQLite store and the in-process sink; the
 * run against a real broker that came back empty is test/kafka-empty-broker.spec.ts.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KafkaJSConnectionError, KafkaJSNumberOfRetriesExceeded } from 'kafkajs';
import { NewEvent, SqliteEventStore } from '@gridrocket/event-store';
import type { EventSink } from './event-sink.port';
import { InProcessSink } from './in-process.sink';
import { REPUBLISHED_HEADER, republish } from './republish';
import { StreamMessage, TOPICS, defaultTopicMap, toStreamMessage } from './stream-message';

const ev = (n: number, secret?: string): NewEvent => ({
  id: randomUUID(),
  type: n % 2 ? 'OrderFilled' : 'BotStarted',
  data: secret ? { n, apiSecret: secret } : { n },
  metadata: { userId: 'u', correlationId: `c-${n}`, causationId: null, occurredAt: new Date().toISOString(), schemaVersion: 1 },
});

describe('republish', () => {
  let dir: string;
  let events: SqliteEventStore;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gr-republish-'));
    events = new SqliteEventStore(join(dir, 'events.sqlite'));
    // 25 events over 5 bot streams and one user stream
    for (let n = 0; n < 25; n++) await events.append(n === 7 ? 'user-u' : `bot-b${n % 5}`, [ev(n, n === 7 ? 'sealed-not-really' : undefined)], 'any');
  });
  afterEach(async () => {
    await events.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The in-process sink, with what it was sent, each publish, and whether it was closed. */
  function recording(failOn: Set<number> = new Set()) {
    const inner = new InProcessSink();
    const sent: StreamMessage[] = [];
    const state = { publishes: 0, closed: false, started: [] as string[] };
    const sink: EventSink = {
      kind: 'recording',
      async start(topics) {
        state.started = topics;
        await inner.start(topics);
      },
      async publish(messages) {
        state.publishes++;
        if (failOn.has(state.publishes)) {
          // what KafkaSink rethrows when the broker refuses connections (kafkajs's retrier wrapper)
          throw new KafkaJSNumberOfRetriesExceeded(new KafkaJSConnectionError('Connection error: connect ECONNREFUSED 127.0.0.1:9092'), { retryCount: 5, retryTime: 4800 });
        }
        await inner.publish(messages);
        sent.push(...messages);
      },
      async close() {
        state.closed = true;
      },
    };
    return { sink, sent, state };
  }

  it('sends every event of the log in position order, as the forwarder would, marked republished', async () => {
    const { sink, sent, state } = recording();
    const progress: bigint[] = [];
    const result = await republish({ events, sink, batchSize: 10, onProgress: (p) => progress.push(p.position) });
    const log = await events.readAll();
    expect(result).toMatchObject({ sent: 25, from: 1n, to: log[24].position });
    expect(sent.map((m) => m.headers['event-id'])).toEqual(log.map((e) => e.id));
    // what the forwarder sends for the same event, plus the marker
    const map = defaultTopicMap();
    for (const [i, m] of sent.entries()) {
      const f = toStreamMessage(log[i], map);
      expect(m).toEqual({ ...f, headers: { ...f.headers, [REPUBLISHED_HEADER]: 'true' } });
    }
    expect(sent.find((m) => m.key === 'user-u')?.topic).toBe(TOPICS.users);
    expect(sent.find((m) => m.key === 'user-u')?.value).not.toContain('sealed-not-really'); // scrubbed as the forwarder scrubs
    expect(progress).toEqual([log[9].position, log[19].position, log[24].position]); // a batch at a time
    expect(state.started).toEqual(expect.arrayContaining(Object.values(TOPICS)));
    expect(state.closed).toBe(true);
  });

  it('sends a range of positions, both ends included', async () => {
    const { sink, sent } = recording();
    const log = await events.readAll();
    const result = await republish({ events, sink, from: log[4].position, to: log[11].position, batchSize: 3 });
    expect(result.sent).toBe(8);
    expect(sent.map((m) => m.headers['event-id'])).toEqual(log.slice(4, 12).map((e) => e.id));
  });

  it('sends a refused batch again, and gives up after its attempts with the sink closed', async () => {
    const retried: number[] = [];
    const first = recording(new Set([2, 3]));
    await republish({ events, sink: first.sink, batchSize: 10, retryDelay: () => 1, onRetry: (_e, a) => retried.push(a) });
    expect(retried).toEqual([1, 2]);
    expect(new Set(first.sent.map((m) => m.headers['event-id'])).size).toBe(25);

    const dead = recording(new Set([1, 2, 3]));
    await expect(republish({ events, sink: dead.sink, maxAttempts: 3, retryDelay: () => 1 })).rejects.toThrow(KafkaJSNumberOfRetriesExceeded);
    expect(dead.state.closed).toBe(true);
  });

  it('refuses an empty range', async () => {
    await expect(republish({ events, sink: recording().sink, from: 30n, to: 20n })).rejects.toThrow(/Nothing to republish/);
  });
});
