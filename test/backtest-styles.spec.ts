/**
 * Issue 32: every grid style through the backtest route and its job pool (the paper venue's terms), on
 * uploaded CSVs of the candles whose fills are worked out by hand in test/neutral-grid-paper.spec.ts and
 * libs/trading/src/grid/infinity.paper.spec.ts: a neutral futures grid (direction neutral), an infinity
 * spot grid (style infinity), and a sweep comparing styles on the same candles. Bad input gets field
 * messages. Creating a neutral or infinity BOT stays refused (test/neutral-grid-paper.spec.ts checks it).
 */
import { paperTerms, runNeutralBacktest, type Candle } from '@gridrocket/backtest';
import type { NeutralGridConfig } from '@gridrocket/trading/styles/neutral';
import { backtestDone } from './support/backtests';
import { useTraderApp } from './support/trader-app';
import { fourHourCandles } from './support/paper-app';

jest.setTimeout(120_000);

const T0 = Date.UTC(2026, 0, 1);
const candlesOf = (rows: Array<[number, number, number, number]>): Candle[] => fourHourCandles(rows, T0);
const csvOf = (candles: Candle[]) => ['time,open,high,low,close', ...candles.map((c) => `${new Date(c.time).toISOString()},${c.open},${c.high},${c.low},${c.close}`)].join('\n');

// the candles of test/neutral-grid-paper.spec.ts ([open, high, low, close]; see its hand-worked fills)
const NEUTRAL_CANDLES = candlesOf([
  [92.5, 93, 89.5, 90.5], // 89.5: buy 90 fills
  [90.5, 92.5, 90.2, 92.2], // 92.5: sell 92 fills, the pair 90 → 92 completes
  [92.2, 96.5, 92, 96], // 96.5: sells 94 and 96 fill
  [96, 96.2, 93.5, 93.8], // 93.5: buy 94 fills (closes the short sold at 96)
  [93.8, 94.1, 91.5, 91.8], // 91.5: buy 92 fills (closes the short sold at 94)
  [91.8, 92, 87.5, 88.5], // 87.5: buys 88 and 90 fill: long 1
]);
// the candles of libs/trading/src/grid/infinity.paper.spec.ts
const INFINITY_CANDLES = candlesOf([
  [101, 101.5, 99.8, 100.5],
  [100.5, 102.3, 100.2, 102.1],
  [102.1, 102.4, 97.5, 98],
  [98, 99.6, 94, 99.5],
]);

const NEUTRAL_BODY = { exchange: 'Binance', symbol: 'LTCUSDT', botType: 'Futures', numOfOrders: 2, orderSize: 0.5, interval: 2, entryPrice: 92, takeProfit: 1, leverage: 5, direction: 'neutral' };
const INFINITY_BODY = { style: 'infinity', exchange: 'Binance', symbol: 'LTCUSDT', botType: 'Spot', entryPrice: 100, stepPercent: 2, quoteValue: 20, lowerPrice: 95, initialQuote: 100 };

