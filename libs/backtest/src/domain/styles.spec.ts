/**
 * Issue 32: every grid style through the one runner the route and the sweep use (styles.ts), on small
 * candle series whose fills are worked out by hand in test/neutral-grid-paper.spec.ts (neutral) and
 * libs/trading/src/styles/infinity/infinity.paper.spec.ts (infinity), with the paper venue's terms. The figures the
 * ladder's backtest also gives (capital, curve, drawdown, time in market, returns, buy and hold) are
 * worked out below from the same fills.
 */
import type { GridConfig } from '@gridrocket/trading/grid';
import type { NeutralGridConfig } from '@gridrocket/trading/styles/neutral';
import type { InfinityConfig } from '@gridrocket/trading/styles/infinity';
import { paperTerms } from '../candles/paper.candles';
import { runBacktest } from './backtest.engine';
import { toSeries, type Candle } from './candle';
import { runInfinityBacktest } from './walks/infinity.backtest';
import { runNeutralBacktest } from './walks/neutral.backtest';
import { infinityCapital, neutralCapital, runStyledBacktest } from './styles';
import { bestCell, sweepCell, sweepEntries, sweepSize, styleGrid } from './sweep';

const H = 3_600_000;
const T0 = 1_700_000_000_000;
const candlesOf = (rows: Array<[number, number, number, number]>): Candle[] => rows.map(([open, high, low, close], i) => ({ time: T0 + i * 4 * H, open, high, low, close }));

// test/neutral-grid-paper.spec.ts: LTCUSDT futures on paper Binance (price step 0.01, amount step 0.001,
// maker 0.02 %, taker 0.05 %); reference 92, interval 2, 2 orders of 0.5 each side: buys 90, 88 | sells 94, 96.
const NEUTRAL: NeutralGridConfig = { botType: 'Futures', numOfOrders: 2, orderSize: 0.5, interval: 2, entryPrice: 92, takeProfit: 1, leverage: 5, direction: 'neutral' };
const NEUTRAL_CANDLES = candlesOf([
  [92.5, 93, 89.5, 90.5],
  [90.5, 92.5, 90.2, 92.2],
  [92.2, 96.5, 92, 96],
  [96, 96.2, 93.5, 93.8],
  [93.8, 94.1, 91.5, 91.8],
  [91.8, 92, 87.5, 88.5],
]);
const futures = paperTerms({ exchange: 'Binance', market: 'futures', symbol: 'LTCUSDT' });

// libs/trading/src/styles/infinity/infinity.paper.spec.ts: LTCUSDT spot on paper Binance (maker 0.1 %, the buy's fee in the coin);
// start at 100 buying 100 USDT of LTC, a step of 2 %, 20 USDT a step, no buy below 95.
const INFINITY: InfinityConfig = { style: 'infinity', botType: 'Spot', entryPrice: 100, stepPercent: 2, quoteValue: 20, lowerPrice: 95, initialQuote: 100 };
const INFINITY_CANDLES = candlesOf([
  [101, 101.5, 99.8, 100.5],
  [100.5, 102.3, 100.2, 102.1],
  [102.1, 102.4, 97.5, 98],
  [98, 99.6, 94, 99.5],
]);
const spot = paperTerms({ exchange: 'Binance', market: 'spot', symbol: 'LTCUSDT' });

