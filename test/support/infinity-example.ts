/**
 * The infinity spot grid example of issue 32 (LTCUSDT on Binance spot, worked out by hand in
 * libs/trading/src/grid/infinity.paper.spec.ts, where the engine and the paper venue trade it with a small
 * driver), shared by the runner's tests (test/infinity-grid-runner.spec.ts, test/infinity-grid-crash.spec.ts).
 */
import type { InfinityConfig } from '@gridrocket/trading/styles/infinity';
import type { Candle } from '@gridrocket/backtest';
import { fourHourCandles } from './paper-app';

export const H = 3_600_000;
export const T0 = 1_700_000_000_000;
export const SYMBOL = 'LTCUSDT';

// LTCUSDT spot on paper Binance: price step 0.01, amount step 0.001, minimum order value 5; maker and taker
// 0.1 %, a buy's fee taken in LTC. Start at 100 buying 100 USDT of LTC; a step of 2 %, 20 USDT a step; no buy below 95.
export const INFINITY: InfinityConfig = { style: 'infinity', botType: 'Spot', entryPrice: 100, stepPercent: 2, quoteValue: 20, lowerPrice: 95, initialQuote: 100 };

// [open, high, low, close]; rising candles print open → low → high → close, falling open → high → low → close.
export const LTC: Array<[number, number, number, number]> = [
  [101, 101.5, 99.8, 100.5], // the initial buy at 100 rests at 101, fills at 99.8
  [100.5, 102.3, 100.2, 102.1], // 102.3: the sell at 102 fills (a step up)
  [102.1, 102.4, 97.5, 98], // 97.5: the buy at 99.96 fills; the next buy at 97.96 crosses 97.5 at once
  [98, 99.6, 94, 99.5], // 94: the buy at 95.55 fills, no buy below 95; 99.6: the sell at 97.47 fills, the next at 99.42 crosses at once
];

/*
 * By hand (the full working: libs/trading/src/grid/infinity.paper.spec.ts). Buys: fee 0.1 % of the amount
 * in LTC, the bot holds the net amount; sells: fee 0.1 % of the proceeds in USDT; a sell realises
 * proceeds − its share of the cost and of the unpaid buy fees (average cost) − its fee.
 *  1. initial buy 1 @ 100 (maker)           holds 0.999
 *  2. sell 0.196 @ 102 (maker)               profit 19.992 − 19.6 − 0.0196196 − 0.019992 = 0.35238838
 *  3. buy 0.2 @ 99.96 (maker)
 *  4. buy 0.204 @ 97.5 (taker: 97.96 crossed the price when placed)
 *  5. buy 0.209 @ 95.55 (maker); the next buy 93.63 is below 95: none
 *  6. sell 0.205 @ 97.47 (maker)             profit −0.34942107 (below the average cost)
 *  7. sell 0.201 @ 99.6 (taker: 99.42 crossed) profit 0.08509877
 *  profit 0.35238838 − 0.34942107 + 0.08509877 = 0.08806608
 *  fees 0.1 + 0.019992 + 0.019992 + 0.01989 + 0.01996995 + 0.01998135 + 0.0200196 = 0.2198449 (USDT value)
 *  holds 0.999 − 0.196 + 0.1998 + 0.203796 + 0.208791 − 0.205 − 0.201 = 1.009387 LTC
 *  resting at the end: sell 101.6 for 0.196, buy 97.6 for 0.204 (one step either side of 99.6)
 */
export const EXPECTED_FILLS = [
  'buy 100 1 fee 0.1',
  'sell 102 0.196 fee 0.019992',
  'buy 99.96 0.2 fee 0.019992',
  'buy 97.5 0.204 fee 0.01989',
  'buy 95.55 0.209 fee 0.01996995',
  'sell 97.47 0.205 fee 0.01998135',
  'sell 99.6 0.201 fee 0.0200196',
];
export const EXPECTED_PROFIT = 0.08806608;
export const EXPECTED_FEES = 0.2198449;
export const EXPECTED_HELD = 1.009387;

export const candles: Candle[] = fourHourCandles(LTC, T0);