describe('backtests of each grid style over the API', () => {
  const t = useTraderApp('bt-styles@example.com');

  async function upload(candles: Candle[]): Promise<string> {
    const up = await t.c.raw('POST', '/api/backtests/candles', { body: csvOf(candles), headers: { 'content-type': 'text/csv' } });
    expect(up.status).toBe(201);
    return JSON.parse(up.text).candlesId;
  }
  const finished = (path: string, body: object) => backtestDone(t.c, path, body, 'backtest finished', 60_000);

  it('a neutral futures grid: the hand-worked fills and profit, the same as runNeutralBacktest on the same candles, and the ladder\'s figures', async () => {
    const doc = await finished('/api/backtests', { ...NEUTRAL_BODY, candles: await upload(NEUTRAL_CANDLES) });
    expect(doc.status).toBe('done');
    expect(doc.request.config).toEqual({ botType: 'Futures', numOfOrders: 2, orderSize: 0.5, interval: 2, entryPrice: 92, takeProfit: 1, leverage: 5, direction: 'neutral' });
    /*
     * By hand (test/neutral-grid-paper.spec.ts): 8 fills; fees 0.009 + 0.0092 + 0.0094 + 0.0096 + 0.0094 + 0.0092 + 0.0088 + 0.009
     * = 0.0736; three pairs 0.9818 + 0.981 + 0.9814 = 2.9442; long 1 at 89 at the end.
     * Capital: the sells' side (94 + 96) × 0.5 ÷ 5 = 19; unrealised at 88.5: (88.5 − 88 + 88.5 − 90) × 0.5 − 0.0088 − 0.009
     * = −0.5178; end equity 19 + 2.9442 − 0.5178 = 21.4264; the curve at each close (libs/backtest styles.spec.ts works
     * it out): 19.241, 19.9818, 18.9628, 21.0534, 21.9442, 21.4264.
     */
    expect(doc.result).toMatchObject({
      style: 'neutral', candles: 6, fills: 8, fees: 0.0736, profit: 2.9442, cycles: 3, pairs: 3, capital: 19, unrealised: -0.5178, endEquity: 21.4264,
      position: { amount: 1, averageEntry: 89 },
    });
    expect(doc.result.curve.equity).toEqual([19.241, 19.9818, 18.9628, 21.0534, 21.9442, 21.4264]);
    // the same as the neutral backtest called directly on these candles with the paper venue's terms
    const terms = paperTerms({ exchange: 'Binance', market: 'futures', symbol: 'LTCUSDT' });
    const direct = runNeutralBacktest(NEUTRAL_CANDLES, { config: NEUTRAL_BODY as NeutralGridConfig, rules: terms.rules, feeBps: terms.feeBps, takerFeeBps: terms.takerFeeBps, crossingFill: terms.crossingFill });
    expect([doc.result.fills, doc.result.profit, doc.result.fees, doc.result.position.amount]).toEqual([direct.fills.length, direct.profit, direct.fees, direct.position]);
    expect(doc.terms).toMatchObject({ feeBps: 2, takerFeeBps: 5 });
  });

  it('an infinity spot grid (style infinity): the hand-worked fills, fees, profit and holding', async () => {
    const doc = await finished('/api/backtests', { ...INFINITY_BODY, candles: await upload(INFINITY_CANDLES) });
    expect(doc.status).toBe('done');
    expect(doc.request).toMatchObject({ market: 'spot', config: { style: 'infinity', botType: 'Spot', entryPrice: 100, stepPercent: 2, quoteValue: 20, lowerPrice: 95, initialQuote: 100 } });
    /*
     * By hand (infinity.paper.spec.ts): buy 1 @ 100, sell 0.196 @ 102, buys 0.2 @ 99.96 and 0.204 @ 97.5, buy 0.209 @ 95.55,
     * sells 0.205 @ 97.47 and 0.201 @ 99.6: 7 fills, fees 0.2198449, profit 0.35238838 − 0.34942107 + 0.08509877 = 0.08806608,
     * 1.009387 LTC held; three steps up and three down. Capital 100 + 2 steps (98, 96.04) × 20 = 140; end equity
     * 140 + 0.08806608 + 0.42694747 = 140.51501355.
     */
    expect(doc.result).toMatchObject({
      style: 'infinity', candles: 4, fills: 7, fees: 0.2198449, profit: 0.08806608, cycles: 3, stepsUp: 3, stepsDown: 3, capital: 140,
      unrealised: 0.42694747, endEquity: 140.51501355, position: { amount: 1.009387 },
    });
    expect(doc.result.curve.equity).toEqual([140.3995, 141.958308, 138.336416, 140.51501355]);
  });

  it('a sweep comparing long, short and neutral on the same candles: each cell says its style, the neutral cell is the hand-worked one', async () => {
    const ranges = { interval: { from: 2, to: 2, step: 1 }, numOfOrders: { from: 2, to: 2, step: 1 }, takeProfit: { from: 1, to: 2, step: 1 } };
    const doc = await finished('/api/backtests/sweep', { ...NEUTRAL_BODY, direction: undefined, candles: await upload(NEUTRAL_CANDLES), ranges, styles: ['long', 'short', 'neutral'] });
    expect(doc.status).toBe('done');
    // long and short: 1 × 1 × 2 take-profits each; neutral: one cell (no take-profit)
    expect(doc.sweep.points.map((p: { style: string; takeProfit: number | null }) => `${p.style} ${p.takeProfit}`)).toEqual(['long 1', 'long 2', 'short 1', 'short 2', 'neutral null']);
    expect(doc.sweep.points[4]).toMatchObject({ style: 'neutral', interval: 2, numOfOrders: 2, profit: 2.9442, fills: 8, fees: 0.0736, cycles: 3, unrealised: -0.5178 });
    expect(doc.request.sweep.styles).toEqual(['long', 'short', 'neutral']);
    const best = Math.max(...doc.sweep.points.map((p: { profit: number; unrealised: number }) => p.profit + p.unrealised));
    expect(doc.sweep.best.profit + doc.sweep.best.unrealised).toBe(best);
  });

  it('bad input: infinity on futures, neutral on spot, a style the market does not trade: 400 with field messages, nothing run', async () => {
    const before = (await t.c.get('/api/backtests')).body.length;
    const infinityFutures = await t.c.post('/api/backtests', { ...INFINITY_BODY, botType: 'Futures' });
    expect(infinityFutures.status).toBe(400);
    expect(infinityFutures.body.errors).toEqual([{ field: 'botType', message: 'style infinity applies to spot bots only: an infinity grid sells and buys the coin itself' }]);
    const neutralSpot = await t.c.post('/api/backtests', { ...NEUTRAL_BODY, botType: 'Spot', leverage: 1 });
    expect(neutralSpot.status).toBe(400);
    expect(neutralSpot.body.errors).toEqual([{ field: 'direction', message: 'direction neutral applies to futures bots only: a spot bot buys its ladder (long)' }]);
    const badInfinity = await t.c.post('/api/backtests', { ...INFINITY_BODY, lowerPrice: 120, days: 0 });
    expect(badInfinity.status).toBe(400);
    expect(badInfinity.body.errors).toEqual([
      { field: 'lowerPrice', message: 'lowerPrice must be below the entry price' },
      { field: 'days', message: 'days must be from 1 to 365' },
    ]);
    const ranges = { interval: { from: 2, to: 2, step: 1 }, numOfOrders: { from: 2, to: 2, step: 1 }, takeProfit: { from: 1, to: 1, step: 1 } };
    const sweep = await t.c.post('/api/backtests/sweep', { ...NEUTRAL_BODY, ranges, styles: ['neutral', 'infinity'] });
    expect(sweep.status).toBe(400);
    expect(sweep.body.errors).toEqual([{ field: 'styles', message: 'style infinity applies to spot only: an infinity grid sells and buys the coin itself' }]);
    const sweepInfinity = await t.c.post('/api/backtests/sweep', { ...INFINITY_BODY, ranges });
    expect(sweepInfinity.status).toBe(400);
    expect(sweepInfinity.body.errors[0].field).toBe('style');
    expect((await t.c.get('/api/backtests')).body.length).toBe(before);
  });
});
