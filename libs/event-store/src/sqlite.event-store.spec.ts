import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { until } from '@gridrocket/shared/testing/until';
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
    const settled = await Promise.race([underWay.then(() => 'committed', () => 'failed'), new Promise((r) => setTimeout(() => r('hung'), 5000))]);
    expect(['committed', 'failed']).toContain(settled);
    // the caller retries the same event: stored exactly once either way
    await store.append('bot-1', ev('b'), 0n);
    await store.append('bot-1', ev('c'), 1n);
    expect(writer.spawned).toBe(2);
    expect((await store.readStream('bot-1')).map((e) => e.id)).toEqual(['a', 'b', 'c']);
    await store.close();
  });
});
