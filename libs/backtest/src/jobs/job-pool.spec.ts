import type { GridConfig, MarketRules } from '@gridrocket/trading/grid';
import { runBacktest } from '../domain/backtest.engine';
import { sweepConfigs } from '../domain/sweep';
import { randomWalkCandles } from '../domain/synthetic-candles';
import { toSeries } from '../domain/candle';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { JobCancelledError, JobPool, SHORT_JOB_WORK, jobWork } from './job-pool';
import { currentThreadId, threadCpuMs } from './thread-priority';
import { until } from '@gridrocket/shared/testing/until';

jest.setTimeout(60_000);

const rules: MarketRules = { priceStep: 0.01, amountStep: 0.001, minNotional: 5 };
const base: GridConfig = { botType: 'Spot', numOfOrders: 5, orderSize: 0.1, interval: 1, entryPrice: 140, takeProfit: 1, leverage: 1 };
const walk = (count: number) => randomWalkCandles({ seed: 'pool', startPrice: 140, priceStep: 0.01, from: 1_700_000_000_000, count, timeframeMs: 60_000, maxMoveBps: 5 });
const small = walk(3000);
const long = walk(1_000_000);
const many = sweepConfigs(base, { interval: { from: 0.5, to: 5, step: 0.5 }, numOfOrders: { from: 2, to: 21, step: 1 }, takeProfit: { from: 0.5, to: 5, step: 0.5 } }); // 2000

