import { randomUUID } from 'node:crypto';
import { EventStore, NewEvent, RecordedEvent, StreamNotFoundError, WrongExpectedVersionError } from './event-store.port';

/**
 * The one contract every event-store adapter passes (KurrentDB semantics).
 * `makeStore` returns a store; each test uses fresh stream names so the suite
 * also runs against a shared production server.
 */
export function eventStoreContract(makeStore: () => Promise<EventStore>) {
  let store: EventStore;
  const run = randomUUID().slice(0, 8);
  const stream = (name: string) => `contract${run}-${name}-${randomUUID().slice(0, 8)}`;
  const ev = (type: string, data: unknown = {}): NewEvent => ({
    id: randomUUID(),
    type,
    data,
    metadata: { userId: 'u1', correlationId: randomUUID(), causationId: null, occurredAt: new Date().toISOString(), schemaVersion: 1 },
  });

  beforeAll(async () => {
    store = await makeStore();
  });
  afterAll(async () => {
    await store?.close();
  });

  describe('append with an expected revision', () => {
    it('no_stream creates a stream at revision 0 and refuses an existing one', async () => {
      const s = stream('a');
      const r = await store.append(s, [ev('A'), ev('B')], 'no_stream');
      expect(r.nextExpectedRevision).toBe(1n);
      await expect(store.append(s, [ev('C')], 'no_stream')).rejects.toBeInstanceOf(WrongExpectedVersionError);
    });

    it('a revision number must equal the current revision', async () => {
      const s = stream('b');
      await store.append(s, [ev('A')], 'no_stream');
      await expect(store.append(s, [ev('B')], 5n)).rejects.toBeInstanceOf(WrongExpectedVersionError);
      const r = await store.append(s, [ev('B')], 0n);
      expect(r.nextExpectedRevision).toBe(1n);
      await expect(store.append(s, [ev('C')], 0n)).rejects.toBeInstanceOf(WrongExpectedVersionError);
    });

    it('stream_exists refuses a missing stream and accepts an existing one', async () => {
      const s = stream('c');
      await expect(store.append(s, [ev('A')], 'stream_exists')).rejects.toBeInstanceOf(WrongExpectedVersionError);
      await store.append(s, [ev('A')], 'any');
      const r = await store.append(s, [ev('B')], 'stream_exists');
      expect(r.nextExpectedRevision).toBe(1n);
    });

    it('any appends whatever the revision', async () => {
      const s = stream('d');
      await store.append(s, [ev('A')], 'any');
      const r = await store.append(s, [ev('B'), ev('C')], 'any');
      expect(r.nextExpectedRevision).toBe(2n);
    });

    it('a conflicting append writes nothing', async () => {
      const s = stream('e');
      await store.append(s, [ev('A')], 'no_stream');
      await expect(store.append(s, [ev('X'), ev('Y')], 3n)).rejects.toBeInstanceOf(WrongExpectedVersionError);
      const events = await store.readStream(s);
      expect(events.map((e) => e.type)).toEqual(['A']);
    });

    it('of concurrent appends at the same revision exactly one wins', async () => {
      const s = stream('f');
      await store.append(s, [ev('A')], 'no_stream');
      const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => store.append(s, [ev(`W${i}`)], 0n)));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(await store.readStream(s)).toHaveLength(2);
    });
  });

  describe('idempotent re-append', () => {
    it('appending the same event ids again writes nothing twice', async () => {
      const s = stream('g');
      const batch = [ev('A'), ev('B')];
      const first = await store.append(s, batch, 'no_stream');
      const again = await store.append(s, batch, 'no_stream');
      expect(again.nextExpectedRevision).toBe(first.nextExpectedRevision);
      const events = await store.readStream(s);
      expect(events.map((e) => e.id)).toEqual(batch.map((e) => e.id));
    });
  });

  describe('reading', () => {
    it('reads a stream forwards, from a revision, with a count, and backwards', async () => {
      const s = stream('h');
      await store.append(s, ['A', 'B', 'C', 'D', 'E'].map((t) => ev(t, { t })), 'no_stream');
      expect((await store.readStream(s)).map((e) => e.type)).toEqual(['A', 'B', 'C', 'D', 'E']);
      expect((await store.readStream(s, { fromRevision: 2n, maxCount: 2 })).map((e) => e.type)).toEqual(['C', 'D']);
      expect((await store.readStream(s, { direction: 'backwards', maxCount: 2 })).map((e) => e.type)).toEqual(['E', 'D']);
      const [c] = await store.readStream(s, { fromRevision: 2n, maxCount: 1 });
      expect(c.revision).toBe(2n);
      expect(c.streamId).toBe(s);
      expect(c.data).toEqual({ t: 'C' });
      expect(c.metadata.userId).toBe('u1');
    });

    it('a missing stream is StreamNotFoundError', async () => {
      await expect(store.readStream(stream('missing'))).rejects.toBeInstanceOf(StreamNotFoundError);
    });

    it('readAll returns every event in one global, increasing order', async () => {
      const before = await store.headPosition();
      const s1 = stream('i1');
      const s2 = stream('i2');
      await store.append(s1, [ev('A')], 'any');
      await store.append(s2, [ev('B')], 'any');
      await store.append(s1, [ev('C')], 'any');
      const all = (await store.readAll({ fromPosition: before })).filter((e) => e.streamId === s1 || e.streamId === s2);
      expect(all.map((e) => e.type)).toEqual(['A', 'B', 'C']);
      for (let i = 1; i < all.length; i++) expect(all[i].position > all[i - 1].position).toBe(true);
    });
  });

  describe('catch-up subscription', () => {
    it('starts after a position (exclusive), catches up, then goes live', async () => {
      const s = stream('j');
      await store.append(s, [ev('Old')], 'no_stream');
      const [old] = await store.readStream(s);
      await store.append(s, [ev('A'), ev('B')], 0n);
      const sub = store.subscribeToAll({ fromPosition: old.position, filter: { streamPrefixes: [s] } });
      const seen: RecordedEvent[] = [];
      const done = (async () => {
        for await (const e of sub) {
          seen.push(e);
          if (seen.length === 3) break;
        }
      })();
      await new Promise((r) => setTimeout(r, 100));
      await store.append(s, [ev('Live')], 2n);
      await done;
      await sub.close();
      expect(seen.map((e) => e.type)).toEqual(['A', 'B', 'Live']);
    });

    it('filters by event type', async () => {
      const s = stream('k');
      const from = await store.headPosition();
      await store.append(s, [ev('Keep'), ev('Drop'), ev('Keep')], 'no_stream');
      const sub = store.subscribeToAll({ fromPosition: from, filter: { streamPrefixes: [s], eventTypes: ['Keep'] } });
      const seen: string[] = [];
      for await (const e of sub) {
        seen.push(e.type);
        if (seen.length === 2) break;
      }
      await sub.close();
      expect(seen).toEqual(['Keep', 'Keep']);
    });
  });
}
