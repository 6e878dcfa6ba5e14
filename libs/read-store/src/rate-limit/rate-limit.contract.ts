import { randomUUID } from 'node:crypto';
import { RateLimitStore } from './rate-limit.port';

/** What every shared rate-limit store does (SQLite always, MongoDB when MONGO_URL is set). */
export function rateLimitContract(makeStores: () => Promise<[RateLimitStore, RateLimitStore]>) {
  let a: RateLimitStore;
  let b: RateLimitStore;
  beforeAll(async () => {
    [a, b] = await makeStores();
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('lets a burst of `capacity` through at once, then paces at the rate', async () => {
    const key = `u-${randomUUID()}|Binance`;
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) waits.push(await a.reserve(key, 5, 10));
    expect(waits.slice(0, 5).every((w) => w < 50)).toBe(true);
    // the 6th waits about one interval (100 ms), the 8th about three
    expect(waits[5]).toBeGreaterThan(50);
    expect(waits[7]).toBeGreaterThan(waits[5] + 100);
  });

  it('is one budget for every runner that shares the store', async () => {
    const key = `u-${randomUUID()}|Kucoin`;
    const waits = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).reserve(key, 4, 20)));
    // 20 calls at 20/s with a burst of 4 from two runners: the last one waits ~ (20 - 4) × 50 ms
    expect(Math.max(...waits)).toBeGreaterThan(600);
    expect(waits.filter((w) => w < 25).length).toBeLessThanOrEqual(5);
  });

  it('keys are independent (per user and exchange)', async () => {
    const k1 = `u-${randomUUID()}|Binance`;
    const k2 = `u-${randomUUID()}|Binance`;
    for (let i = 0; i < 6; i++) await a.reserve(k1, 2, 1);
    expect(await a.reserve(k2, 2, 1)).toBeLessThan(50);
  });
}
