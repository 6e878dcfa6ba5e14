/**
 * A backtest of an infinity grid (issue 32, libs/trading styles/infinity/infinity.engine.ts, docs/infinity.md):
 * the SAME pure engine over the candles' prints, the venue played exactly as backtest.engine.ts plays it
 * for the ladder (the paper exchange's model): each candle prints open → low → high → close when rising,
 * open → high → low → close when falling; a resting buy fills when a print is at or below its price, a
 * resting sell when at or above, at the limit price (maker fee); an order that crosses the price when it
 * is placed fills at once (taker fee, at the current price with `crossingFill: 'market'`); a buy's fee
 * taken in the coin (`buyFeeIn: 'base'`) leaves the engine the net amount.
 */
import { infinityDesiredOrders, infinityInitialState, infinityUnrealised, processInfinityFill } from '@gridrocket/trading/styles/infinity';
import type { Fill, MarketRules } from '@gridrocket/trading/grid';
import type { InfinityConfig, InfinityOrder, InfinityState } from '@gridrocket/trading/styles/infinity';
import { coinFeeOf, feeOf, type BacktestFill, type FeeTerms } from '../backtest.engine';
import type { CandleSeries } from '../candle';
import type { BacktestObserver } from '../equity-walk';

export interface InfinityBacktestParams extends FeeTerms {
  config: InfinityConfig;
  rules: MarketRules;
  recordFills?: boolean;
  /** Told every fill, every print and every candle's end (equity-walk.ts: the mark-to-market of the route's backtest). */
  observer?: BacktestObserver;
}

export interface InfinityBacktestResult {
  candles: number;
  /** Realised profit after fees (average-cost method). */
  profit: number;
  /** What is held valued at the last close, less its cost and unpaid buy fees. */
  unrealised: number;
  fees: number;
  fills: number;
  stepsUp: number;
  stepsDown: number;
  position: { amount: number; averageEntry: number };
  /** The reference price at the end (the last completed trade). */
  last: number | null;
  fillLog?: BacktestFill[];
}

export function runInfinityBacktest(series: CandleSeries, params: InfinityBacktestParams): InfinityBacktestResult {
  const n = series.length;
  if (n === 0) throw new Error('No candles to backtest');
  const { config, rules } = params;
  let state: InfinityState = infinityInitialState(config, rules, 'backtest');
  const log: BacktestFill[] | null = params.recordFills ? [] : null;
  let seq = 0;
  let fills = 0;
  /** Ids of orders resting since an earlier print (placed ones that did not cross at once). */
  let resting = new Set<string>();

  const fill = (o: InfinityOrder, time: number, taker: boolean, current: number) => {
    const bps = taker ? (params.takerFeeBps ?? params.feeBps) : params.feeBps;
    const price = taker && params.crossingFill === 'market' ? current : o.price;
    let fee: number;
    let netAmount: number | undefined;
    if (o.side === 'buy' && params.buyFeeIn === 'base') ({ fee, netAmount } = coinFeeOf(price, o.amount, bps));
    else fee = feeOf(price, o.amount, bps);
    const f: Fill = { clientOrderId: o.clientOrderId, fillId: String(++seq), price, amount: o.amount, fee, ...(netAmount !== undefined ? { netAmount } : {}) };
    const logged: BacktestFill = { time, side: o.side, clientOrderId: o.clientOrderId, price, amount: o.amount, fee, ...(netAmount !== undefined ? { netAmount } : {}), ...(taker ? { taker: true } : {}) };
    log?.push(logged);
    params.observer?.fill(logged);
    state = processInfinityFill(config, rules, state, f).state;
    fills++;
  };

  const crosses = (o: InfinityOrder, price: number) => (o.side === 'buy' ? price <= o.price : price >= o.price);

  /** One print: resting orders it reaches fill (makers); then new orders that cross it fill at once (takers), until none does. */
  const print = (price: number, time: number) => {
    for (let round = 0; round < 10_000; round++) {
      const orders = infinityDesiredOrders(rules, state);
      const hit = orders.find((o) => crosses(o, price));
      if (!hit) {
        resting = new Set(orders.map((o) => o.clientOrderId));
        return;
      }
      fill(hit, time, !resting.has(hit.clientOrderId), price);
    }
    throw new Error(`The infinity grid keeps filling at ${price}`);
  };

  const { time, open, high, low, close } = series;
  for (let i = 0; i < n; i++) {
    const rising = close[i] >= open[i];
    const path = [open[i], rising ? low[i] : high[i], rising ? high[i] : low[i], close[i]];
    for (const p of path) {
      print(p, time[i]);
      params.observer?.print(p);
    }
    params.observer?.candle(i);
  }
  const st = state;
  return {
    candles: n,
    profit: st.profit,
    unrealised: infinityUnrealised(st, close[n - 1]),
    fees: st.feesPaid,
    fills,
    stepsUp: st.stepsUp,
    stepsDown: st.stepsDown,
    position: { amount: st.position.amount, averageEntry: st.position.averageEntry },
    last: st.last,
    ...(log ? { fillLog: log } : {}),
  };
}
