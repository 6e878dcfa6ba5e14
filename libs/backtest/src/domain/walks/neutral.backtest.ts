/**
 * The backtest of a NEUTRAL futures grid (issue 32, @gridrocket/trading/grid neutral.ts): the same pure
 * neutral engine the grid trades with decides every order; this file plays the exchange exactly as
 * backtest.engine.ts does for long and short grids (and as the paper exchange does):
 *  - each candle is walked along candlePath (open → low → high → close when rising, open → high → low →
 *    close when falling), every point a trade print;
 *  - a resting buy fills when a print is at or below its price, a resting sell when at or above, at its
 *    limit price, in full, maker fee; several crossed by one print fill oldest placement first;
 *  - after fills, the orders the engine then wants are placed at the current print; one that crosses it
 *    fills at once as a taker (at the print with `crossingFill: 'market'`, the paper venue's way);
 *  - fees as the paper venue rounds them (feeOf).
 * Kept apart from GridSim (whose fast path tracks one next rung and one take-profit) so the long and short
 * backtests are untouched; a neutral grid is walked print by print.
 */
import { initialNeutralState, neutralDesiredOrders, neutralProblem, processNeutralFill } from '@gridrocket/trading/styles/neutral';
import type { MarketRules } from '@gridrocket/trading/grid';
import type { NeutralDesiredOrder, NeutralGridConfig, NeutralState } from '@gridrocket/trading/styles/neutral';
import { feeOf, type BacktestFill, type FeeTerms } from '../backtest.engine';
import { candlePath, type Candle } from '../candle';
import type { BacktestObserver } from '../equity-walk';

export interface NeutralBacktestParams extends FeeTerms {
  config: NeutralGridConfig;
  rules: MarketRules;
  /** Told every fill, every print and every candle's end (equity-walk.ts: the mark-to-market of the route's backtest). */
  observer?: BacktestObserver;
}

export interface NeutralBacktestResult {
  candles: number;
  profit: number;
  fees: number;
  /** Completed pairs (an opening fill closed by its answer). */
  pairs: number;
  /** Signed base amount held at the end: > 0 long, < 0 short. */
  position: number;
  fills: BacktestFill[];
  state: NeutralState;
}

/** Runs a neutral grid over the candles (placed at the first open). Throws when the grid is invalid for the market. */
export function runNeutralBacktest(candles: readonly Candle[], params: NeutralBacktestParams): NeutralBacktestResult {
  const problem = neutralProblem(params.config, params.rules);
  if (problem) throw new Error(problem);
  if (candles.length === 0) throw new Error('No candles to backtest');
  let state = initialNeutralState(params.config, params.rules, 'backtest');
  const fills: BacktestFill[] = [];
  const placedAt = new Map<string, number>();
  let placeSeq = 0;
  let resting: NeutralDesiredOrder[] = [];
  let seq = 0;

  const fill = (orders: NeutralDesiredOrder[], time: number, taker: boolean, current: number): void => {
    for (const o of orders) {
      const price = taker && params.crossingFill === 'market' ? current : o.price;
      const fee = feeOf(price, o.amount, taker ? (params.takerFeeBps ?? params.feeBps) : params.feeBps);
      state = processNeutralFill(state, { clientOrderId: o.clientOrderId, fillId: String(++seq), price, amount: o.amount, fee }).state;
      const logged: BacktestFill = { time, side: o.side, clientOrderId: o.clientOrderId, price, amount: o.amount, fee, ...(taker ? { taker: true } : {}) };
      fills.push(logged);
      params.observer?.fill(logged);
    }
  };
  const crossedBy = (price: number) => (o: NeutralDesiredOrder) => (o.side === 'buy' ? price <= o.price : price >= o.price);

  const print = (price: number, time: number): void => {
    settle(price, time);
    params.observer?.print(price);
  };
  const settle = (price: number, time: number): void => {
    // the resting orders this print reaches fill first (makers), oldest placement first
    const crossed = resting.filter(crossedBy(price)).sort((a, b) => placedAt.get(a.clientOrderId)! - placedAt.get(b.clientOrderId)!);
    if (crossed.length > 0) fill(crossed, time, false, price);
    // then what the engine wants is placed; an order crossing the price on placement fills at once (taker)
    for (let round = 0; round < 8 * params.config.numOfOrders + 8; round++) {
      const want = neutralDesiredOrders(params.rules, state);
      const fresh = want.filter((o) => !placedAt.has(o.clientOrderId));
      for (const o of fresh) placedAt.set(o.clientOrderId, ++placeSeq);
      resting = want;
      const crossing = fresh.filter(crossedBy(price));
      if (crossing.length === 0) return;
      fill(crossing, time, true, price);
    }
    throw new Error(`The neutral grid keeps filling at ${price}: engine loop`);
  };

  print(candles[0].open, candles[0].time);
  candles.forEach((c, i) => {
    candlePath(c).forEach((p, k) => {
      if (i === 0 && k === 0) return; // the grid was placed at this print
      print(p, c.time);
    });
    params.observer?.candle(i);
  });
  return { candles: candles.length, profit: state.profit, fees: state.feesPaid, pairs: state.pairsCompleted, position: state.position, fills, state };
}
