import { randomUUID } from 'node:crypto';
import * as Kurrent from '@kurrent/kurrentdb-client';
import { NewEvent, RecordedEvent, WrongExpectedVersionError } from './event-store.port';
import { FencedError } from './fence';
import { KurrentDbEventStore } from './kurrentdb.event-store';
import { ResilientEventStore, isTransient } from './resilient.event-store';
import { FakeKurrentDbClient } from './testing/fake-kurrentdb.client';
import { FaultSchedule } from './testing/fault-schedule';
import { FaultyEventStore } from './testing/faulty.event-store';
import { unavailable } from './testing/kurrentdb-errors';
import { SqliteEventStore } from './sqlite.event-store';

// The KurrentDB adapter driven through a scripted stand-in of the client (no server can run here):
// the store is built from a connection string, and the client's KurrentDBClient.connectionString
// hands it the stand-in.
const ev = (n: number, type = 'T'): NewEvent => ({
  id: randomUUID(),
  type,
  data: { n },
  metadata: { userId: 'u', correlationId: 'c', causationId: null, occurredAt: new Date().toISOString(), schemaVersion: 1 },
});

function storeOver(fake: FakeKurrentDbClient): KurrentDbEventStore {
  jest.spyOn(Kurrent.KurrentDBClient, 'connectionString').mockReturnValue(fake as never);
  return new KurrentDbEventStore('kurrentdb://stand-in:2113?tls=false');
}
afterEach(() => jest.restoreAllMocks());

describe('KurrentDB: transient errors are the client\'s own (finding 1)', () => {
  it('an append refused with the client\'s UnavailableError is made again by the resilient store', async () => {
    const fake = new FakeKurrentDbClient();
    const store = new ResilientEventStore(storeOver(fake), { retryDelay: () => 1 });
    fake.beforeAppend = () => {
      throw unavailable('Connection dropped');
    };
    const result = await store.append('bot-1', [ev(1)], 'no_stream');
    expect(result.nextExpectedRevision).toBe(0n);
    expect((await store.readStream('bot-1')).length).toBe(1);
  });

  it('the client\'s Unavailable/DeadlineExceeded/NotLeader are transient, its WrongExpectedVersion is not', () => {
    expect(isTransient(unavailable('x'))).toBe(true);
    expect(isTransient(new Kurrent.DeadlineExceededError(undefined as never, 'x'))).toBe(true);
    expect(isTransient(new Kurrent.CancelledError(undefined as never, 'x'))).toBe(true);
    expect(isTransient(new Kurrent.WrongExpectedVersionError(undefined, { streamName: 's', expected: 0n, current: 1n }))).toBe(false);
    expect(isTransient(new Kurrent.UnknownError(undefined as never, 'x'))).toBe(false);
    expect(isTransient(Object.assign(new Error('busy'), { code: 'SQLITE_BUSY' }))).toBe(true);
  });

  it('FaultyEventStore fails with the client\'s classes (UnavailableError, DeadlineExceededError)', async () => {
    const inner = new SqliteEventStore(':memory:', 5);
    const refusing = new FaultyEventStore(inner, new FaultSchedule(1), { failAppendRate: 1 });
    await expect(refusing.append('s', [ev(1)], 'any')).rejects.toBeInstanceOf(Kurrent.UnavailableError);
    const slow = new FaultyEventStore(inner, new FaultSchedule(1), { appendTimeoutRate: 1, appendTimeoutMs: 1 });
    await expect(slow.append('s', [ev(2)], 'any')).rejects.toBeInstanceOf(Kurrent.DeadlineExceededError);
    const reads = new FaultyEventStore(inner, new FaultSchedule(1), { failReadRate: 1 });
    await expect(reads.readAll()).rejects.toBeInstanceOf(Kurrent.UnavailableError);
    await inner.close();
  });
});

