/**
 * Range setup (issue 32): a grid given as a price range — lower and upper price and a number of levels,
 * arithmetic (equal price steps) or geometric (equal ratios) — is the same bot as the one given by its
 * ladder fields. This maps one to the other and back; nothing else is stored or traded differently.
 *
 *  - arithmetic: entryPrice = upper, numOfOrders = levels, spacing 'absolute',
 *    interval = (upper − lower) ÷ (levels − 1), rounded DOWN to the market's price step;
 *  - geometric: entryPrice = upper, numOfOrders = levels, spacing 'percent',
 *    interval % = (1 − (lower ÷ upper)^(1 ÷ (levels − 1))) × 100, rounded DOWN to PERCENT_DECIMALS,
 *    the ratio that puts the last rung at lower.
 *
 * The upper price is rounded DOWN to the price step (the entry, like every rung, is a price the market
 * takes), and the interval is computed from that entry. Rounding down keeps every rung inside the range:
 * the last rung is at or above `lower` (the ladder floors each rung's price to the step: ladder.ts), and
 * at most a few steps above it. Pure: shared by the server (bot.rules.ts) and the dashboard's form.
 *
 * A short grid (direction 'short', direction.ts) sells from the bottom of the range up: entryPrice =
 * lower rounded UP to the step, each rung above the previous (arithmetic: + interval; geometric:
 * × (1 + interval %), interval % = ((upper ÷ entry)^(1 ÷ (levels − 1)) − 1) × 100), intervals rounded DOWN
 * and rungs rounded UP (the short ladder ceils prices: ladder.ts), so the last rung is at or below `upper`.
 */
import { ceilToStep, floorToStep } from './decimal';
import type { Direction } from './direction';
import { rungPrice } from './spacing';
import type { Spacing } from './grid.types';

export type RangeKind = 'arithmetic' | 'geometric';
export const RANGE_KINDS: readonly RangeKind[] = ['arithmetic', 'geometric'];

export interface RangeSetup {
  lower: number;
  upper: number;
  /** Rungs of the ladder, the top one at upper and the last at (about) lower: a whole number ≥ 2. */
  levels: number;
  kind: RangeKind;
}

/** The ladder fields of a bot (grid.types.ts GridConfig) that a range sets. */
export interface RangeLadder {
  entryPrice: number;
  numOfOrders: number;
  interval: number;
  spacing: Spacing;
}

/** Decimals of a geometric interval (a percentage): 6 keeps it within the form's 10 characters (99.999999). */
export const PERCENT_DECIMALS = 6;

export type RangeField = 'lower' | 'upper' | 'levels' | 'kind';
export interface RangeProblem {
  field: RangeField;
  message: string;
}

const fmt = (x: number) => String(Number(x.toPrecision(12)));
const finitePositive = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x) && x > 0;

/** What is wrong with a range on its own (before the market's step), as field messages; empty when none. */
export function rangeProblems(r: Partial<RangeSetup>): RangeProblem[] {
  const out: RangeProblem[] = [];
  if (!finitePositive(r.lower)) out.push({ field: 'lower', message: 'lower must be a price greater than 0' });
  if (!finitePositive(r.upper)) out.push({ field: 'upper', message: 'upper must be a price greater than 0' });
  else if (finitePositive(r.lower) && !(r.upper > r.lower)) out.push({ field: 'upper', message: 'upper must be above lower' });
  if (!(typeof r.levels === 'number' && Number.isInteger(r.levels) && r.levels >= 2)) out.push({ field: 'levels', message: 'levels must be a whole number of at least 2' });
  if (r.kind !== undefined && !RANGE_KINDS.includes(r.kind)) out.push({ field: 'kind', message: 'kind must be arithmetic or geometric' });
  return out;
}

export type RangeResult = { ok: true; ladder: RangeLadder } | { ok: false; problems: RangeProblem[] };

/**
 * The ladder fields of a range on a market whose prices are multiples of `priceStep`, or why the range
 * cannot be a ladder there (its own problems, or too narrow for its levels at that step: two rungs
 * would round to the same price).
 */
export function rangeToLadder(r: RangeSetup, priceStep: number, direction: Direction = 'long'): RangeResult {
  const problems = rangeProblems(r);
  if (problems.length) return { ok: false, problems };
  const short = direction === 'short';
  const entryPrice = short ? ceilToStep(r.lower, priceStep) : floorToStep(r.upper, priceStep);
  if (!short && !(entryPrice > r.lower)) {
    return { ok: false, problems: [{ field: 'upper', message: `upper rounds down to ${fmt(entryPrice)} at the market's price step of ${fmt(priceStep)}, not above lower` }] };
  }
  if (short && !(entryPrice < r.upper)) {
    return { ok: false, problems: [{ field: 'lower', message: `lower rounds up to ${fmt(entryPrice)} at the market's price step of ${fmt(priceStep)}, not below upper` }] };
  }
  const steps = r.levels - 1;
  const kind = r.kind ?? 'arithmetic';
  const far = short ? r.upper : r.lower;
  const ladder: RangeLadder =
    kind === 'geometric'
      ? {
          entryPrice,
          numOfOrders: r.levels,
          spacing: 'percent',
          interval: floorDecimals((short ? Math.pow(far / entryPrice, 1 / steps) - 1 : 1 - Math.pow(far / entryPrice, 1 / steps)) * 100, PERCENT_DECIMALS),
        }
      : { entryPrice, numOfOrders: r.levels, spacing: 'absolute', interval: floorToStep(Math.abs(far - entryPrice) / steps, priceStep) };
  // every rung a distinct price on the market (the ladder floors a long's rungs to the step, ceils a short's)
  const round = short ? ceilToStep : floorToStep;
  let previous = short ? -Infinity : Infinity;
  for (let i = 0; i < r.levels && ladder.interval > 0; i++) {
    const price = round(rungPrice({ ...ladder, direction }, i), priceStep);
    if (short ? !(price > previous) : !(price < previous)) break;
    previous = price;
    if (i === r.levels - 1) return { ok: true, ladder };
  }
  return {
    ok: false,
    problems: [{ field: 'levels', message: `The range ${fmt(r.lower)} to ${fmt(r.upper)} is too narrow for ${r.levels} levels at the market's price step of ${fmt(priceStep)}: choose fewer levels or a wider range` }],
  };
}

/**
 * A bot's range from its ladder fields: upper = the entry, lower = the last rung's price (floored to the
 * step, as the ladder places it), levels = the number of orders, the kind from the spacing. A range made
 * by rangeToLadder comes back as the same levels and kind, upper rounded to the step and lower at most the
 * rounding of the interval above the lower given.
 */
export function ladderToRange(g: { entryPrice: number; interval: number; numOfOrders: number; spacing?: Spacing; direction?: Direction }, priceStep: number): RangeSetup {
  const kind: RangeKind = g.spacing === 'percent' ? 'geometric' : 'arithmetic';
  if (g.direction === 'short') {
    return { lower: g.entryPrice, upper: ceilToStep(rungPrice(g, g.numOfOrders - 1), priceStep), levels: g.numOfOrders, kind };
  }
  return { upper: g.entryPrice, lower: floorToStep(rungPrice(g, g.numOfOrders - 1), priceStep), levels: g.numOfOrders, kind };
}

/** x rounded DOWN to `decimals` (float noise forgiven, as floorToStep does). */
function floorDecimals(x: number, decimals: number): number {
  return floorToStep(x, Number(`1e-${decimals}`));
}
