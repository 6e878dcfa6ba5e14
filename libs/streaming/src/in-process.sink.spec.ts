import { forwarderContract, ReceivedMessage } from './event-sink.contract';
import { InProcessSink } from './in-process.sink';
import { defaultTopicMap, StreamValue } from './stream-message';
import type { StreamMessage } from './stream-message';
import { FaultSchedule } from '@gridrocket/event-store/testing/fault-schedule';
import { FaultyEventStore } from '@gridrocket/event-store/testing/faulty.event-store';
import { FaultyReadStore } from '@gridrocket/read-store/testing/faulty.read-store';
import { FaultySink } from './testing/faulty.sink';

const toReceived = (m: StreamMessage): ReceivedMessage => ({ topic: m.topic, key: m.key, headers: { ...m.headers }, value: JSON.parse(m.value) as StreamValue });

forwarderContract('in-process', async () => {
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
});

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

// The same contract with the forwarder's store and sink failing on a seeded schedule: its
// subscription is dropped every ~80 ms, a fifth of its checkpoint commits are rejected, a fifth of
// its publishes are refused or time out. What it states still holds (order, nothing skipped, resume).
describe('under injected faults', () => {
  const schedule = new FaultSchedule(12);
  forwarderContract(
    'in-process, under faults',
    async () => {
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
    },
    {
      events: (e) => new FaultyEventStore(e, schedule, { dropSubscriptionsEveryMs: 80 }),
      reads: (r) => new FaultyReadStore(r, schedule, { rejectCommitRate: 0.2 }),
      sink: (s) => new FaultySink(s, schedule, { failPublishRate: 0.2, timeoutRate: 0.1, timeoutMs: 30 }),
    },
  );
  afterAll(() => {
    const hit = schedule.summary();
    console.log(`forwarder contract under faults: injected ${JSON.stringify(hit)}`);
    expect(hit['publish.fail'] ?? 0).toBeGreaterThan(0);
    expect(hit['commit.reject'] ?? 0).toBeGreaterThan(0);
  });
});
