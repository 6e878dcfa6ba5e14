import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { until } from '@gridrocket/shared/testing/until';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventStoreContract } from './event-store.contract';
import type { NewEvent, RecordedEvent, Subscription } from './event-store.port';
import { SqliteEventStore } from './sqlite.event-store';

const meta = { userId: 'u', correlationId: 'c', causationId: null, occurredAt: 'x', schemaVersion: 1 };
let ids = 0;
const evs = (n: number, type = 'T'): NewEvent[] => Array.from({ length: n }, () => ({ id: `ev-${++ids}`, type, data: { n: ids }, metadata: meta }));
/** What `sub` delivers until it has `count` events. */
async function take(sub: Subscription, count: number): Promise<RecordedEvent[]> {
  const seen: RecordedEvent[] = [];
  for await (const e of sub) {
    seen.push(e);
    if (seen.length === count) break;
  }
  await sub.close();
  return seen;
}
const positions = (events: RecordedEvent[]) => events.map((e) => e.position);

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

  it('copies the WAL back into the database file on its checkpointer thread while it runs, not in the commits', async () => {
    const file = join(dir, 'checkpoints.sqlite');
    const store = new SqliteEventStore(file, 50, 'FULL', { writerThread: true });
    const meta = { userId: 'u', correlationId: 'c', causationId: null, occurredAt: 'x', schemaVersion: 1 };
    const empty = statSync(file).size;
    // far fewer pages than SQLite's own checkpoint threshold (1,000): only the checkpointer copies them back
    await Promise.all(Array.from({ length: 100 }, (_, i) => store.append(`bot-${i}`, [{ id: `cp${i}`, type: 'T', data: { i }, metadata: meta }], 'no_stream')));
    await until('the appended pages are in the database file', () => statSync(file).size > empty, 10_000);
    expect((await store.readAll()).length).toBe(100);
    await store.close();
  }, 20_000);

  it('starts a new writer when its thread dies: what was under way settles, a retry with the same ids is one append, later appends work', async () => {
    const file = join(dir, 'writer-dies.sqlite');
    const store = new SqliteEventStore(file, 50, 'FULL', { writerThread: true });
    const meta = { userId: 'u', correlationId: 'c', causationId: null, occurredAt: 'x', schemaVersion: 1 };
    const ev = (id: string) => [{ id, type: 'T', data: { id }, metadata: meta }];
    await store.append('bot-1', ev('a'), 'no_stream');
    const writer = (store as unknown as { writer: { worker: import('node:worker_threads').Worker; spawned: number } }).writer;
    // the thread dies while an append is under way: the append settles (committed or refused), never hangs
    const underWay = store.append('bot-1', ev('b'), 0n);
    await writer.worker.terminate();
    let timer: NodeJS.Timeout | undefined;
    const settled = await Promise.race([underWay.then(() => 'committed', () => 'failed'), new Promise((r) => (timer = setTimeout(() => r('hung'), 5000)))]);
    clearTimeout(timer);
    expect(['committed', 'failed']).toContain(settled);
    // the caller retries the same event: stored exactly once either way
    await store.append('bot-1', ev('b'), 0n);
    await store.append('bot-1', ev('c'), 1n);
    expect(writer.spawned).toBe(2);
    expect((await store.readStream('bot-1')).map((e) => e.id)).toEqual(['a', 'b', 'c']);
    await store.close();
  });
});

