import { randomUUID } from 'node:crypto';
import { ReadStore } from './read-store.port';

/** The contract every read-store adapter passes. */
export function readStoreContract(makeStore: () => Promise<ReadStore>) {
  let store: ReadStore;
  const col = () => `t${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const cp = () => `cp-${randomUUID()}`;

  beforeAll(async () => {
    store = await makeStore();
  });
  afterAll(async () => {
    await store?.close();
  });

  it('writes documents with their checkpoint and reads them back', async () => {
    const c = col();
    const name = cp();
    await store.ensureCollection(c, ['owner']);
    const written = await store.commit(c, [{ id: 'a', rev: 0, doc: { id: 'a', owner: 'u1', n: 1 } }], { name, position: 5n });
    expect(written).toEqual(['a']);
    expect(await store.get(c, 'a')).toEqual({ id: 'a', owner: 'u1', n: 1 });
    expect(await store.getCheckpoint(name)).toBe(5n);
    expect(await store.getCheckpoint(cp())).toBeNull();
  });

  it('revision guard: an older or equal revision is skipped', async () => {
    const c = col();
    const name = cp();
    await store.commit(c, [{ id: 'a', rev: 3, doc: { id: 'a', v: 'new' } }], { name, position: 1n });
    const written = await store.commit(c, [{ id: 'a', rev: 2, doc: { id: 'a', v: 'old' } }, { id: 'a', rev: 3, doc: { id: 'a', v: 'again' } }], { name, position: 2n });
    expect(written).toEqual([]);
    expect(await store.get(c, 'a')).toEqual({ id: 'a', v: 'new' });
  });

  it('a delete leaves a tombstone that an older write cannot revive', async () => {
    const c = col();
    const name = cp();
    await store.commit(c, [{ id: 'a', rev: 0, doc: { id: 'a' } }], { name, position: 1n });
    await store.commit(c, [{ id: 'a', rev: 4, doc: null }], { name, position: 2n });
    expect(await store.get(c, 'a')).toBeNull();
    await store.commit(c, [{ id: 'a', rev: 1, doc: { id: 'a' } }], { name, position: 3n });
    expect(await store.get(c, 'a')).toBeNull();
    const many = await store.getMany(c, ['a', 'b']);
    expect(many.get('a')).toEqual({ rev: 4, doc: null });
    expect(many.has('b')).toBe(false);
  });

  it('finds by field equality with order, limit and offset, and counts', async () => {
    const c = col();
    const name = cp();
    await store.ensureCollection(c, ['owner']);
    const docs = [1, 2, 3, 4, 5].map((n) => ({ id: `d${n}`, rev: 0, doc: { id: `d${n}`, owner: n % 2 ? 'odd' : 'even', n, on: n > 3 } }));
    await store.commit(c, docs, { name, position: 1n });
    const odd = await store.find<{ id: string; n: number }>(c, { owner: 'odd' }, { orderBy: { field: 'n', direction: 'desc' } });
    expect(odd.map((d) => d.n)).toEqual([5, 3, 1]);
    const page = await store.find<{ id: string; n: number }>(c, {}, { orderBy: { field: 'n' }, limit: 2, offset: 2 });
    expect(page.map((d) => d.n)).toEqual([3, 4]);
    expect(await store.count(c, { owner: 'even' })).toBe(2);
    expect(await store.count(c, { on: true })).toBe(2);
  });

  it('commits several collections and their checkpoints together, with the revision guard', async () => {
    const a = col();
    const b = col();
    const [na, nb] = [cp(), cp()];
    await store.commit(b, [{ id: 'x', rev: 5, doc: { id: 'x', v: 'newer' } }], { name: nb, position: 1n });
    await store.commitMany([
      { collection: a, writes: [{ id: 'x', rev: 0, doc: { id: 'x', v: 'a' } }], checkpoint: { name: na, position: 7n } },
      { collection: b, writes: [{ id: 'x', rev: 2, doc: { id: 'x', v: 'older' } }, { id: 'y', rev: 0, doc: { id: 'y' } }], checkpoint: { name: nb, position: 7n } },
    ]);
    expect(await store.get(a, 'x')).toEqual({ id: 'x', v: 'a' });
    expect(await store.get(b, 'x')).toEqual({ id: 'x', v: 'newer' });
    expect(await store.get(b, 'y')).toEqual({ id: 'y' });
    expect([await store.getCheckpoint(na), await store.getCheckpoint(nb)]).toEqual([7n, 7n]);
  });

  it('a checkpoint never moves backwards (a slower writer with an older position changes nothing)', async () => {
    const c = col();
    const name = cp();
    await store.commit(c, [], { name, position: 10n });
    await store.commit(c, [], { name, position: 4n });
    expect(await store.getCheckpoint(name)).toBe(10n);
    await store.commitMany([{ collection: c, writes: [{ id: 'a', rev: 0, doc: { id: 'a' } }], checkpoint: { name, position: 6n } }]);
    expect(await store.getCheckpoint(name)).toBe(10n);
    expect(await store.get(c, 'a')).toEqual({ id: 'a' });
    await store.commit(c, [], { name, position: 2n ** 40n });
    expect(await store.getCheckpoint(name)).toBe(2n ** 40n);
  });

  it('reset empties collections and checkpoints for a rebuild', async () => {
    const c = col();
    const name = cp();
    await store.commit(c, [{ id: 'a', rev: 0, doc: { id: 'a' } }], { name, position: 9n });
    await store.reset([c], [name]);
    expect(await store.get(c, 'a')).toBeNull();
    expect(await store.getCheckpoint(name)).toBeNull();
    expect(await store.count(c, {})).toBe(0);
  });
}