describe('KurrentDB: the ownership fence (finding 2)', () => {
  it('B claims and appends between A\'s fence read and A\'s append: A\'s append is refused, then fenced', async () => {
    const fake = new FakeKurrentDbClient();
    const store = storeOver(fake);
    await store.append('ownership-p0', [ev(0)], 'no_stream'); // A's epoch 0
    const fenceA = { streamId: 'ownership-p0', revision: 0n };
    await store.append('bot-1', [ev(1)], 'no_stream', { fence: fenceA });
    fake.beforeAppend = async () => {
      // between A's reads and A's append: B claims (epoch 1) and records for the bot
      await store.append('ownership-p0', [ev(100)], 0n);
      await store.append('bot-1', [ev(101)], 'any', { fence: { streamId: 'ownership-p0', revision: 1n } });
    };
    await expect(store.append('bot-1', [ev(2)], 'any', { fence: fenceA })).rejects.toBeInstanceOf(Error);
    expect((await store.readStream('bot-1')).map((e) => (e.data as { n: number }).n)).toEqual([1, 101]);
    await expect(store.append('bot-1', [ev(3)], 'any', { fence: fenceA })).rejects.toBeInstanceOf(FencedError);
    await expect(store.append('bot-1', [ev(4)], 1n, { fence: fenceA })).rejects.toBeInstanceOf(FencedError);
    expect((await store.readStream('bot-1')).map((e) => (e.data as { n: number }).n)).toEqual([1, 101]);
  });

  it('an append with an epoch older than the stream\'s last stamp is refused even if the ownership read was stale', async () => {
    const fake = new FakeKurrentDbClient();
    const store = storeOver(fake);
    await store.append('ownership-p0', [ev(0)], 'no_stream');
    await store.append('ownership-p0', [ev(1)], 0n); // B: epoch 1
    await store.append('bot-1', [ev(1)], 'no_stream', { fence: { streamId: 'ownership-p0', revision: 1n } });
    // A's ownership read answered from before B's claim (a follower's, or in flight): its epoch 0 looks current
    const realRead = fake.readStream.bind(fake);
    jest.spyOn(fake, 'readStream').mockImplementation((s, o) => (s === 'ownership-p0' ? realRead(s, { ...o, fromRevision: 0n, direction: 'backwards' }) : realRead(s, o)));
    await expect(store.append('bot-1', [ev(2)], 0n, { fence: { streamId: 'ownership-p0', revision: 0n } })).rejects.toBeInstanceOf(FencedError);
    expect((await store.readStream('bot-1')).map((e) => (e.data as { n: number }).n)).toEqual([1]);
  });

  it('the stamp is not part of the events read through the port; a retried fenced append is not written twice', async () => {
    const fake = new FakeKurrentDbClient();
    const store = storeOver(fake);
    await store.append('ownership-p0', [ev(0)], 'no_stream');
    const fence = { streamId: 'ownership-p0', revision: 0n };
    const e = ev(1);
    await store.append('bot-1', [e], 'no_stream', { fence });
    await store.append('bot-1', [e], 'no_stream', { fence });
    await store.append('bot-1', [e], 'any', { fence });
    const read = await store.readStream('bot-1');
    expect(read.length).toBe(1);
    expect(read[0].metadata).toEqual(e.metadata);
    await expect(store.append('bot-1', [ev(2)], 5n, { fence })).rejects.toBeInstanceOf(WrongExpectedVersionError);
  });
});

describe('KurrentDB: readAll never answers [] before the end of the log (finding 3)', () => {
  it('a first window without a match is read on: the matches further on are returned', async () => {
    const fake = new FakeKurrentDbClient();
    const store = storeOver(fake);
    for (let i = 0; i < 50; i++) await store.append(`other-${i % 5}`, [ev(i, 'Noise')], 'any');
    for (let i = 0; i < 3; i++) await store.append('bot-a', [ev(i, 'Wanted')], 'any');
    const got = await store.readAll({ maxCount: 10, filter: { streamPrefixes: ['bot-'], eventTypes: ['Wanted'] } });
    expect(got.map((e) => e.type)).toEqual(['Wanted', 'Wanted', 'Wanted']);
    const after = await store.readAll({ fromPosition: got[0].position, maxCount: 1, filter: { eventTypes: ['Wanted'] } });
    expect(after.map((e) => e.position)).toEqual([got[1].position]);
    expect(await store.readAll({ fromPosition: got[2].position, maxCount: 10, filter: { eventTypes: ['Wanted'] } })).toEqual([]);
  });

  it('a partition whose streams come late in the log is found (client-side partition, windows read on)', async () => {
    const fake = new FakeKurrentDbClient();
    const store = storeOver(fake);
    for (let i = 0; i < 40; i++) await store.append('bot-0', [ev(i)], 'any'); // '0' → partition 0 of 2
    await store.append('bot-1', [ev(99)], 'any'); // '1' → partition 1
    const got = await store.readAll({ maxCount: 5, filter: { streamPrefixes: ['bot-'] }, partition: { count: 2, index: 1 } });
    expect(got.map((e) => e.streamId)).toEqual(['bot-1']);
  });
});

describe('KurrentDB: subscriptions report the server\'s checkpoints (finding 4)', () => {
  it('a filtered subscription that matches nothing in a long stretch reports progress through it, after what it delivered', async () => {
    const fake = new FakeKurrentDbClient();
    const store = new ResilientEventStore(storeOver(fake));
    await store.append('bot-a', [ev(0, 'Wanted')], 'any');
    for (let i = 0; i < 700; i++) await fake.appendToStream(`other-${i % 7}`, [{ id: randomUUID(), type: 'Noise', data: {}, metadata: {} }]);
    const head = await store.headPosition();
    const seen: (RecordedEvent | bigint)[] = [];
    const sub = store.subscribeToAll({ fromPosition: 'start', filter: { eventTypes: ['Wanted'] }, onProgress: (at) => seen.push(at) });
    const it = sub[Symbol.asyncIterator]();
    seen.push((await it.next()).value as RecordedEvent);
    for (let i = 0; i < 50 && seen.length < 3; i++) await new Promise((r) => setTimeout(r, 5));
    await sub.close();
    expect((seen[0] as RecordedEvent).type).toBe('Wanted');
    const progress = seen.slice(1) as bigint[];
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress[progress.length - 1]).toBeGreaterThan((seen[0] as RecordedEvent).position);
    expect(progress[progress.length - 1]).toBeLessThan(head);
    expect([...progress].sort((a, b) => (a < b ? -1 : 1))).toEqual(progress);
  });
});