describe('JobPool', () => {
  let pool: JobPool;
  afterEach(async () => pool?.close());

  it('runs a single backtest and a sweep in worker threads with the in-thread answers', async () => {
    pool = new JobPool({ size: 2, budgetMs: 60_000 });
    const single = await pool.run({ id: 's', userId: 'u', series: small, rules, fees: { feeBps: 10 }, single: base });
    const { fillLog: _f, ...want } = runBacktest(small, { config: base, rules, feeBps: 10 });
    expect(single).toEqual({ result: want });
    const configs = many.slice(0, 12);
    const progress: number[] = [];
    const sweep = await pool.run({ id: 'w', userId: 'u', series: small, rules, fees: { feeBps: 10 }, sweep: configs, onProgress: (d) => progress.push(d) });
    if (!('cells' in sweep)) throw new Error('not a sweep');
    configs.forEach((c, i) => expect(sweep.cells[i].result!.profit).toBe(runBacktest(small, { config: c, rules, feeBps: 10 }).profit));
    expect(progress[progress.length - 1]).toBe(12);
    // an engine error is the job's error, with the engine's reason
    await expect(pool.run({ id: 'bad', userId: 'u', series: small, rules, fees: { feeBps: 10 }, single: { ...base, interval: 50 } })).rejects.toThrow(/minimum order value/);
  });

  it('serves users round-robin: a user who asks last is not behind all of another user\'s jobs', async () => {
    pool = new JobPool({ size: 1, shortWorkers: 0, budgetMs: 60_000 });
    const finished: string[] = [];
    const job = (id: string, userId: string) =>
      pool.run({ id, userId, series: small, rules, fees: { feeBps: 10 }, single: base }).then(() => finished.push(id));
    await Promise.all([job('a1', 'a'), job('a2', 'a'), job('a3', 'a'), job('b1', 'b')]);
    expect(finished).toEqual(['a1', 'a2', 'b1', 'a3']); // first come, first served would be a1 a2 a3 b1
  });

  it('cancels a running job within a second (its worker terminated) and a queued one at once', async () => {
    pool = new JobPool({ size: 1, shortWorkers: 0, budgetMs: 600_000 });
    let done = 0;
    const running = pool.run({ id: 'r', userId: 'u', series: long, rules, fees: { feeBps: 10 }, sweep: many, onProgress: (d) => (done = d) });
    const queued = pool.run({ id: 'q', userId: 'v', series: small, rules, fees: { feeBps: 10 }, single: base });
    expect(pool.stats()).toMatchObject({ running: 1, queued: 1 });
    expect(pool.cancel('q')).toBe(true);
    await expect(queued).rejects.toBeInstanceOf(JobCancelledError);
    await new Promise((r) => setTimeout(r, 1000)); // the worker is deep in the sweep (several seconds of work)
    const t0 = Date.now();
    expect(pool.cancel('r')).toBe(true);
    await expect(running).rejects.toBeInstanceOf(JobCancelledError);
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(done).toBeLessThan(many.length);
    expect(pool.cancel('r')).toBe(false);
    // the pool goes on with a new worker
    await expect(pool.run({ id: 'next', userId: 'u', series: small, rules, fees: { feeBps: 10 }, single: base })).resolves.toHaveProperty('result');
  });

  it('a short job runs on its own worker at once, not behind another user\'s long pieces; a long one never takes that worker', async () => {
    pool = new JobPool({ size: 1, shortWorkers: 1, budgetMs: 600_000 });
    await pool.run({ id: 'warm', userId: 'w', series: small, rules, fees: { feeBps: 10 }, single: base }); // the short-job worker started (its start is not what is timed)
    let longDone = 0;
    const longA = pool.run({ id: 'long-a', userId: 'a', series: long, rules, fees: { feeBps: 10 }, sweep: many, onProgress: (d) => (longDone = d) });
    const longB = pool.run({ id: 'long-b', userId: 'b', series: long, rules, fees: { feeBps: 10 }, sweep: many.slice(0, 3) });
    for (const p of [longA, longB]) p.catch(() => undefined);
    expect(jobWork({ series: long, sweep: many.slice(0, 3) })).toBeGreaterThan(SHORT_JOB_WORK);
    expect(pool.stats()).toMatchObject({ running: 1, queued: 1 }); // long-b waits: the short-job worker is not for it
    const t0 = Date.now();
    await expect(pool.run({ id: 'short-c', userId: 'c', series: small, rules, fees: { feeBps: 10 }, single: base })).resolves.toHaveProperty('result');
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(longDone).toBeLessThan(many.length); // still running: the short job did not wait for it
    pool.cancel('long-a');
    pool.cancel('long-b');
    await Promise.allSettled([longA, longB]);
  });

  it('a job misjudged as short is stopped on the short-job worker after its time there and finished by a worker for any job, with the same result', async () => {
    pool = new JobPool({ size: 1, shortWorkers: 1, shortPieceMs: 300, budgetMs: 60_000 });
    await pool.run({ id: 'warm', userId: 'w', series: small, rules, fees: { feeBps: 10 }, single: base }); // the short-job worker started (its start is not what is timed)
    // closes alternate across a 99-rung ladder: every rung fills on every candle (about 10 s of one core for these 4,000 candles here: far past the 300 ms)
    const crafted = toSeries(Array.from({ length: 4_000 }, (_, i) => ({ time: 1_700_000_000_000 + i * 60_000, open: i % 2 ? 111 : 141, high: 141, low: 111, close: i % 2 ? 141 : 111 })));
    const ladder: GridConfig = { ...base, numOfOrders: 99, interval: 0.2, entryPrice: 140 };
    expect(jobWork({ series: crafted, single: ladder })).toBeLessThanOrEqual(SHORT_JOB_WORK); // estimated short
    const a = pool.run({ id: 'a', userId: 'a', series: crafted, rules, fees: { feeBps: 10 }, single: ladder });
    // past 300 ms of its CPU on the short-job worker it is moved (waited for as a condition: a loaded machine gives
    // the worker its CPU later, and a fixed 700 ms sleep made the verdict depend on the machine's speed)
    await until('the crafted job moved off the short-job worker', () => pool.stats().movedOffShort >= 1, 60_000, 20);
    // the short-job worker is free again: short jobs are served while the crafted one goes on elsewhere
    let aDone = false;
    void a.then(() => (aDone = true));
    await expect(pool.run({ id: 'b', userId: 'b', series: small, rules, fees: { feeBps: 10 }, single: base })).resolves.toHaveProperty('result');
    await expect(pool.run({ id: 'b2', userId: 'b', series: small, rules, fees: { feeBps: 10 }, single: base })).resolves.toHaveProperty('result');
    // (when the crafted job is still running here, the two short ones can only have run on the short-job worker:
    // the one worker for any job is busy with it)
    if (!aDone) expect(pool.stats().running).toBe(1);
    const { fillLog: _f, ...want } = runBacktest(crafted, { config: ladder, rules, feeBps: 10 });
    expect(await a).toEqual({ result: want });
  });

  const niceOfThreads = () =>
    readdirSync('/proc/self/task').map((tid) => {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]); // field 19: nice
    });
  (existsSync('/proc/thread-self') ? it : it.skip)('runs workers for any job at nice 10 and the short-job worker at normal priority (Linux)', async () => {
    const before = niceOfThreads().filter((n) => n === 10).length;
    pool = new JobPool({ size: 2, shortWorkers: 1, budgetMs: 60_000 });
    const jobs = ['a', 'b', 'c'].map((u) => pool.run({ id: u, userId: u, series: long, rules, fees: { feeBps: 10 }, sweep: many.slice(0, 3) }));
    await Promise.all(jobs);
    expect(pool.stats().workers).toBe(2); // the long jobs ran on the two workers for any job
    expect(niceOfThreads().filter((n) => n === 10).length - before).toBe(2);
    await pool.run({ id: 'd', userId: 'd', series: small, rules, fees: { feeBps: 10 }, single: base });
    expect(pool.stats().workers).toBe(3);
    expect(niceOfThreads().filter((n) => n === 10).length - before).toBe(2); // the short-job worker is not niced
  });

  it('counts a job\'s CPU time, not its time waiting for the CPU, against its budget (Linux)', () => {
    const tid = currentThreadId();
    if (tid === null) return;
    // busy: the thread's CPU time grows (however slowly a loaded machine gives it the CPU)
    const cpu0 = threadCpuMs(tid)!;
    const t0 = Date.now();
    while (threadCpuMs(tid)! - cpu0 < 100 && Date.now() - t0 < 20_000);
    expect(threadCpuMs(tid)! - cpu0).toBeGreaterThanOrEqual(100);
    const cpu1 = threadCpuMs(tid)!;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300); // blocked: no CPU time
    expect(threadCpuMs(tid)! - cpu1).toBeLessThan(50);
  });

  it('stops a job past its computing budget with a clear error', async () => {
    pool = new JobPool({ size: 2, budgetMs: 700 });
    const t0 = Date.now();
    await expect(pool.run({ id: 'big', userId: 'u', series: long, rules, fees: { feeBps: 10 }, sweep: many })).rejects.toThrow(
      'The backtest used its computing budget of 0.7 s and was stopped; backtest a shorter period or fewer combinations',
    );
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it('close() ends running and queued jobs and terminates the workers', async () => {
    pool = new JobPool({ size: 1, budgetMs: 600_000 });
    const a = pool.run({ id: 'a', userId: 'u', series: long, rules, fees: { feeBps: 10 }, sweep: many });
    const b = pool.run({ id: 'b', userId: 'u', series: small, rules, fees: { feeBps: 10 }, single: base });
    await new Promise((r) => setTimeout(r, 300));
    const ended = Promise.all([expect(a).rejects.toMatchObject({ reason: 'shutdown' }), expect(b).rejects.toMatchObject({ reason: 'shutdown' })]);
    await pool.close();
    await ended;
    expect(pool.stats().workers).toBe(0);
    await expect(pool.run({ id: 'c', userId: 'u', series: small, rules, fees: { feeBps: 10 }, single: base })).rejects.toBeInstanceOf(JobCancelledError);
  });
});
