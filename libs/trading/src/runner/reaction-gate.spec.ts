import { ReactionGate } from './reaction-gate';

describe('ReactionGate (fill reactions in waves)', () => {
  it('lets `limit` reactions run at once and hands a freed slot to the one that waited longest', async () => {
    const gate = new ReactionGate(2);
    const order: string[] = [];
    const releases = new Map<string, () => void>();
    const enter = (name: string) =>
      gate.enter().then((release) => {
        order.push(name);
        releases.set(name, release);
      });
    const all = ['a', 'b', 'c', 'd'].map(enter);
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(['a', 'b']);
    expect(gate.load).toEqual({ active: 2, waiting: 2 });
    releases.get('b')!();
    releases.get('b')!(); // a second release of the same slot frees nothing more
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(['a', 'b', 'c']);
    expect(gate.load).toEqual({ active: 2, waiting: 1 });
    releases.get('a')!();
    await Promise.all(all);
    expect(order).toEqual(['a', 'b', 'c', 'd']);
    releases.get('c')!();
    releases.get('d')!();
    expect(gate.load).toEqual({ active: 0, waiting: 0 });
  });

  it('frees a slot held longer than maxHoldMs (a reaction in a back-off never holds up the others)', async () => {
    const gate = new ReactionGate(1, 30);
    await gate.enter(); // never released by its holder
    const started = Date.now();
    const release = await gate.enter();
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    release();
    expect(gate.load).toEqual({ active: 0, waiting: 0 });
  });
});
