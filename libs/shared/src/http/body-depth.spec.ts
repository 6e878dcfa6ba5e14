import { nestedDeeperThan } from '@gridrocket/shared/http';

describe('nestedDeeperThan', () => {
  const arrays = (depth: number) => JSON.parse('['.repeat(depth) + ']'.repeat(depth));
  it('counts levels of objects and arrays; scalars are no level', () => {
    expect(nestedDeeperThan('x', 0)).toBe(false);
    expect(nestedDeeperThan({ a: 1 }, 1)).toBe(false);
    expect(nestedDeeperThan({ a: [1] }, 1)).toBe(true);
    expect(nestedDeeperThan(arrays(32), 32)).toBe(false);
    expect(nestedDeeperThan(arrays(33), 32)).toBe(true);
    expect(nestedDeeperThan({ access: { exchange: 'Binance' }, list: [{ a: [] }] }, 4)).toBe(false);
    expect(nestedDeeperThan({ access: { exchange: 'Binance' }, list: [{ a: [] }] }, 3)).toBe(true);
  });
  it('measures 100,000 levels without recursion', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    expect(nestedDeeperThan(deep, 32)).toBe(true);
    expect(nestedDeeperThan(arrays(5000), 32)).toBe(true);
  });
});
