import type { GridConfig, MarketRules } from '@gridrocket/trading/grid';
import { runBacktest } from '../domain/backtest.engine';
import { bestCell, expandRange, sweepCell, sweepConfigs, sweepEntries, sweepSize } from '../domain/sweep';
import { randomWalkCandles } from '../domain/synthetic-candles';
import { runSweep } from './sweep.pool';

jest.setTimeout(60_000);

const rules: MarketRules = { priceStep: 0.01, amountStep: 0.001, minNotional: 5 };
const base: GridConfig = { botType: 'Spot', numOfOrders: 5, orderSize: 0.1, interval: 1, entryPrice: 140, takeProfit: 1, leverage: 1 };
const series = randomWalkCandles({ seed: 'sweep', startPrice: 140, priceStep: 0.01, from: 1_700_000_000_000, count: 5000, timeframeMs: 60_000, maxMoveBps: 5 });

describe('sweep', () => {
  it('expands ranges inclusively without float noise', () => {
    expect(expandRange({ from: 0.1, to: 0.5, step: 0.1 })).toEqual([0.1, 0.2, 0.3, 0.4, 0.5]);
    expect(expandRange({ from: 3, to: 3, step: 1 })).toEqual([3]);
    expect(sweepSize({ interval: { from: 0.5, to: 2, step: 0.5 }, numOfOrders: { from: 2, to: 6, step: 2 }, takeProfit: { from: 0.5, to: 1, step: 0.5 } })).toBe(24);
  });

  it('in 2 worker threads gives every combination the same result as a single backtest, with progress, and picks the best', async () => {
    const ranges = { interval: { from: 0.5, to: 2, step: 0.5 }, numOfOrders: { from: 2, to: 6, step: 2 }, takeProfit: { from: 0.5, to: 1, step: 0.5 } };
    const configs = sweepConfigs(base, ranges);
    const progress: number[] = [];
    const cells = await runSweep(series, configs, { rules, feeBps: 10, workers: 2, onProgress: (d) => progress.push(d) });
    expect(cells).toHaveLength(24);
    expect(progress[progress.length - 1]).toBe(24);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    configs.forEach((c, i) => {
      const single = runBacktest(series, { config: c, rules, feeBps: 10 });
      expect(cells[i]).toMatchObject({ interval: c.interval, numOfOrders: c.numOfOrders, takeProfit: c.takeProfit });
      expect(cells[i].result!.profit).toBe(single.profit);
      expect(cells[i].result!.fills).toBe(single.fills);
    });
    const best = bestCell(cells, 'profit')!;
    const top = Math.max(...cells.map((c) => c.result!.profit + c.result!.unrealised));
    expect(best.result!.profit + best.result!.unrealised).toBe(top);
  });

  it('a combination that cannot trade carries the reason and is never the best', async () => {
    const cells = await runSweep(series, [{ ...base, interval: 50 }, base], { rules, feeBps: 10, workers: 0 });
    expect(cells[0].result).toBeNull();
    expect(cells[0].error).toMatch(/below the market.s minimum order value of 5/);
    expect(bestCell(cells, 'totalReturn')).toBe(cells[1]);
  });

  it('styles (issue 32): in 2 worker threads every cell of long and infinity on spot is the in-thread cell, style and all', async () => {
    const ranges = { interval: { from: 1, to: 2, step: 1 }, numOfOrders: { from: 3, to: 5, step: 2 }, takeProfit: { from: 1, to: 1, step: 1 } };
    const entries = sweepEntries(base, ranges, ['long', 'infinity']);
    expect(entries.map((e) => e.style)).toEqual(['long', 'long', 'long', 'long', 'infinity', 'infinity', 'infinity', 'infinity']);
    const cells = await runSweep(series, entries, { rules, feeBps: 10, workers: 2 });
    expect(cells).toEqual(entries.map((e) => sweepCell(series, { rules, feeBps: 10 }, e)));
    expect(cells.filter((c) => c.style === 'infinity').every((c) => c.takeProfit === null && c.result !== null && c.result.fills > 0)).toBe(true);
  });
});
