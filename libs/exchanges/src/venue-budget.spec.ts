import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteVenueFigureStore } from '@gridrocket/read-store';
import { VenueBudget, countSeen, pauseSeen, reserveBudget, rollBudget, sharedBudgets, type BudgetState, type VenuePause } from './venue-budget';

const fresh: BudgetState = { limit: 6000, used: 0, reserved: 0, resetAt: 60_000, pausedUntil: 0, pauseStatus: 0, pausedAt: 0 };

describe('a venue budget, pure', () => {
  it('grants a call while the window, the calls in flight and this one stay within the cap', () => {
    const s = { ...fresh, used: 2900, reserved: 80 };
    expect(reserveBudget(s, 10, 3000, 1000).granted).toBe(true);
    expect(reserveBudget(s, 10, 3000, 1000).state.reserved).toBe(90);
    expect(reserveBudget({ ...s, reserved: 95 }, 10, 3000, 1000).granted).toBe(false);
  });

  it('grants nothing while a 429/418 pause lasts, and the later pause wins', () => {
    const paused = pauseSeen(fresh, 5000, 418, 1000);
    expect(reserveBudget(paused, 10, 3000, 4999).granted).toBe(false);
    expect(reserveBudget(paused, 10, 3000, 5000).granted).toBe(true);
    expect(pauseSeen(paused, 3000, 429, 1500)).toBe(paused);
  });

  it("keeps a window's highest count (answers arrive out of order) and starts afresh in the next window", () => {
    const seen = countSeen(countSeen(fresh, 300, 6000, 60_000), 200, 6000, 60_000);
    expect(seen.used).toBe(300);
    expect(countSeen(seen, 20, 6000, 120_000)).toMatchObject({ used: 20, resetAt: 120_000 });
    expect(countSeen(countSeen(seen, 20, 6000, 120_000), 999, 6000, 60_000).used).toBe(20); // a late answer of the past window
    expect(rollBudget({ ...seen, reserved: 50 }, 61_000, 60_000)).toMatchObject({ used: 0, reserved: 0, resetAt: 120_000 });
  });
});

describe('a pause listener that throws', () => {
  it('is reported, and the pause holds anyway (no rejected update left to end the process)', async () => {
    let t = 1000;
    const errors: string[] = [];
    const budget = new VenueBudget('binance', 6000, 60_000, 0.5, () => t, async (ms) => void (t += ms), undefined, (e) => errors.push(e.message));
    budget.onPause(() => {
      throw new Error('listener failed');
    });
    budget.pause(3000, 429);
    (await budget.take())();
    expect(errors).toEqual(['listener failed']);
    expect(t).toBeGreaterThanOrEqual(4000);
  });
});

describe("KuCoin's counters are one account's pool", () => {
  it('does not let one account\'s busy pool hold the install; its 429 still pauses every call', async () => {
    let t = 1000;
    const sleeps: number[] = [];
    const budget = new VenueBudget('kucoin', 4000, 30_000, 0.5, () => t, async (ms) => {
      sleeps.push(ms);
      t += ms;
    }, undefined, undefined, 10, false);
    // one account's pool nearly spent: the install's calls go on
    budget.observe({ 'gw-ratelimit-limit': '2000', 'gw-ratelimit-remaining': '10', 'gw-ratelimit-reset': '20000' });
    (await budget.take())();
    expect(sleeps).toEqual([]);
    // a 429: every call waits it out
    budget.pause(5000, 429);
    (await budget.take())();
    expect(t).toBeGreaterThanOrEqual(6000);
  });
});

describe('two runners on one shared figure (the limits file)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gr-vb-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("hears the other runner's pause and holds its calls until it ends", async () => {
    const files = [new SqliteVenueFigureStore(join(dir, 'limits.sqlite')), new SqliteVenueFigureStore(join(dir, 'limits.sqlite'))];
    let t = 10_000;
    const slept: number[] = [];
    const sleep = async (ms: number) => {
      slept.push(ms);
      t += ms;
    };
    const [a, b] = files.map((f) => new VenueBudget('binance', 6000, 60_000, 0.5, () => t, sleep, sharedBudgets(f)));
    const heard: VenuePause[] = [];
    b.onPause((p) => heard.push(p));
    a.pause(30_000, 418);
    await new Promise((r) => setTimeout(r, 20));
    const release = await b.take(); // waits the pause out, in the sleeps it is given
    expect(heard).toEqual([{ venue: 'binance', status: 418, at: 10_000, until: 40_000 }]);
    expect(t).toBeGreaterThanOrEqual(40_000);
    expect(slept.length).toBeGreaterThan(0);
    release();
    await Promise.all(files.map((f) => f.close()));
  });

  it('counts the calls in flight of both runners against one cap', async () => {
    const files = [new SqliteVenueFigureStore(join(dir, 'limits2.sqlite')), new SqliteVenueFigureStore(join(dir, 'limits2.sqlite'))];
    const t = 1000;
    const [a, b] = files.map((f) => new VenueBudget('binance', 100, 60_000, 0.5, () => t, async () => { throw new Error('would wait'); }, sharedBudgets(f), undefined, 10));
    // cap: 50 % of 100, less two calls' estimates = 30: three calls of 10 in flight, then a wait
    await a.take();
    await b.take();
    await a.take();
    await expect(b.take()).rejects.toThrow('would wait');
    await Promise.all(files.map((f) => f.close()));
  });
});
