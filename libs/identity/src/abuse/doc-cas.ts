import type { Doc, ReadStore } from '@gridrocket/read-store';

/** Checkpoint name the read store wants with every commit; these documents belong to no projection. */
const NO_PROJECTION = { name: 'abuse-state', position: 0n };

/**
 * Compare-and-set on one read-store document, so replicas sharing the read store agree: reads the
 * document and its revision, lets `change` compute the next value (undefined: leave it), and writes it
 * with revision + 1. The read store writes only a newer revision, so when another replica won the race
 * the write is skipped and the change is computed again from its value.
 */
export async function updateDoc<D extends Doc, R>(
  store: ReadStore,
  collection: string,
  id: string,
  change: (current: D | null) => { next: D | null | undefined; result: R },
  attempts = 8,
): Promise<R> {
  for (let i = 0; i < attempts; i++) {
    const stored = (await store.getMany<D>(collection, [id])).get(id);
    const { next, result } = change(stored?.doc ?? null);
    if (next === undefined) return result;
    const written = await store.commit(collection, [{ id, rev: (stored?.rev ?? 0) + 1, doc: next }], NO_PROJECTION);
    if (written.includes(id)) return result;
  }
  throw new Error(`Could not update ${collection}/${id}: too much contention`);
}
