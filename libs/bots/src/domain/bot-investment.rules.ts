/**
 * The investment-based form (issue 40, what traders from the hosted grids expect): the trader gives the
 * total investment in USDT and the grid sizes its orders. Pure, shared by the server (which stores the
 * investment and the order size it sizes, bot.rules.ts) and the dashboard's form (which shows them before
 * the save), so both say the same numbers.
 *
 * - A ladder (long, short, neutral): every order of the grid gets the same size s (rung i of a size scale
 *   k gets s·kⁱ), and the investment is what the orders lock: the form's total cost,
 *       Σ rung price × rung size ÷ leverage      (a neutral grid: its buys below and its sells above),
 *   so s = investment × leverage ÷ Σ rung price × kⁱ, rounded DOWN to the market's amount step (the cost
 *   never passes the investment).
 * - A style that sizes a field of its own (the infinity grid's value per step: styles/infinity/infinity.sizing.ts)
 *   does so through its BotStyle.sizeInvestment (issue 42: styles/registry.ts), asked by investmentSizer.
 *
 * The market's minimums judge the sized orders as the form's and the server's market checks do
 * (bot-market.rules.ts marketFieldErrors, a style's own check): the amount step, the minimum
 * amount and the minimum order value (Binance LOT_SIZE stepSize / minQty and NOTIONAL / MIN_NOTIONAL
 * minNotional, KuCoin baseIncrement / baseMinSize / minFunds, as ccxt reports them in a market's
 * `precision` and `limits`: docs/exchanges.md). An investment too small for them is refused with the
 * numbers: the order it would size, the minimum it misses and the smallest investment the grid takes.
 * Without the market's rules (not asked yet, the venue unreachable) the sizes are rounded to 8 decimals
 * and no minimum is known: the server's market check and the runner judge them again.
 */
import { ceilToStep, floorToStep, roundMoney, rungPrice, rungSize } from '@gridrocket/trading/grid';
import { ValidationError } from '@gridrocket/shared';
import { botStyleOf, type BotDirection } from '../styles/registry';
import { gridHalves, ladderCostOf } from './bot-market.rules';
import { CENT, fmt, minOf, stepOf, usd, type SettingsToSize, type SizingMarket } from './bot-sizing';

export type { SettingsToSize, SizingMarket } from './bot-sizing';

/** The largest investment a form takes (USDT): the numeric bounds' scale (bot.rules.ts NUMERIC_BOUNDS). */
export const INVESTMENT_MAX = 1_000_000_000;
/** The largest order size a bot takes (bot.rules.ts NUMERIC_BOUNDS.orderSize.max). */
const ORDER_SIZE_MAX = 1_000_000;
/** The longest order size as written that the bot rules take (bot.rules.ts LENGTHS.orderSize). */
const ORDER_SIZE_CHARS = 12;

/** A ladder's fields that decide its rungs (long, short or neutral), each valid on its own. */
export interface LadderToSize {
  numOfOrders: number;
  interval: number;
  entryPrice: number;
  /** 1 for spot. */
  leverage?: number;
  spacing?: 'absolute' | 'percent';
  sizeScale?: number;
  direction?: BotDirection;
}

export interface LadderSizing {
  style: 'ladder';
  investment: number;
  /** Coins per order (the first rung's, with a size scale), on the amount step. */
  orderSize: number;
  /** How many orders the investment is spread over (a neutral grid: both sides). */
  orders: number;
  /** What the sized orders lock, USDT (futures: margin): at most the investment. */
  cost: number;
  /** The smallest investment this grid takes at this market (USDT, rounded up to the cent): one amount step per order when the market is not known. */
  minimum: number;
  /** Why the investment cannot size this grid, with the numbers; null when it can. */
  problem: string | null;
}

const coin = (x: number, base?: string) => (base ? `${fmt(x)} ${base}` : fmt(x));

/** The halves of the grid as the market checks see them (a neutral grid: its buys and its sells). */
function halvesOf(g: LadderToSize) {
  return gridHalves({ ...g, leverage: g.leverage ?? 1 });
}

/** Each rung's price and size factor (kⁱ), every half, the rungs priced above 0. */
function rungsOf(g: LadderToSize): { price: number; scale: number }[] {
  const out: { price: number; scale: number }[] = [];
  for (const h of halvesOf(g)) {
    for (let i = 0; i < Math.floor(g.numOfOrders); i++) {
      const price = rungPrice(h, i);
      if (price > 0) out.push({ price, scale: rungSize({ orderSize: 1, sizeScale: h.sizeScale }, i) });
    }
  }
  return out;
}

/** The smallest order's value at size s: what the market checks hold against the minimum order value. */
function smallestValue(g: LadderToSize, s: number): number {
  let min = Infinity;
  for (const h of halvesOf(g)) {
    for (let i = 0; i < Math.floor(g.numOfOrders); i++) {
      const price = rungPrice(h, i);
      if (price > 0) min = Math.min(min, roundMoney(price * rungSize({ orderSize: s, sizeScale: h.sizeScale }, i)));
    }
  }
  return min;
}

/** What the sized orders lock (the form's total cost: each half's ladder cost). */
function ladderCost(g: LadderToSize, orderSize: number): number {
  return roundMoney(halvesOf(g).reduce((t, h) => t + ladderCostOf({ ...h, orderSize, takeProfit: 1 }), 0));
}