describe('a neutral futures grid through the styled runner', () => {
  /*
   * The fills (by hand in test/neutral-grid-paper.spec.ts): buy 90 | sell 92 | sells 94, 96 | buy 94 | buy 92 |
   * buys 88, 90: 8 fills, fees 0.0736, profit 2.9442 in 3 pairs, long 1 at (88 + 90) ÷ 2 = 89 at the end.
   * Capital: the larger side's margin, sells (94 + 96) × 0.5 ÷ 5 = 19 (buys: (88 + 90) × 0.5 ÷ 5 = 17.8).
   * Equity = 19 + cash + position × price; cash after each candle's fills and the close's equity:
   *   c0 buy 90:          cash −45.009,    pos 0.5  → 19 − 45.009 + 0.5 × 90.5 = 19.241
   *   c1 sell 92:         cash 0.9818,     pos 0    → 19.9818
   *   c2 sells 94, 96:    cash 95.9628,    pos −1   → 19 + 95.9628 − 96 = 18.9628
   *   c3 buy 94:          cash 48.9534,    pos −0.5 → 19 + 48.9534 − 46.9 = 21.0534
   *   c4 buy 92:          cash 2.9442,     pos 0    → 21.9442
   *   c5 buys 88, 90:     cash −86.0736,   pos 1    → 19 − 86.0736 + 88.5 = 21.4264
   * = 19 + profit 2.9442 + unrealised (88.5 − 88) × 0.5 − 0.0088 + (88.5 − 90) × 0.5 − 0.009 = −0.5178.
   * Drawdown, print by print: the peak 19.9818 (c1 at 92.5, after the sell) falls to 18.4628 at 96.5 in c2
   * (short 1: 19 + 95.9628 − 96.5): 1.519, 1.519 ÷ 19.9818; the later fall from 21.9442 to 20.4264 (c5 at
   * 87.5) is 1.5178, less. Candles ending in a position: c0, c2, c3, c5: 4 of 6.
   * Buy and hold: 19 × (88.5 ÷ 92.5 − 1) − 19 × 0.0002 = −0.82162162 − 0.0038 = −0.82542162.
   */
  const series = toSeries(NEUTRAL_CANDLES);
  const params = { rules: futures.rules, feeBps: futures.feeBps, takerFeeBps: futures.takerFeeBps, crossingFill: futures.crossingFill };

  it('gives the hand-worked fills, fees, pairs and profit, the same as runNeutralBacktest on the same candles', () => {
    const r = runStyledBacktest(series, { ...params, config: NEUTRAL, recordFills: true });
    const direct = runNeutralBacktest(NEUTRAL_CANDLES, { ...params, config: NEUTRAL });
    expect(r.fillLog!.map((f) => `${f.side} ${f.price} ${f.amount} fee ${f.fee}`)).toEqual([
      'buy 90 0.5 fee 0.009', 'sell 92 0.5 fee 0.0092', 'sell 94 0.5 fee 0.0094', 'sell 96 0.5 fee 0.0096',
      'buy 94 0.5 fee 0.0094', 'buy 92 0.5 fee 0.0092', 'buy 88 0.5 fee 0.0088', 'buy 90 0.5 fee 0.009',
    ]);
    expect(r).toMatchObject({ style: 'neutral', candles: 6, fills: 8, fees: 0.0736, profit: 2.9442, cycles: 3, pairs: 3, trails: 0, position: { amount: 1, averageEntry: 89 } });
    expect(r.fillLog).toEqual(direct.fills);
    expect([r.profit, r.fees, r.fills, r.cycles, r.position.amount]).toEqual([direct.profit, direct.fees, direct.fills.length, direct.pairs, direct.position]);
  });

  it('gives the ladder\'s figures measured the same way: capital, unrealised, curve, drawdown, time in market, returns', () => {
    const r = runStyledBacktest(series, { ...params, config: NEUTRAL });
    expect(neutralCapital(NEUTRAL, futures.rules)).toBe(19);
    expect(r.capital).toBe(19);
    expect(r.unrealised).toBe(-0.5178);
    expect(r.endEquity).toBe(21.4264);
    expect(r.curve).toEqual({ time: NEUTRAL_CANDLES.map((c) => c.time), equity: [19.241, 19.9818, 18.9628, 21.0534, 21.9442, 21.4264] });
    expect(r.maxDrawdown).toBe(1.519);
    expect(r.maxDrawdownPct).toBeCloseTo(1.519 / 19.9818, 12);
    expect(r.timeInMarket).toBeCloseTo(4 / 6, 12);
    expect(r.totalReturn).toBeCloseTo(2.4264 / 19, 12);
    expect(r.buyAndHold.profit).toBe(-0.82542162);
    expect(r).not.toHaveProperty('fillLog');
  });
});

