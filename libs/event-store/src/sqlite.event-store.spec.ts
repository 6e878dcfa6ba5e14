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
