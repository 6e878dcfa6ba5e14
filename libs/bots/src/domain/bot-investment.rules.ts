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
 * - An infinity grid (spot, docs/infinity.md): the investment is the initial buy plus one value per step
 *   on every step down from the entry to the lower price (the buys it may have to make), so the value per
 *   step is (investment − initial buy) ÷ steps, rounded down to the cent.
 *
 * The market's minimums judge the sized orders as the form's and the server's market checks do
 * (bot-market.rules.ts marketFieldErrors, infinity.engine.ts infinityProblem): the amount step, the minimum
 * amount and the minimum order value (Binance LOT_SIZE stepSize / minQty and NOTIONAL / MIN_NOTIONAL
 * minNotional, KuCoin baseIncrement / baseMinSize / minFunds, as ccxt reports them in a market's
 * `precision` and `limits`: docs/exchanges.md). An investment too small for them is refused with the
 * numbers: the order it would size, the minimum it misses and the smallest investment the grid takes.
 * Without the market's rules (not asked yet, the venue unreachable) the sizes are rounded to 8 decimals
 * and no minimum is known: the server's market check and the runner judge them again.
 */
import { ceilToStep, floorToStep, meetsOrderMinimums, roundMoney, rungPrice, rungSize } from '@gridrocket/trading/grid';
import { ValidationError } from '@gridrocket/shared';
import { gridHalves, ladderCostOf } from './bot-market.rules';

/** The largest investment a form takes (USDT): the numeric bounds' scale (bot.rules.ts NUMERIC_BOUNDS). */
export const INVESTMENT_MAX = 1_000_000_000;
/** The largest order size a bot takes (bot.rules.ts NUMERIC_BOUNDS.orderSize.max). */
const ORDER_SIZE_MAX = 1_000_000;
/** The longest order size as written that the bot rules take (bot.rules.ts LENGTHS.orderSize). */
const ORDER_SIZE_CHARS = 12;
/** The step of sizes when the market's is not known: 8 decimals (bot.rules.ts MAX_DECIMALS). */
const FALLBACK_STEP = 1e-8;
const CENT = 0.01;
/** An infinity grid's steps counted at most (a 0.01 % step from 100 000 to 1 is 115 000 of them). */
const MAX_STEPS = 200_000;

/** What the sizing reads of a market (the exchange port's MarketRules, a subset). */
export interface SizingMarket {
  priceStep?: number;
  amountStep?: number;
  minNotional?: number;
  minAmount?: number;
}

