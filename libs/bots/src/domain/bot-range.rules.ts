/**
 * Range setup in a create or edit body (issue 32, docs/range-and-templates.md). A body may give the
 * ladder as a range — `lower`, `upper`, `levels`, `kind` ('arithmetic', the default, or 'geometric') —
 * instead of `entryPrice`, `interval`, `numOfOrders` and `spacing`. The server converts it with the grid
 * engine's one function (libs/trading/src/grid/range.ts) at the market's price step and stores the ladder
 * fields: a range bot is the same bot, and its range is read back from them (ladderToRange).
 *
 * Pure (no I/O): the caller passes the market's price step; without one (the market could not be asked)
 * the conversion rounds to MAX_DECIMALS, and the runner checks the grid against the market before it
 * places anything, as for any bot.
 */
import { z } from 'zod';
import { FieldError, ValidationError } from '@gridrocket/shared';
import { RANGE_KINDS, rangeToLadder, type RangeKind, type RangeLadder } from '@gridrocket/trading/grid';

export const RANGE_FIELDS = ['lower', 'upper', 'levels', 'kind'] as const;
/** The ladder fields a range sets: a body gives one or the other. */
export const RANGE_SETS = ['entryPrice', 'interval', 'numOfOrders', 'spacing'] as const;

/** The rounding used when the market's price step is not known (8 decimals: bot.rules.ts MAX_DECIMALS). */
export const UNKNOWN_PRICE_STEP = 0.00000001;

const given = (v: unknown) => v !== undefined && v !== null && v !== '';

/** The body gives a range (any of lower, upper, levels). */
export function hasRange(input: unknown): boolean {
  if (!input || typeof input !== 'object') return false;
  const o = input as Record<string, unknown>;
  return given(o.lower) || given(o.upper) || given(o.levels);
}

const number = (field: 'lower' | 'upper' | 'levels') =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z.number({ required_error: `${field} is required`, invalid_type_error: `${field} must be a number` }).refine(Number.isFinite, `${field} must be a number`),
  );

export const rangeSchema = z.object({
  lower: number('lower'),
  upper: number('upper'),
  levels: number('levels'),
  kind: z.preprocess(
    (v) => (given(v) ? v : undefined),
    z.enum(RANGE_KINDS as [RangeKind, ...RangeKind[]], { errorMap: () => ({ message: 'kind must be arithmetic or geometric' }) }).default('arithmetic'),
  ),
});

/**
 * The body with its range replaced by the ladder fields at `priceStep`, or the body as it is when it
 * gives no range. Throws the range's field messages (lower, upper, levels, kind).
 */
export function withRange(input: unknown, priceStep: number = UNKNOWN_PRICE_STEP, maxLevels = Infinity): unknown {
  if (!hasRange(input)) return input;
  const o = input as Record<string, unknown>;
  const errors: FieldError[] = RANGE_SETS.filter((f) => given(o[f])).map((f) => ({ field: f, message: `${f} cannot be given with a range (lower, upper, levels): the range sets it` }));
  const parsed = rangeSchema.safeParse(o);
  if (!parsed.success) errors.push(...parsed.error.issues.map((i) => ({ field: i.path.join('.') || 'body', message: i.message })));
  if (parsed.success && parsed.data.levels > maxLevels) errors.push({ field: 'levels', message: `levels must be at most ${maxLevels}` });
  if (errors.length || !parsed.success) throw new ValidationError(errors);
  // a short grid (issue 32) sells from the range's bottom up: its entry is the lower price
  const result = rangeToLadder(parsed.data, priceStep, o.direction === 'short' ? 'short' : 'long');
  if (!result.ok) throw new ValidationError(result.problems);
  const rest = { ...o };
  for (const f of RANGE_FIELDS) delete rest[f];
  return { ...rest, ...result.ladder } satisfies Record<string, unknown> & RangeLadder;
}

/** Where a message about a ladder field set by a range belongs: the range field the trader typed. */
const RANGE_FIELD_OF: Record<(typeof RANGE_SETS)[number], (typeof RANGE_FIELDS)[number]> = {
  entryPrice: 'upper', // a short grid's entry is its lower price; the message names the entry it made
  numOfOrders: 'levels',
  interval: 'levels',
  spacing: 'kind',
};

/**
 * The messages of a ranged body's checks in the range's terms: a message about entryPrice is shown on
 * upper, about numOfOrders or the interval on levels (the interval follows from the range and levels),
 * with the ladder value named so the trader sees what the range made.
 */
export function inRangeTerms(errors: readonly FieldError[], ladder?: Partial<RangeLadder>): FieldError[] {
  return errors.map((e) => {
    const field = e.field.split('.')[0] as (typeof RANGE_SETS)[number];
    const to = RANGE_FIELD_OF[field];
    if (!to) return e;
    const value = ladder?.[field];
    const made = value !== undefined ? ` (the range makes ${field} ${String(value)})` : '';
    return { field: to, message: `${e.message}${made}` };
  });
}

/** withRange, then `check` on the ladder body; the check's messages about the ladder fields come back in the range's terms. */
export function checkedInRangeTerms<T>(input: unknown, priceStep: number | undefined, maxLevels: number, check: (body: unknown) => T): T {
  const body = withRange(input, priceStep, maxLevels);
  try {
    return check(body);
  } catch (err) {
    if (body !== input && err instanceof ValidationError) throw new ValidationError(inRangeTerms(err.errors, body as Partial<RangeLadder>));
    throw err;
  }
}