describe('an infinity spot grid through the styled runner', () => {
  /*
   * The fills (by hand in infinity.paper.spec.ts): buy 1 @ 100 | sell 0.196 @ 102 | buys 0.2 @ 99.96 and 0.204 @ 97.5 |
   * buy 0.209 @ 95.55, sells 0.205 @ 97.47 and 0.201 @ 99.6: 7 fills, fees 0.2198449, profit 0.08806608, 1.009387 held.
   * Capital: the initial 100 + 20 for each step down not below 95: 98, 96.04 (94.11 is below): 140.
   * Cash (a buy pays price × amount, its fee taken in the coin; a sell gets price × amount − fee):
   *   c0 −100 (holds 0.999)                         → 140 − 100 + 0.999 × 100.5 = 140.3995
   *   c1 +19.972008 = −80.027992 (0.803)            → + 0.803 × 102.1 = 141.958308
   *   c2 −19.992 − 19.89 = −119.909992 (1.206596)   → + 1.206596 × 98 = 138.336416
   *   c3 −19.96995 + 19.96136865 + 19.9995804 = −99.91899295 (1.009387) → + 1.009387 × 99.5 = 140.51501355
   * The last = 140 + profit 0.08806608 + unrealised 0.42694747 (1.009387 × 99.5 − its cost 99.90705197 − the
   * unpaid buy fees 0.10000706). Drawdown: the peak 142.199208 at 102.4 (c2) falls to 133.166436 at 94 (c3,
   * after the buy at 95.55: 140 − 139.879942 + 1.415387 × 94): 9.032772. Every candle ends holding coin.
   * Buy and hold: 140 × (99.5 ÷ 101 − 1) − 140 × 0.001 = −2.07920792 − 0.14 = −2.21920792.
   */
  const series = toSeries(INFINITY_CANDLES);

  it('gives the hand-worked fills, fees, profit and holding, the same as runInfinityBacktest', () => {
    const r = runStyledBacktest(series, { ...spot, config: INFINITY, recordFills: true });
    const direct = runInfinityBacktest(series, { ...spot, config: INFINITY, rules: spot.rules, recordFills: true });
    expect(r.fillLog!.map((f) => `${f.side} ${f.price} ${f.amount} fee ${f.fee}`)).toEqual([
      'buy 100 1 fee 0.1', 'sell 102 0.196 fee 0.019992', 'buy 99.96 0.2 fee 0.019992', 'buy 97.5 0.204 fee 0.01989',
      'buy 95.55 0.209 fee 0.01996995', 'sell 97.47 0.205 fee 0.01998135', 'sell 99.6 0.201 fee 0.0200196',
    ]);
    expect(r).toMatchObject({ style: 'infinity', fills: 7, fees: 0.2198449, profit: 0.08806608, cycles: 3, stepsUp: 3, stepsDown: 3, position: { amount: 1.009387 } });
    expect(r.fillLog).toEqual(direct.fillLog);
    expect([r.profit, r.fees, r.fills, r.unrealised]).toEqual([direct.profit, direct.fees, direct.fills, direct.unrealised]);
  });

  it('gives the ladder\'s figures: capital 140, the curve, the drawdown, always in the market, buy and hold', () => {
    const r = runStyledBacktest(series, { ...spot, config: INFINITY });
    expect(infinityCapital(INFINITY, spot.rules)).toBe(140);
    expect(r.capital).toBe(140);
    expect(r.unrealised).toBe(0.42694747);
    expect(r.endEquity).toBe(140.51501355);
    expect(r.curve.equity).toEqual([140.3995, 141.958308, 138.336416, 140.51501355]);
    expect(r.maxDrawdown).toBe(9.032772);
    expect(r.maxDrawdownPct).toBeCloseTo(9.032772 / 142.199208, 12);
    expect(r.timeInMarket).toBe(1);
    expect(r.buyAndHold.profit).toBe(-2.21920792);
  });
});

