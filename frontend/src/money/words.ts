/**
 * Words and numbers by role (issue 40, points 4 and 5), pure: what a fill, an order or a yearly figure is
 * called, from what the bot does (a short's opening orders SELL and its take-profit buys back; a neutral
 * grid's closing orders are the answers its engine puts one line from each fill, libs/trading grid/neutral.ts),
 * and an annualised return only once it means something. The server's figures are shared (money/figures.ts).
 */
import { MIN_RUNTIME_FOR_ANNUAL_DAYS } from '@gridrocket/trading/money/money';
import { duration } from '../bots/format';
import { percent2 } from './format';
import { directionOf, wordsOf, type Direction } from '../styles/registry';

export type FillRole = 'buy' | 'take-profit' | 'stop-loss' | 'liquidation' | 'close';

/** The direction a bot's view says (absent: long, the spec's bot): the styles' registry's. */
export { directionOf };
export type { Direction };

/**
 * A fill of the trades list: an opening fill by its side (a long's buy, a short's sell, a neutral grid's
 * buy or sell), a closing one by what closed it: the take-profit (a short's buys back), the stop-loss, a
 * neutral grid's answer, a stop's market close of the position (issue 40), the venue's liquidation.
 */
export function fillLabel(role: FillRole | string, side: 'buy' | 'sell' | string, direction: Direction): string {
  if (role === 'buy') return side === 'sell' ? 'Sell' : 'Buy';
  const back = side === 'buy';
  if (role === 'liquidation') return back ? 'Liquidation (bought back)' : 'Liquidation (sold)';
  if (role === 'close') return back ? 'Stop: bought back at market' : 'Stop: sold at market';
  if (role === 'stop-loss') return back ? 'Stop-loss (buy back)' : 'Stop-loss';
  const closing = wordsOf(direction).closingFill;
  return back ? closing.back : closing.sold;
}

/**
 * The annualised return as the screens write it: the figure, or before 7 days of running "—" with the reason
 * in `note` (shown small beside it: "(from 7 days of running; 10m 0s so far)").
 */
export function annualisedText(percent: number | null | undefined, runtimeMs: number | undefined): { value: string; note: string | null; hint: string } {
  const why = `A yearly rate is shown from ${MIN_RUNTIME_FOR_ANNUAL_DAYS} days of running: before, a few hours' result scaled to a year says nothing`;
  if (percent !== null && percent !== undefined && Number.isFinite(percent)) return { value: percent2(percent), note: null, hint: `The return scaled to a year of running (simple, not compounded). ${why}.` };
  const ran = runtimeMs !== undefined && runtimeMs > 0 ? `; ${duration(runtimeMs / 1000)} so far` : '';
  return { value: '—', note: `(from ${MIN_RUNTIME_FOR_ANNUAL_DAYS} days of running${ran})`, hint: `${why}.` };
}

/** The chart legend's words for a bot's orders. */
export function orderWords(direction: Direction): { open: string; filled: string; closing: string; closingShort: string } {
  return wordsOf(direction).orders;
}