/** Why size s is refused by the market's minimums (the words after "its orders would be …"), or null. */
function sizeProblem(g: LadderToSize, s: number, m: SizingMarket | undefined, base?: string): string | null {
  const step = stepOf(m, 'amountStep');
  if (!(s > 0)) return `${coin(0, base)} each: the investment rounds down to nothing at the market's amount step of ${coin(step, base)}`;
  const minAmount = minOf(m, 'minAmount');
  if (minAmount > 0 && s < minAmount) return `${coin(s, base)} each, below the market's minimum amount of ${coin(minAmount, base)}`;
  const minNotional = minOf(m, 'minNotional');
  const smallest = smallestValue(g, s);
  if (minNotional > 0 && smallest < minNotional) return `${coin(s, base)} each, and the smallest would be worth ${fmt(smallest)} USDT, below the market's minimum order value of ${fmt(minNotional)} USDT`;
  return null;
}

/** The largest size on the step that the investment pays for, written in at most 12 characters (the bot rules' form length). */
function sizeFor(investment: number, unit: number, step: number): number {
  let s = floorToStep(investment / unit, step);
  for (let coarser = step; String(s).length > ORDER_SIZE_CHARS && coarser < 1; ) {
    coarser *= 10;
    s = floorToStep(s, Number(coarser.toPrecision(1)));
  }
  return s;
}

/**
 * The orders an investment sizes for a ladder (long, short or neutral) at the market, with the smallest
 * investment the grid takes and, when it cannot size it, why (with the numbers). `base`: the coin (BTC),
 * named in the messages. The grid's own fields must be valid (the bot rules' parse checks them first).
 */
export function sizeLadder(g: LadderToSize, investment: number, market?: SizingMarket, base?: string): LadderSizing {
  const rungs = rungsOf(g);
  const orders = rungs.length;
  const leverage = g.leverage && g.leverage > 0 ? g.leverage : 1;
  const unit = rungs.reduce((t, r) => t + r.price * r.scale, 0) / leverage;
  const step = stepOf(market, 'amountStep');
  const out = (orderSize: number, minimum: number, problem: string | null): LadderSizing => ({ style: 'ladder', investment, orderSize, orders, cost: ladderCost(g, orderSize), minimum, problem });
  if (!(orders > 0 && unit > 0 && Number.isFinite(unit))) return out(0, 0, 'The grid has no order to size yet: set its entry price, grid size and price interval first');
  const minimum = minimumLadderInvestment(g, unit, market);
  const orderSize = sizeFor(investment, unit, step);
  const why = sizeProblem(g, orderSize, market, base);
  if (why) {
    return out(orderSize, minimum, `An investment of ${usd(investment)} USDT is too small for this grid: its ${orders} orders would be ${why}. The smallest investment for this grid is ${usd(minimum)} USDT`);
  }
  if (orderSize > ORDER_SIZE_MAX) {
    return out(orderSize, minimum, `An investment of ${usd(investment)} USDT sizes orders of ${coin(orderSize, base)}, above the largest order size of ${fmt(ORDER_SIZE_MAX)}: lower the investment or raise the grid size`);
  }
  return out(orderSize, minimum, null);
}

/** The smallest investment whose sized orders the market takes (up to the cent). */
function minimumLadderInvestment(g: LadderToSize, unit: number, market: SizingMarket | undefined): number {
  const step = stepOf(market, 'amountStep');
  const minNotional = minOf(market, 'minNotional');
  const minAmount = minOf(market, 'minAmount');
  const lowest = rungsOf(g).reduce((m, r) => Math.min(m, r.price * r.scale), Infinity);
  let s = ceilToStep(Math.max(step, minAmount, lowest > 0 && Number.isFinite(lowest) ? minNotional / lowest : 0), step);
  for (let i = 0; i < 1000 && sizeProblem(g, s, market) !== null; i++) s = ceilToStep(s + step, step);
  let minimum = ceilToStep(Math.max(ladderCost(g, s), s * unit), CENT);
  for (let i = 0; i < 1000 && sizeProblem(g, sizeFor(minimum, unit, step), market) !== null; i++) minimum = ceilToStep(minimum + CENT, CENT);
  return minimum;
}

/**
 * The server's sizing of a body's investment (bot.rules.ts OrderSizer): the ladder's order size or a
 * style's own field (BotStyle.sizeInvestment: the infinity grid's value per step) at `market` (undefined: not known, 8 decimals and no minimum), or a 400 on
 * `investment` with the numbers. `stored`: an edited bot's settings, where the edit leaves them as they are.
 */
export function investmentSizer(market: SizingMarket | undefined, base?: string, stored: Partial<LadderToSize> = {}) {
  return (config: SettingsToSize, investment: number): number => {
    // a style that sizes a field of its own (BotStyle.sizeInvestment) sizes it; the ladder sizes its orders
    const own = botStyleOf({ style: config.style })?.sizeInvestment;
    if (own) {
      const r = own(config, investment, market);
      if (r.problem) throw new ValidationError([{ field: 'investment', message: r.problem }]);
      return r.value;
    }
    const kept = <K extends 'spacing' | 'sizeScale' | 'direction'>(k: K) => (config[k] === null ? undefined : (config[k] ?? stored[k])) as LadderToSize[K];
    const grid: LadderToSize = {
      numOfOrders: config.numOfOrders,
      interval: config.interval,
      entryPrice: config.entryPrice,
      leverage: config.leverage ?? stored.leverage ?? 1,
      spacing: kept('spacing'),
      sizeScale: kept('sizeScale'),
      direction: kept('direction'),
    };
    const r = sizeLadder(grid, investment, market, base);
    if (r.problem) throw new ValidationError([{ field: 'investment', message: r.problem }]);
    return r.orderSize;
  };
}