// The subscriptions at the head share one read of the new rows (sqlite-tail.ts); these are the cases
// a shared read can get wrong that the contract does not reach.
describe('SQLite event store: the live subscriptions share one read of the new rows', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gr-es-tail-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("sees another process's appends by its poll, and a subscription that read them itself before the poll does not get them twice", async () => {
    const file = join(dir, 'two-processes.sqlite');
    // a long poll, so that the second subscription reads the other process's rows before the poll does
    const here = new SqliteEventStore(file, 1000, 'FULL', { writerThread: true });
    const other = new SqliteEventStore(file, 50);
    await here.append('s-here', evs(3), 'no_stream');
    const a: RecordedEvent[] = [];
    const live = (async () => {
      for await (const e of here.subscribeToAll({ fromPosition: 0n })) if (a.push(e) === 25) break;
    })();
    await new Promise((r) => setTimeout(r, 50));
    await other.append('s-other', evs(10), 'no_stream');
    const joined = take(here.subscribeToAll({ fromPosition: 3n }), 22);
    await new Promise((r) => setTimeout(r, 50));
    // only the other process appends: the poll brings it to both
    await other.append('s-other', evs(5), 9n);
    await until("both subscriptions have the other process's appends", () => a.length === 18, 5000);
    // the other process appends just before this one, long before the next poll: this one's commit is
    // not handed out alone (the rows between come first)
    await other.append('s-other', evs(2), 14n);
    await here.append('s-here', evs(5), 2n);
    const [, b] = await Promise.all([live, joined]);
    const all = positions(await here.readAll());
    expect(positions(a)).toEqual(all);
    expect(positions(b)).toEqual(all.slice(3));
    expect(a.map((e) => e.streamId).slice(-7)).toEqual([...Array(2).fill('s-other'), ...Array(5).fill('s-here')]);
    await other.close();
    await here.close();
  }, 20_000);

  it('a consumer that falls far behind is let go by the shared read, catches up by itself and misses nothing', async () => {
    const store = new SqliteEventStore(join(dir, 'slow.sqlite'), 50, 'FULL', { writerThread: true });
    const slow = store.subscribeToAll({ fromPosition: 0n });
    const it = slow[Symbol.asyncIterator]();
    const first = await Promise.all([it.next(), store.append('s-0', evs(1), 'no_stream')]).then(([r]) => r.value as RecordedEvent);
    const eager = take(store.subscribeToAll({ fromPosition: 0n }), 6001);
    // far more than the shared read queues for one subscription, while the slow one takes nothing
    for (let i = 0; i < 6; i++) await Promise.all(Array.from({ length: 100 }, (_, j) => store.append(`s-${i}-${j}`, evs(10), 'no_stream')));
    const rest: RecordedEvent[] = [];
    while (rest.length < 6000) rest.push((await it.next()).value as RecordedEvent);
    await slow.close();
    const all = positions(await store.readAll());
    expect(all).toHaveLength(6001);
    expect(positions([first, ...rest])).toEqual(all);
    expect(positions(await eager)).toEqual(all);
    await store.close();
  }, 60_000);

  it('hands a live subscription nothing for an idempotent re-append or a refused one', async () => {
    const store = new SqliteEventStore(join(dir, 'again.sqlite'), 50, 'FULL', { writerThread: true });
    const seen = take(store.subscribeToAll({ fromPosition: 0n }), 4);
    await new Promise((r) => setTimeout(r, 50));
    const batch = evs(2);
    await store.append('s-a', batch, 'no_stream');
    // the same events again, and a conflicting append, in one commit with a good one
    const [again, refused] = await Promise.allSettled([store.append('s-a', batch, 'no_stream'), store.append('s-a', evs(1), 'no_stream'), store.append('s-b', evs(1), 'no_stream')]);
    expect(again.status).toBe('fulfilled');
    expect(refused.status).toBe('rejected');
    await store.append('s-a', evs(1), 1n);
    expect(positions(await seen)).toEqual(positions(await store.readAll()));
    await store.close();
  }, 20_000);

  it('tells a filtered live subscription how far it has looked past events it does not match', async () => {
    const store = new SqliteEventStore(join(dir, 'progress.sqlite'), 50, 'FULL', { writerThread: true });
    let progress = 0n;
    const sub = store.subscribeToAll({ fromPosition: 'end', filter: { eventTypes: ['Wanted'] }, onProgress: (at) => (progress = at) });
    const wanted = take(sub, 1);
    await new Promise((r) => setTimeout(r, 50));
    const skipped = await store.append('s-p', evs(4, 'Other'), 'no_stream');
    await until('progress passes the unmatched events', () => progress >= skipped.position, 5000);
    const hit = await store.append('s-p', evs(1, 'Wanted'), 3n);
    expect((await wanted).map((e) => e.position)).toEqual([hit.position]);
    await store.close();
  }, 20_000);

  it('ends a live subscription waiting at the head when it is closed, and all of them when the store closes', async () => {
    const store = new SqliteEventStore(join(dir, 'close.sqlite'), 50, 'FULL', { writerThread: true });
    await store.append('s-c', evs(2), 'no_stream');
    const drain = (sub: Subscription) =>
      (async () => {
        let n = 0;
        for await (const _ of sub) n++;
        return n;
      })();
    const a = store.subscribeToAll({ fromPosition: 'start' });
    const b = store.subscribeToAll({ fromPosition: 'start' });
    const [ends, endsWithStore] = [drain(a), drain(b)];
    await new Promise((r) => setTimeout(r, 100));
    await a.close();
    expect(await ends).toBe(2);
    await store.close();
    expect(await endsWithStore).toBe(2);
  }, 20_000);
});
