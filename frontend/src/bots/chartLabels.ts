/**
 * What the bot page's price chart writes (issue 29, finding 9: the ladder lines had no labels and the time
 * axis repeated one label). Pure, so it is tested without a canvas; BotChart hands these to lightweight-charts.
 */
import { wordsOf, type Direction } from '../styles/registry';

/**
 * lightweight-charts' TickMarkType (typings.d.ts of lightweight-charts 5): the kind of boundary a time tick
 * falls on. Numbers here so this module loads without the chart library.
 */
export const TICK = { Year: 0, Month: 1, DayOfMonth: 2, Time: 3, TimeWithSeconds: 4 } as const;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/**
 * The label of a time tick (`time`: unix seconds), in the viewer's time zone like the rest of the page.
 * The library marks a tick within a minute as TimeWithSeconds and, with `secondsVisible: false`, wrote it
 * as HH:MM, so a chart of a few minutes read "16:06 16:06 16:06". Each kind keeps its own precision here.
 */
export function tickLabel(time: number, type: number): string {
  const d = new Date(time * 1000);
  switch (type) {
    case TICK.Year:
      return String(d.getFullYear());
    case TICK.Month:
      return `${MONTHS[d.getMonth()]} ${d.getFullYear()}`;
    case TICK.DayOfMonth:
      return `${d.getDate()} ${MONTHS[d.getMonth()]}`;
    case TICK.TimeWithSeconds:
      return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
    default:
      return `${two(d.getHours())}:${two(d.getMinutes())}`;
  }
}

/** The crosshair's time: the day and the time to the second, local. */
export function crosshairTime(time: number): string {
  const d = new Date(time * 1000);
  return `${d.getDate()} ${MONTHS[d.getMonth()]} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

export interface Level {
  price: number;
  kind: 'buy' | 'take-profit';
  status?: string;
}

export interface LevelLine {
  price: number;
  kind: 'buy' | 'take-profit';
  filled: boolean;
  /** The price shown on the price axis in the line's colour. */
  axisLabel: boolean;
  /**
   * Written on the line at the axis: "TP" for a long's or a short's take-profit; opening orders carry their
   * price only, and so do a neutral grid's answers (its engine's word is not "TP": the legend names them).
   */
  title: string;
}

/** Room one axis label takes, px (the library's labels are about 18 px tall). */
const LABEL_PX = 22;

/**
 * Which ladder lines carry a price label on the axis, for a chart `height` px tall: the take-profit always;
 * the buys every k-th from the highest, the lowest always, k chosen so the labels do not pile on top of each
 * other (the levels spread over about three quarters of the height, the autoscale's margins aside).
 */
export function levelLines(levels: Level[], height: number, direction: Direction = 'long'): LevelLine[] {
  // a neutral grid's answers are many, like its opening orders: labelled every k-th with them
  const single = wordsOf(direction).takeProfit;
  const buys = levels.filter((l) => l.kind === 'buy' || !single).sort((a, b) => b.price - a.price);
  const room = Math.max(2, Math.floor((height * 0.76) / LABEL_PX) - (single ? 1 : 0)); // one place kept for the take-profit
  const every = Math.max(1, Math.ceil(buys.length / room));
  const picked = buys.map((_, i) => i).filter((i) => i % every === 0);
  const last = buys.length - 1;
  if (last >= 0 && picked[picked.length - 1] !== last) {
    // the lowest always; the pick above it goes if the two would sit closer than half a step
    if (picked.length > 1 && last - picked[picked.length - 1] < every / 2) picked.pop();
    picked.push(last);
  }
  const labelled = new Set(picked.map((i) => buys[i]));
  return levels.map((l) => ({
    price: l.price,
    kind: l.kind,
    filled: l.status === 'filled',
    axisLabel: (single && l.kind === 'take-profit') || labelled.has(l),
    title: single && l.kind === 'take-profit' ? 'TP' : '',
  }));
}
