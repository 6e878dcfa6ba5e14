import { randomUUID } from 'node:crypto';
import { EventStore, NewEvent, RecordedEvent, StreamNotFoundError, Subscription, SubscriptionFilter, WrongExpectedVersionError, matchesFilter } from './event-store.port';

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
      await expect(store.readStream(stream('missing'), { fromRevision: 3n })).rejects.toBeInstanceOf(StreamNotFoundError);
      await expect(store.readStream(stream('missing'), { maxCount: 0 })).rejects.toBeInstanceOf(StreamNotFoundError);
      await expect(store.readStream(stream('missing'), { direction: 'backwards' })).rejects.toBeInstanceOf(StreamNotFoundError);
    });

    it('an existing stream read from past its head, or for no event, is empty (not missing)', async () => {
      const s = stream('past');
      await store.append(s, [ev('A'), ev('B')], 'no_stream');
      expect(await store.readStream(s, { fromRevision: 2n })).toEqual([]);
      expect(await store.readStream(s, { fromRevision: 7n })).toEqual([]);
      expect(await store.readStream(s, { maxCount: 0 })).toEqual([]);
      expect(await store.readStream(s, { fromRevision: 1n, maxCount: 0 })).toEqual([]);
      expect((await store.readStream(s, { fromRevision: 1n })).map((e) => e.type)).toEqual(['B']);
      expect((await store.readStream(s, { fromRevision: 1n, maxCount: 1 })).map((e) => e.revision)).toEqual([1n]);
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

    /** What `sub` delivers until it has `count` events. */
    const take = (sub: Subscription, count: number) =>
      (async () => {
        const seen: RecordedEvent[] = [];
        if (count === 0) return seen;
        for await (const e of sub) {
          seen.push(e);
          if (seen.length === count) break;
        }
        await sub.close();
        return seen;
      })();
    /** The ids of the events after `from` that match `filter`, in the log's order (what a subscription owes). */
    const owed = async (from: bigint, filter: SubscriptionFilter) => (await store.readAll({ fromPosition: from })).filter((e) => matchesFilter(e, filter)).map((e) => e.id);

    it('several live subscriptions with different filters each receive their events of the same appends, in order, once', async () => {
      const p = stream('m');
      const filters: SubscriptionFilter[] = [
        { streamPrefixes: [p] },
        { streamPrefixes: [`${p}-x`] },
        { streamPrefixes: [p], eventTypes: ['B'] },
        { streamPrefixes: [`${p}-x`, `${p}-y`], eventTypes: ['A', 'C'] },
      ];
      const streams = Array.from({ length: 20 }, (_, i) => `${p}-${'xyz'[i % 3]}${i}`);
      const counts = filters.map((f) => streams.flatMap((streamId) => ['A', 'B', 'C'].map((type) => ({ streamId, type }))).filter((e) => matchesFilter(e, f)).length);
      expect(counts).toEqual([60, 21, 20, 28]);
      const from = await store.headPosition();
      const subs = filters.map((filter) => store.subscribeToAll({ fromPosition: from, filter }));
      const seen = subs.map((sub, i) => take(sub, counts[i]));
      await new Promise((r) => setTimeout(r, 50));
      // one turn's appends to three streams (committed together), then more in later turns
      const three = (i: number) => [ev('A', { i }), ev('B', { i }), ev('C', { i })];
      await Promise.all(streams.slice(0, 10).map((s, i) => store.append(s, three(i), 'no_stream')));
      for (let i = 10; i < 20; i++) await store.append(streams[i], three(i), 'no_stream');
      const got = await Promise.all(seen);
      for (let i = 0; i < filters.length; i++) {
        expect(got[i].map((e) => e.id)).toEqual(await owed(from, filters[i]));
        for (let j = 1; j < got[i].length; j++) expect(got[i][j].position > got[i][j - 1].position).toBe(true);
      }
      // the same event, as every subscription that matched it received it
      const first = (await store.readAll({ fromPosition: from, maxCount: 1 }))[0];
      for (const i of [0, 1, 3]) expect(got[i][0]).toEqual(first);
    }, 30_000);

    it('a subscription that starts behind catches up and goes live while others are live, missing and repeating nothing', async () => {
      const p = stream('n');
      const filter = { streamPrefixes: [p] };
      const before = await store.headPosition();
      // a backlog longer than one read of most adapters
      for (let i = 0; i < 12; i++) await store.append(`${p}-old`, Array.from({ length: 100 }, (_, n) => ev('Old', { i, n })), 'any');
      const afterBacklog = await store.headPosition();
      const live = store.subscribeToAll({ fromPosition: afterBacklog, filter });
      const liveSeen = take(live, 100);
      let behindSeen: Promise<RecordedEvent[]> | null = null;
      for (let i = 0; i < 20; i++) {
        await store.append(`${p}-new`, Array.from({ length: 5 }, (_, n) => ev('New', { i, n })), 'any');
        // starts behind while the appends go on, and must end up with the backlog and every new event
        if (i === 5) behindSeen = take(store.subscribeToAll({ fromPosition: before, filter }), 1300);
        await new Promise((r) => setTimeout(r, 5));
      }
      const [caughtUp, wasLive] = await Promise.all([behindSeen!, liveSeen]);
      const all = await owed(before, filter);
      expect(all).toHaveLength(1300);
      expect(caughtUp.map((e) => e.id)).toEqual(all);
      expect(wasLive.map((e) => e.id)).toEqual(all.slice(1200));
    }, 60_000);
  });
}
