import { join } from 'node:path';
import { SqliteEventStore } from '@gridrocket/event-store';
import { Client, spotBot } from './support/http-client';
import { kill9, spawnServer } from './support/server-process';
import { useTempDir } from './support/close-all';

jest.setTimeout(60_000);

describe('durability: kill -9 while 200 creates are in flight', () => {
  const dataDir = useTempDir('gr-kill-');

  it('keeps every acknowledged bot, once, in the event store and the read model', async () => {
    const first = await spawnServer(dataDir);
    const client = new Client(first.url);
    const user = await client.signUp('durable@example.com');

    const acknowledged: string[] = [];
    let answered = 0;
    let killed: Promise<void> | null = null;
    const requests = Array.from({ length: 200 }, async () => {
      try {
        const res = await client.post('/api/bots', spotBot);
        answered++;
        if (res.status === 201) acknowledged.push(res.body.id);
        else throw new Error(`unexpected ${res.status} ${res.text}`);
      } catch (err) {
        if (!killed) throw err; // only the kill may break a request
      }
      // kill once a fair share has been acknowledged, with many still in flight
      if (!killed && acknowledged.length >= 40) killed = kill9(first.proc);
    });
    await Promise.allSettled(requests);
    await killed;
    expect(killed).not.toBeNull();
    expect(acknowledged.length).toBeGreaterThanOrEqual(40);
    expect(answered).toBeLessThan(200); // some were in flight when the process died

    // The event store file holds every acknowledged bot, each created once.
    const store = new SqliteEventStore(join(dataDir, 'events.sqlite'));
    const all = await store.readAll();
    await store.close();
    const created = all.filter((e) => e.type === 'BotCreated');
    const createdIds = created.map((e) => (e.data as { botId: string }).botId);
    expect(new Set(createdIds).size).toBe(createdIds.length);
    for (const id of acknowledged) expect(createdIds).toContain(id);

    // After a restart and catch-up, the read model lists each of them exactly once.
    const second = await spawnServer(dataDir);
    try {
      const again = new Client(second.url);
      expect((await again.post('/api/auth/login', { email: 'durable@example.com', password: 'correct-horse-1' })).status).toBe(200);
      let listed: string[] = [];
      for (let i = 0; i < 50; i++) {
        const health = await again.get('/api/health');
        if (health.body.projectionLag === '0') break;
        await new Promise((r) => setTimeout(r, 100));
      }
      listed = (await again.get(`/api/bots/${user.uid}`)).body.map((b: { id: string }) => b.id);
      expect(new Set(listed).size).toBe(listed.length);
      for (const id of acknowledged) expect(listed).toContain(id);
      expect(listed.sort()).toEqual([...createdIds].sort());
    } finally {
      await kill9(second.proc);
    }
  });
});
