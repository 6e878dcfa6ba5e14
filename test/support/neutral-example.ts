/**
 * The neutral futures grid example of issue 32 (LTCUSDT on Binance USDⓈ-M, worked out by hand), shared by
 * the engine-and-venue test (test/neutral-grid-paper.spec.ts) and the runner's (test/neutral-grid-runner.spec.ts).
 */
import type { NeutralGridConfig } from '@gridrocket/trading/styles/neutral';
import type { Candle } from '@gridrocket/backtest';
import { fourHourCandles } from './paper-app';

export const H = 3_600_000;
export const T0 = 1_700_000_000_000;
export const SYMBOL = 'LTCUSDT';

// LTCUSDT futures on paper Binance: price step 0.01, amount step 0.001, maker 0.02 %, taker 0.05 %.
// Neutral: reference 92, interval 2, 2 orders of 0.5 each side: buys 90, 88 | 92 | sells 94, 96.
export const NEUTRAL: NeutralGridConfig = { botType: 'Futures', numOfOrders: 2, orderSize: 0.5, interval: 2, entryPrice: 92, takeProfit: 1, leverage: 5, direction: 'neutral' };

// [open, high, low, close]; rising candles print open → low → high → close, falling open → high → low → close.
export const LTC: Array<[number, number, number, number]> = [
  [92.5, 93, 89.5, 90.5], // placed at 92.5 (nothing crosses); 89.5: buy 90 fills → sell 92 (reduce-only)
  [90.5, 92.5, 90.2, 92.2], // 92.5: sell 92 fills, the pair 90 → 92 completes → buy 90 again
  [92.2, 96.5, 92, 96], // 96.5: sells 94 and 96 fill at one print → buys 94 and 92 (reduce-only)
  [96, 96.2, 93.5, 93.8], // 93.5: buy 94 fills (closes the short sold at 96) → sell 96 again
  [93.8, 94.1, 91.5, 91.8], // 91.5: buy 92 fills (closes the short sold at 94): flat → sell 94 again
  [91.8, 92, 87.5, 88.5], // 87.5: buys 88 and 90 fill at one print, 88 first (placed at the start, 90 re-placed later: time priority): long 1 → sells 90 and 92 (reduce-only)
];

/*
 * By hand (maker fee = price × 0.5 × 0.0002, to 1e-8; the short and long lots closed last-in first-out):
 *  1. buy  0.5 @ 90   fee 0.009
 *  2. sell 0.5 @ 92   fee 0.0092   pair 90 → 92: 0.5 × 2 − 0.009 − 0.0092 = 0.9818
 *  3. sell 0.5 @ 94   fee 0.0094
 *  4. sell 0.5 @ 96   fee 0.0096   short 1
 *  5. buy  0.5 @ 94   fee 0.0094   closes the lot sold at 96: 0.5 × 2 − 0.0096 − 0.0094 = 0.981
 *  6. buy  0.5 @ 92   fee 0.0092   closes the lot sold at 94: 0.5 × 2 − 0.0094 − 0.0092 = 0.9814
 *  7. buy  0.5 @ 88   fee 0.0088   (one print crosses 90 and 88; the venue fills the older order first)
 *  8. buy  0.5 @ 90   fee 0.009    long 1 at (44 + 45) ÷ 1 = 89
 *  fees 0.009 + 0.0092 + 0.0094 + 0.0096 + 0.0094 + 0.0092 + 0.009 + 0.0088 = 0.0736
 *  profit 0.9818 + 0.981 + 0.9814 = 2.9442
 *  the wallet: the venue's realised P&L 1 (90 → 92) + the short of 1 at average 95 bought back at 94 and 92:
 *  0.5 + 1.5 = 3, less all fees 0.0736 = 2.9264 = the profit 2.9442 less the open long's fees 0.009 + 0.0088
 */
export const EXPECTED_FILLS = [
  'buy 90 0.5 fee 0.009',
  'sell 92 0.5 fee 0.0092',
  'sell 94 0.5 fee 0.0094',
  'sell 96 0.5 fee 0.0096',
  'buy 94 0.5 fee 0.0094',
  'buy 92 0.5 fee 0.0092',
  'buy 88 0.5 fee 0.0088',
  'buy 90 0.5 fee 0.009',
];
export const EXPECTED_FEES = 0.0736;
export const EXPECTED_PROFIT = 2.9442;

export const candles: Candle[] = fourHourCandles(LTC, T0);