describe('a sweep comparing styles on the same candles', () => {
  const series = toSeries(NEUTRAL_CANDLES);
  const params = { rules: futures.rules, feeBps: futures.feeBps, takerFeeBps: futures.takerFeeBps, crossingFill: futures.crossingFill };
  const base: GridConfig = { botType: 'Futures', numOfOrders: 2, orderSize: 0.5, interval: 2, entryPrice: 92, takeProfit: 1, leverage: 5 };
  const ranges = { interval: { from: 2, to: 2, step: 1 }, numOfOrders: { from: 2, to: 2, step: 1 }, takeProfit: { from: 1, to: 2, step: 1 } };

  it('each style is one more dimension: long and short take both take-profits, neutral one cell (takeProfit null); each cell says its style', () => {
    const entries = sweepEntries(base, ranges, ['long', 'short', 'neutral']);
    expect(sweepSize(ranges, ['long', 'short', 'neutral'])).toBe(5);
    expect(entries.map((e) => `${e.style} ${e.interval} ${e.numOfOrders} ${e.takeProfit}`)).toEqual(['long 2 2 1', 'long 2 2 2', 'short 2 2 1', 'short 2 2 2', 'neutral 2 2 null']);
    const cells = entries.map((e) => sweepCell(series, params, e));
    // the neutral cell: the hand-worked neutral example (profit 2.9442 in 3 pairs, 8 fills, fees 0.0736)
    expect(cells[4]).toMatchObject({ style: 'neutral', takeProfit: null, result: { profit: 2.9442, fills: 8, fees: 0.0736, cycles: 3 } });
    // the ladder cells: what the ladder's own backtest gives for the same grid
    for (const [i, config] of [[0, base], [1, { ...base, takeProfit: 2 }], [2, { ...base, direction: 'short' as const }], [3, { ...base, takeProfit: 2, direction: 'short' as const }]] as const) {
      const single = runBacktest(series, { ...params, config });
      expect(cells[i]).toMatchObject({ style: i < 2 ? 'long' : 'short', result: { profit: single.profit, fills: single.fills, unrealised: single.unrealised } });
    }
    const best = bestCell(cells, 'profit')!;
    expect(best.result!.profit + best.result!.unrealised).toBe(Math.max(...cells.map((c) => c.result!.profit + c.result!.unrealised)));
    // without styles: the base's own style, as before
    expect(sweepEntries(base, ranges).map((e) => e.style)).toEqual(['long', 'long']);
  });

  it('the infinity cell reads the ladder\'s settings: a step of one interval, one order\'s value a step and at the start, half an interval below the lowest rung', () => {
    // spot ladder at 100, 3 orders of 0.2 every 2: rungs 100, 98, 96 → infinity: 2 %, 20 USDT, initial 20, lower 100 − 2.5 × 2 = 95
    const spotBase: GridConfig = { botType: 'Spot', numOfOrders: 3, orderSize: 0.2, interval: 2, entryPrice: 100, takeProfit: 1, leverage: 1 };
    expect(styleGrid(spotBase, 'infinity', 2, 3, 1)).toEqual({ style: 'infinity', botType: 'Spot', entryPrice: 100, stepPercent: 2, quoteValue: 20, lowerPrice: 95, initialQuote: 20 });
    const [entry] = sweepEntries(spotBase, { ...ranges, numOfOrders: { from: 3, to: 3, step: 1 } }, ['infinity']);
    const cell = sweepCell(toSeries(INFINITY_CANDLES), spot, entry);
    const single = runStyledBacktest(toSeries(INFINITY_CANDLES), { ...spot, config: entry.config });
    expect(cell).toMatchObject({ style: 'infinity', interval: 2, numOfOrders: 3, takeProfit: null, result: { profit: single.profit, fills: single.fills, capital: 60 } }); // 20 + 2 steps × 20
  });

  it('a combination that cannot trade carries its engine\'s reason', () => {
    const [entry] = sweepEntries(base, { ...ranges, interval: { from: 50, to: 50, step: 1 } }, ['neutral']);
    expect(sweepCell(series, params, entry)).toMatchObject({ style: 'neutral', result: null, error: expect.stringMatching(/lowest buy would be priced at or below zero/) });
  });
});
