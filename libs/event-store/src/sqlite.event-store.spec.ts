import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventStoreContract } from './event-store.contract';
import { SqliteEventStore } from './sqlite.event-store';

describe('SQLite event store (embedded default)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gr-es-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  eventStoreContract(async () => new SqliteEventStore(join(dir, 'events.sqlite'), 50));

  it('keeps what it acknowledged when reopened', async () => {
    const file = join(dir, 'reopen.sqlite');
    const a = new SqliteEventStore(file);
    await a.append('bot-1', [{ id: 'e1', type: 'T', data: { n: 1 }, metadata: { userId: 'u', correlationId: 'c', causationId: null, occurredAt: 'x', schemaVersion: 1 } }], 'no_stream');
    await a.close();
    const b = new SqliteEventStore(file);
    const events = await b.readStream('bot-1');
    expect(events.map((e) => e.data)).toEqual([{ n: 1 }]);
    await b.close();
  });
});

describe('SQLite event store: stream ranges (a rebuild reads a range of streams per thread)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gr-es-ranges-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const meta = { userId: 'u', correlationId: 'c', causationId: null, occurredAt: 'x', schemaVersion: 1 };

  it('splits the streams into ranges that together read each matching event once, stream by stream, up to the position given', async () => {
    const store = new SqliteEventStore(join(dir, 'ranges.sqlite'));
    // interleaved appends, streams of other prefixes (one sorting inside the prefix's byte range) and of other lengths
    const streams = ['bot-a', 'bot-b', 'bot-c', 'bot-d', 'bot-e', 'bot-ff', 'bot', 'bos-x', 'bot.z', 'user-1'];
    for (let round = 0; round < 7; round++)
      for (const [i, s] of streams.entries())
        if ((round + i) % 3 !== 0) await store.append(s, [{ id: `${s}-${round}`, type: round % 2 ? 'A' : 'B', data: { round }, metadata: meta }], 'any');
    const all = await store.readAll();
    const head = all[all.length - 3].position; // the last two events are past the position given
    const filter = { streamPrefixes: ['bot-'] };
    const expected = all
      .filter((e) => e.streamId.startsWith('bot-') && e.position <= head)
      .sort((a, b) => (a.streamId < b.streamId ? -1 : a.streamId > b.streamId ? 1 : Number(a.revision - b.revision)))
      .map((e) => e.id);
    for (const count of [1, 2, 3, 7]) {
      const ranges = store.streamRanges(filter, count, head);
      expect(ranges.length).toBeLessThanOrEqual(count);
      for (const page of [1, 2, 2_000]) {
        const read = ranges.flatMap((r) => [...store.readStreamRange(r, filter, head, page)]);
        expect(read.map((e) => e.id)).toEqual(expected);
      }
    }
    // a filter of two prefixes and an event type: tested on each row
    const two = { streamPrefixes: ['bot-', 'user-'], eventTypes: ['A'] };
    const ranges = store.streamRanges(two, 2, head);
    expect(ranges.flatMap((r) => [...store.readStreamRange(r, two, head, 3)]).map((e) => e.id).sort()).toEqual(
      all.filter((e) => (e.streamId.startsWith('bot-') || e.streamId.startsWith('user-')) && e.type === 'A' && e.position <= head).map((e) => e.id).sort(),
    );
    await store.close();
  });
});

describe('SQLite event store with its writer thread (the product: commits off the event loop)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gr-es-thread-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  eventStoreContract(async () => new SqliteEventStore(join(dir, 'events.sqlite'), 50, 'FULL', { writerThread: true }));

  it('keeps what it acknowledged when reopened, and commits many appends of one turn together', async () => {
    const file = join(dir, 'reopen.sqlite');
    const a = new SqliteEventStore(file, 50, 'FULL', { writerThread: true });
    const meta = { userId: 'u', correlationId: 'c', causationId: null, occurredAt: 'x', schemaVersion: 1 };
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => a.append(`bot-${i % 20}`, [{ id: `e${i}`, type: 'T', data: { n: i }, metadata: meta }], 'any')),
    );
    expect(new Set(results.map((r) => r.position)).size).toBe(200);
    // a conflict in the batch undoes only itself
    const [ok, refused] = await Promise.allSettled([
      a.append('bot-x', [{ id: 'x1', type: 'T', data: {}, metadata: meta }], 'no_stream'),
      a.append('bot-0', [{ id: 'x2', type: 'T', data: {}, metadata: meta }], 'no_stream'),
    ]);
    expect(ok.status).toBe('fulfilled');
    expect(refused.status === 'rejected' && refused.reason.name).toBe('WrongExpectedVersionError');
    await a.close();
    const b = new SqliteEventStore(file);
    expect((await b.readAll()).length).toBe(201);
    await b.close();
  });
});
