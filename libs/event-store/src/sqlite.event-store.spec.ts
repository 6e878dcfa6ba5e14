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
