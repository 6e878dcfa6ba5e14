/**
 * The infinity grid's sizing by investment (issue 40, docs/infinity.md; moved from domain/bot-investment.rules.ts,
 * issue 42): the investment is the initial buy plus one value per step on every step down from the entry to
 * the lower price (the buys it may have to make), so the value per step is (investment − initial buy) ÷
 * steps, rounded down to the cent; the market's minimums judge the first step's orders as infinity.engine.ts
 * infinityProblem does. Pure, shared by the server (BotStyle.sizeInvestment) and the dashboard's form.
 */
import { ceilToStep, floorToStep, meetsOrderMinimums, roundMoney } from '@gridrocket/trading/grid';
import { CENT, fmt, minOf, stepOf, usd, type SizingMarket } from '../../domain/bot-sizing';

/** An infinity grid's steps counted at most (a 0.01 % step from 100 000 to 1 is 115 000 of them). */
const MAX_STEPS = 200_000;

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
