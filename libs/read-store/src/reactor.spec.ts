import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { NewEvent, RecordedEvent, SqliteEventStore } from '@gridrocket/event-store';
import { startReactor } from './reactor';
import { SqliteReadStore } from './sqlite.read-store';

const ev = (type: string, n: number): NewEvent => ({
  id: randomUUID(),
  type,
  data: { n },
  metadata: { userId: 'u', correlationId: 'c', causationId: null, occurredAt: new Date().toISOString(), schemaVersion: 1 },
});

describe('reactor (checkpointed process-manager subscription)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gr-reactor-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('handles each stream in order, streams concurrently, and resumes after its checkpoint', async () => {
    const events = new SqliteEventStore(join(dir, 'e.sqlite'), 20);
    const reads = new SqliteReadStore(join(dir, 'r.sqlite'));
    for (let i = 0; i < 5; i++) {
      await events.append('bot-a', [ev('T', i)], 'any');
      await events.append('bot-b', [ev('T', i)], 'any');
    }
    const seen: string[] = [];
    let active = 0;
    let maxActive = 0;
    const handle = async (e: RecordedEvent) => {
      active++;
      maxActive = Math.max(maxActive, active);
      await new Promise((r) => setTimeout(r, e.streamId === 'bot-a' ? 5 : 1));
      seen.push(`${e.streamId}:${(e.data as { n: number }).n}`);
      active--;
    };
    const first = await startReactor({ name: 'test', events, reads, handle });
    await new Promise((r) => setTimeout(r, 200));
    await first.stop();
    expect(seen.filter((s) => s.startsWith('bot-a'))).toEqual([0, 1, 2, 3, 4].map((n) => `bot-a:${n}`));
    expect(seen.filter((s) => s.startsWith('bot-b'))).toEqual([0, 1, 2, 3, 4].map((n) => `bot-b:${n}`));
    expect(maxActive).toBe(2);
    expect(await reads.getCheckpoint('test')).toBe(await events.headPosition());

    await events.append('bot-a', [ev('T', 5)], 'any');
    seen.length = 0;
    const second = await startReactor({ name: 'test', events, reads, handle });
    await new Promise((r) => setTimeout(r, 100));
    await second.stop();
    expect(seen).toEqual(['bot-a:5']);
    await events.close();
    await reads.close();
  });
});
