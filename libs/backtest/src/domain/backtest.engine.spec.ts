import type { GridConfig, MarketRules } from '@gridrocket/trading/grid';
import { toSeries, type Candle } from './candle';
import { runBacktest } from './backtest.engine';

// Ladder 100, 90, 80 of 1 each (capital 270), take-profit 1 %, spot fee 0.1 % like the paper venue.
const config: GridConfig = { botType: 'Spot', numOfOrders: 3, orderSize: 1, interval: 10, entryPrice: 100, takeProfit: 1, leverage: 1 };
const rules: MarketRules = { priceStep: 0.01, amountStep: 0.001, minNotional: 5 };
const T = 1_700_000_000_000;
const M = 60_000;
const candles = (...rows: Array<[number, number, number, number]>): Candle[] =>
  rows.map(([open, high, low, close], i) => ({ time: T + i * M, open, high, low, close }));
const run = (...rows: Array<[number, number, number, number]>) =>
  runBacktest(toSeries(candles(...rows)), { config, rules, feeBps: 10, recordFills: true });
const fills = (r: ReturnType<typeof run>) => r.fillLog!.map((f) => `${f.side} ${f.price} ${f.amount} fee ${f.fee}`);

describe('backtest engine: known answers on hand-computed candles', () => {
  it('a falling candle goes open → high → low → close: the low fills the buy at its price, the close does not reach the take-profit', () => {
    // 105 → 106 → 95 (buy 100 fills) → 96
    const r = run([105, 106, 95, 96]);
    expect(fills(r)).toEqual(['buy 100 1 fee 0.1']);
    expect(r).toMatchObject({ capital: 270, profit: 0, fees: 0.1, cycles: 0, fills: 1, position: { amount: 1, averageEntry: 100 } });
    // 1 × 96 − 100 − 0.1
    expect(r.unrealised).toBe(-4.1);
    expect(r.endEquity).toBe(265.9);
  });

  it('a rising candle goes open → low → high → close: the low buys, the high then takes the profit in the same candle', () => {
    // candle 1 (falling): buy 100. candle 2 (rising) 96 → 89 (buy 90) → 102 (take-profit 2 @ 95 × 1.01 = 95.95) → 101
    const r = run([105, 106, 95, 96], [96, 102, 89, 101]);
    expect(fills(r)).toEqual(['buy 100 1 fee 0.1', 'buy 90 1 fee 0.09', 'sell 95.95 2 fee 0.1919']);
    // 2 × 95.95 − 190 − 0.1 − 0.09 − 0.1919 = 1.5181
    expect(r).toMatchObject({ profit: 1.5181, fees: 0.3819, cycles: 1, fills: 3, unrealised: 0, position: { amount: 0 } });
    expect(r.endEquity).toBe(271.5181);
  });

  it('the same prices as a falling candle take the profit only if the close reaches it', () => {
    // 101 → 102 → 89 (buys 100 and 90, take-profit 95.95) → 96 ≥ 95.95: filled at the close; the
    // re-armed buy at 100 is then placed at 96 and, crossing the price, fills at once at 100 (paper rule)
    expect(fills(run([101, 102, 89, 96]))).toEqual(['buy 100 1 fee 0.1', 'buy 90 1 fee 0.09', 'sell 95.95 2 fee 0.1919', 'buy 100 1 fee 0.1']);
    // … → 95.9 < 95.95: the position stays open
    const r = run([101, 102, 89, 95.9]);
    expect(r.fills).toBe(2);
    expect(r.position).toEqual({ amount: 2, averageEntry: 95 });
  });

  it('a gap through several rungs fills every rung it passes, each at its own price', () => {
    // close 105, then the next candle opens at 78: buys 100, 90 and 80 all fill on the open print
    const r = run([104, 106, 103, 105], [78, 79, 77, 78.5]);
    expect(fills(r)).toEqual(['buy 100 1 fee 0.1', 'buy 90 1 fee 0.09', 'buy 80 1 fee 0.08']);
    expect(r.position).toEqual({ amount: 3, averageEntry: 90 });
    // 3 × 78.5 − 270 − 0.27
    expect(r.unrealised).toBe(-34.77);
    // peak 270 (flat), trough at the low 77: −0.27 − 270 + 270 + 3 × 77 = 230.73 → drawdown 39.27
    expect(r.maxDrawdown).toBe(39.27);
    expect(r.maxDrawdownPct).toBeCloseTo(39.27 / 270, 12);
    expect(r.timeInMarket).toBe(0.5);
  });

  it('a candle that touches both a buy and the take-profit: rising completes a cycle, falling (close below) does not', () => {
    // rising 101 → 99 (buy 100) → 102 (take-profit 101) → 101.5
    const up = run([101, 102, 99, 101.5]);
    expect(fills(up)).toEqual(['buy 100 1 fee 0.1', 'sell 101 1 fee 0.101']);
    // 101 − 100 − 0.1 − 0.101
    expect(up).toMatchObject({ profit: 0.799, cycles: 1, fees: 0.201 });
    // falling 101.5 → 102 → 99 (buy 100, take-profit 101) → 100.5 < 101
    const down = run([101.5, 102, 99, 100.5]);
    expect(fills(down)).toEqual(['buy 100 1 fee 0.1']);
    expect(down.cycles).toBe(0);
  });

  it('an entry above the first open fills at once at its limit price, as the paper venue does on placement', () => {
    const r = run([95, 96, 94, 95.5]);
    expect(fills(r)).toEqual(['buy 100 1 fee 0.1']);
  });

  describe('venue terms: a taker fee and price for orders crossing on placement, buy fees in the coin', () => {
    const venue = (...rows: Array<[number, number, number, number]>) =>
      runBacktest(toSeries(candles(...rows)), { config, rules, feeBps: 2, takerFeeBps: 10, crossingFill: 'market', recordFills: true });

    it('the ladder placed above the first open takes liquidity: it fills at the open, with the taker fee', () => {
      // entry 100 placed at 95: a taker buy at 95, fee 95 × 0.1 %
      expect(venue([95, 95.5, 94, 95.2]).fillLog).toEqual([{ time: T, side: 'buy', clientOrderId: expect.any(String), price: 95, amount: 1, fee: 0.095, taker: true }]);
    });

    it('a resting buy the low reaches is a maker at its limit price; the rung re-armed below the price after a take-profit is a taker at the current price', () => {
      // 101 → 102 → 89 (makers: buys 100 and 90 at 0.02 %) → 96 ≥ 95.95 (maker take-profit); the re-armed 100 crosses 96: taker at 96
      const r = venue([101, 102, 89, 96]);
      expect(r.fillLog!.map((f) => `${f.side} ${f.price} fee ${f.fee}${f.taker ? ' taker' : ''}`)).toEqual([
        'buy 100 fee 0.02', 'buy 90 fee 0.018', 'sell 95.95 fee 0.03838', 'buy 96 fee 0.096 taker',
      ]);
    });

    it('buy fees in the coin: the account receives amount − fee, the fee\'s quote value is charged', () => {
      const r = runBacktest(toSeries(candles([105, 106, 95, 96])), { config, rules, feeBps: 10, buyFeeIn: 'base', recordFills: true });
      // 1 × 0.1 % = 0.001 coin, worth 0.1 at 100
      expect(r.fillLog).toEqual([{ time: T, side: 'buy', clientOrderId: expect.any(String), price: 100, amount: 1, fee: 0.1, netAmount: 0.999 }]);
    });
  });

  it('buy-and-hold uses the same capital from the first open to the last close, one buy fee', () => {
    const r = run([100, 101, 99, 100.5], [100.5, 111, 100, 110]);
    // 270 × (110 / 100 − 1) − 270 × 0.001
    expect(r.buyAndHold.profit).toBe(26.73);
    expect(r.curve.equity.length).toBe(r.curve.time.length);
    expect(r.curve.time[r.curve.time.length - 1]).toBe(T + M);
  });

  it('an invalid grid is refused with the engine\'s reason', () => {
    expect(() =>
      runBacktest(toSeries(candles([100, 100, 100, 100])), { config: { ...config, interval: 50 }, rules, feeBps: 10 }),
    ).toThrow(/Order 3 of 3 would be priced at or below zero/);
  });
});