/** A ladder's fields that decide its rungs (long, short or neutral), each valid on its own. */
export interface LadderToSize {
  numOfOrders: number;
  interval: number;
  entryPrice: number;
  /** 1 for spot. */
  leverage?: number;
  spacing?: 'absolute' | 'percent';
  sizeScale?: number;
  direction?: 'long' | 'short' | 'neutral';
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

export interface InfinityToSize {
  entryPrice: number;
  stepPercent: number;
  lowerPrice: number;
  /** USDT spent on coin at the start (part of the investment). */
  initialQuote?: number;
}

export interface InfinitySizing {
  style: 'infinity';
  investment: number;
  /** USDT bought on each step down and sold on each step up, rounded down to the cent. */
  quoteValue: number;
  /** The buys from the entry down to the lower price, as the engine prices them. */
  steps: number;
  /** The initial buy plus every step's buy, USDT: at most the investment. */
  cost: number;
  /** The smallest investment this grid takes at this market (USDT, up to the cent). */
  minimum: number;
  problem: string | null;
}

const fmt = (x: number) => String(Number(x.toPrecision(12)));
const usd = (x: number) => x.toFixed(2);
const coin = (x: number, base?: string) => (base ? `${fmt(x)} ${base}` : fmt(x));
const stepOf = (m: SizingMarket | undefined, k: 'amountStep' | 'priceStep') => {
  const s = m?.[k];
  return typeof s === 'number' && Number.isFinite(s) && s > 0 ? s : FALLBACK_STEP;
};
const minOf = (m: SizingMarket | undefined, k: 'minNotional' | 'minAmount') => {
  const s = m?.[k];
  return typeof s === 'number' && Number.isFinite(s) && s > 0 ? s : 0;
};

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
 * The buys an infinity grid can make from its entry down to its lower price, priced as its engine prices
 * them (infinity.engine.ts stepOrders: each one step below the last, rounded down to the price step, none
 * below the lower price).
 */
export function infinitySteps(c: InfinityToSize, market?: SizingMarket): number {
  const tick = stepOf(market, 'priceStep');
  let last = floorToStep(c.entryPrice, tick);
  let n = 0;
  while (n <= MAX_STEPS) {
    const next = floorToStep(last * (1 - c.stepPercent / 100), tick);
    if (!(next >= c.lowerPrice) || next >= last) break;
    n++;
    last = next;
  }
  return n;
}

/** The first step's orders (one step up, one down from the entry) take a value per step of q (infinityProblem's test). */
function stepTakes(c: InfinityToSize, q: number, market: SizingMarket | undefined): boolean {
  const tick = stepOf(market, 'priceStep');
  const lot = stepOf(market, 'amountStep');
  const rules = { priceStep: tick, amountStep: lot, minNotional: minOf(market, 'minNotional'), minAmount: minOf(market, 'minAmount') || undefined };
  const entry = floorToStep(c.entryPrice, tick);
  const up = ceilToStep(entry * (1 + c.stepPercent / 100), tick);
  const down = floorToStep(entry * (1 - c.stepPercent / 100), tick);
  return [up, down].every((p) => p > 0 && meetsOrderMinimums(rules, floorToStep(q / p, lot), p));
}

/** The orders an investment sizes for an infinity grid: its value per step, with the smallest investment and why it cannot, if so. */
export function sizeInfinity(c: InfinityToSize, investment: number, market?: SizingMarket): InfinitySizing {
  const initial = c.initialQuote && c.initialQuote > 0 ? c.initialQuote : 0;
  const steps = infinitySteps(c, market);
  const out = (quoteValue: number, minimum: number, problem: string | null): InfinitySizing => ({ style: 'infinity', investment, quoteValue, steps, cost: roundMoney(initial + steps * quoteValue), minimum, problem });
  if (steps === 0) return out(0, 0, `There is no buy between the entry price ${fmt(c.entryPrice)} and the lower price ${fmt(c.lowerPrice)} with a step of ${fmt(c.stepPercent)} %: an investment has nothing to size; set the value per step instead`);
  if (steps > MAX_STEPS) return out(0, 0, `More than ${MAX_STEPS} steps of ${fmt(c.stepPercent)} % lie between the entry price and the lower price: raise the step or the lower price`);
  // the smallest value per step whose first buy and sell (one step either side of the entry) the market takes
  const tick = stepOf(market, 'priceStep');
  const lot = stepOf(market, 'amountStep');
  const minNotional = minOf(market, 'minNotional');
  const minAmount = minOf(market, 'minAmount');
  const entry = floorToStep(c.entryPrice, tick);
  const first = [ceilToStep(entry * (1 + c.stepPercent / 100), tick), floorToStep(entry * (1 - c.stepPercent / 100), tick)].filter((p) => p > 0);
  let q = ceilToStep(Math.max(CENT, ...first.map((p) => ceilToStep(Math.max(minAmount, minNotional / p, lot), lot) * p)), CENT);
  for (let i = 0; i < 1000 && !stepTakes(c, q, market); i++) q = ceilToStep(q + CENT, CENT);
  const minimum = ceilToStep(initial + steps * q, CENT);
  const quoteValue = investment > initial ? floorToStep((investment - initial) / steps, CENT) : 0;
  if (quoteValue < q || !stepTakes(c, quoteValue, market)) {
    const after = initial > 0 ? `after the initial buy of ${usd(initial)} USDT ` : '';
    const minimums = minNotional > 0 || minAmount > 0 ? `, below the market's minimum order (value ${fmt(minNotional)} USDT${minAmount > 0 ? `, amount ${fmt(minAmount)}` : ''})` : '';
    return out(quoteValue, minimum, `An investment of ${usd(investment)} USDT is too small for this grid: ${after}it buys ${usd(quoteValue)} USDT on each of the ${steps} steps down to ${fmt(c.lowerPrice)}${minimums}. The smallest investment for this grid is ${usd(minimum)} USDT`);
  }
  return out(quoteValue, minimum, null);
}

/** A bot's settings as the server's sizing reads them (bot.rules.ts OrderSizer's argument): null is a setting turned off. */
interface SettingsToSize {
  style?: 'infinity' | (string & {});
  numOfOrders: number;
  interval: number;
  entryPrice: number;
  leverage?: number;
  spacing?: 'absolute' | 'percent' | null;
  sizeScale?: number | null;
  direction?: 'long' | 'short' | 'neutral' | null;
  stepPercent?: number;
  lowerPrice?: number;
  initialQuote?: number;
}

/**
 * The server's sizing of a body's investment (bot.rules.ts OrderSizer): the ladder's order size or the
 * infinity grid's value per step at `market` (undefined: not known, 8 decimals and no minimum), or a 400 on
 * `investment` with the numbers. `stored`: an edited bot's settings, where the edit leaves them as they are.
 */
export function investmentSizer(market: SizingMarket | undefined, base?: string, stored: Partial<LadderToSize> = {}) {
  return (config: SettingsToSize, investment: number): number => {
    if (config.style === 'infinity') {
      const r = sizeInfinity({ entryPrice: config.entryPrice, stepPercent: config.stepPercent ?? 0, lowerPrice: config.lowerPrice ?? 0, initialQuote: config.initialQuote ?? 0 }, investment, market);
      if (r.problem) throw new ValidationError([{ field: 'investment', message: r.problem }]);
      return r.quoteValue;
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
