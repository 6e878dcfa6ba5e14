/**
 * Total cost of a grid in quote currency (USDT), spec section 5:
 * the sum over orders of size × price ÷ leverage, the price falling by `interval`
 * for each successive order. Pure: shared by the server and the dashboard.
 * Returns null when any input is not a number greater than 0 (the spec computes
 * the cost only then).
 *
 * With `rules`, each price and size is first rounded down to the market's steps exactly as the
 * engine's ladder is (see ladder.ts), so the figure is what the exchange will really lock. Without
 * them it is the spec's formula on the raw inputs (what the dashboard shows while typing).
 * The result is rounded to 1e-8, so no float artefacts (0.30000000000000004) reach a screen.
 * The formula is kept literal: a ladder that reaches zero or below is rejected by validateGrid,
 * not here.
 */
import { floorToStep, roundMoney } from './decimal';
import type { LadderLevel, Spacing } from './grid.types';
import { isSpecLadder, rungPrice, rungSize } from './spacing';

export interface CostInput {
  numOfOrders: number | string;
  orderSize: number | string;
  interval: number | string;
  entryPrice: number | string;
  leverage?: number | string;
  /** Beyond the spec (spacing.ts): absent = the spec's absolute spacing and equal sizes. */
  spacing?: Spacing;
  sizeScale?: number | string;
}

/** The market steps the cost may round to (a subset of MarketRules). */
export interface CostRounding {
  priceStep: number;
  amountStep: number;
}

/** Above this many orders the dashboard formula uses the closed form instead of a loop. */
const LOOP_LIMIT = 10_000;

export function gridCost(input: CostInput, rules?: CostRounding): number | null {
  const n = Number(input.numOfOrders);
  const size = Number(input.orderSize);
  const interval = Number(input.interval);
  const entry = Number(input.entryPrice);
  const leverage = input.leverage === undefined || input.leverage === '' ? 1 : Number(input.leverage);
  const sizeScale = input.sizeScale === undefined || input.sizeScale === '' ? 1 : Number(input.sizeScale);
  for (const v of [n, size, interval, entry, leverage]) {
    if (!Number.isFinite(v) || v <= 0) return null;
  }
  if (!Number.isFinite(sizeScale) || sizeScale < 1) return null;
  const count = Math.floor(n);
  const rung = { entryPrice: entry, interval, orderSize: size, spacing: input.spacing, sizeScale };
  if (!isSpecLadder(rung)) {
    if (count > LOOP_LIMIT) return null;
    let total = 0;
    for (let i = 0; i < count; i++) {
      const price = rules ? floorToStep(rungPrice(rung, i), rules.priceStep) : rungPrice(rung, i);
      const amount = rules ? floorToStep(rungSize(rung, i), rules.amountStep) : rungSize(rung, i);
      total += (amount * price) / leverage;
    }
    return roundMoney(total);
  }
  if (!rules) {
    if (count > LOOP_LIMIT) {
      // Σ size·(entry − i·interval) = size·(count·entry − interval·count·(count−1)/2)
      return roundMoney((size * (count * entry - (interval * count * (count - 1)) / 2)) / leverage);
    }
    let total = 0;
    for (let i = 0; i < count; i++) total += (size * (entry - i * interval)) / leverage;
    return roundMoney(total);
  }
  if (count > LOOP_LIMIT) return null;
  const amount = floorToStep(size, rules.amountStep);
  const levels: LadderLevel[] = [];
  for (let i = 0; i < count; i++) {
    levels.push({ index: i, price: floorToStep(entry - i * interval, rules.priceStep), amount });
  }
  return ladderCost(levels, leverage);
}

/** Σ amount · price ÷ leverage over a ladder (the engine's cost: the margin or balance it locks). */
export function ladderCost(ladder: readonly LadderLevel[], leverage = 1): number {
  let total = 0;
  for (const level of ladder) total += (level.amount * level.price) / leverage;
  return roundMoney(total);
}
