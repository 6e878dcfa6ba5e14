/**
 * Money and quantity helpers for the grid engine, in one place.
 *
 * The engine works in plain numbers (exchange APIs and ccxt hand us numbers), but every result that
 * reaches an exchange or a user is snapped to a market step or to a fixed number of decimals here.
 * Two float artefacts are handled:
 *  - the quotient x / step is a hair off an integer (0.3 / 0.1 = 2.9999999999999996): a quotient within
 *    1e-9 of an integer (plus a relative 1e-13 for large quotients, at most 1/1000 of a step) is taken
 *    as that integer, so
 *    floorToStep(0.3, 0.1) is 0.3, not 0.2, and ceilToStep(0.1 + 0.2, 0.1) is 0.3, not 0.4;
 *  - the product k × step is a hair off the decimal (3 × 0.1 = 0.30000000000000004): the result is
 *    built as the exact integer k × (step in its own decimals) divided by a power of ten, which gives
 *    the float nearest to the decimal.
 * Pure functions, no dependencies.
 */

const SNAP_ABS = 1e-9;
const SNAP_REL = 1e-13;
const SNAP_MAX = 1e-3;

/** How far (in steps) a quotient may be off an integer and still be that integer: float noise only. */
function tolerance(q: number): number {
  return Math.min(SNAP_MAX, SNAP_ABS + Math.abs(q) * SNAP_REL);
}

/** Number of decimals in a step's shortest decimal form: 0.001 → 3, 1e-8 → 8, 0.05 → 2, 5 → 0. */
export function decimalsOf(step: number): number {
  if (!Number.isFinite(step)) throw new RangeError(`Not a finite number: ${step}`);
  const m = /^-?\d+(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(step));
  if (!m) throw new RangeError(`Cannot read the decimals of ${step}`);
  const frac = m[1] ? m[1].length : 0;
  const exp = m[2] ? Number(m[2]) : 0;
  return Math.max(0, frac - exp);
}

function assertStep(step: number): void {
  if (!Number.isFinite(step) || step <= 0) throw new RangeError(`A step must be a number above 0, got ${step}`);
}

/** The quotient x / step snapped to an integer when it is within float noise of one. */
function snappedQuotient(x: number, step: number): { q: number; whole: number | null } {
  const q = x / step;
  const n = Math.round(q);
  return { q, whole: Math.abs(q - n) <= tolerance(q) ? n : null };
}

/** k × step as the float nearest to the exact decimal. */
export function fromSteps(k: number, step: number): number {
  if (k === 0) return 0;
  const d = decimalsOf(step);
  const scale = 10 ** d;
  const stepUnits = Math.round(step * scale); // exact: step has d decimals
  const units = k * stepUnits;
  if (Number.isSafeInteger(units) && d <= 22) return units / scale;
  // Beyond the exact range: let the decimal parser round once.
  return Number(`${BigInt(Math.round(k)) * BigInt(stepUnits)}e-${d}`);
}

/** The largest multiple of `step` that is ≤ x (float noise forgiven). */
export function floorToStep(x: number, step: number): number {
  assertStep(step);
  const { q, whole } = snappedQuotient(x, step);
  return fromSteps(whole ?? Math.floor(q), step);
}

/** The smallest multiple of `step` that is ≥ x (float noise forgiven). */
export function ceilToStep(x: number, step: number): number {
  assertStep(step);
  const { q, whole } = snappedQuotient(x, step);
  return fromSteps(whole ?? Math.ceil(q), step);
}

/** The nearest multiple of `step`; halves (within float noise) go away from zero. */
export function roundToStep(x: number, step: number): number {
  assertStep(step);
  const { q, whole } = snappedQuotient(x, step);
  if (whole !== null) return fromSteps(whole, step);
  const lower = Math.floor(q);
  const frac = q - lower;
  const tol = tolerance(q);
  let k: number;
  if (Math.abs(frac - 0.5) <= tol) k = q >= 0 ? lower + 1 : lower; // a half: away from zero
  else k = frac > 0.5 ? lower + 1 : lower;
  return fromSteps(k, step);
}

/** x rounded to `decimals` places, halves away from zero: roundTo(1.005, 2) = 1.01. */
export function roundTo(x: number, decimals: number): number {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 20) {
    throw new RangeError(`decimals must be an integer 0…20, got ${decimals}`);
  }
  return roundToStep(x, Number(`1e-${decimals}`));
}

/** Profit, fees and costs are kept to 1e-8 (the smallest unit exchanges report in quote). */
export const MONEY_DECIMALS = 8;
export function roundMoney(x: number): number {
  const r = roundTo(x, MONEY_DECIMALS);
  return r === 0 ? 0 : r; // no -0
}

/** True when x is a whole number of steps (float noise forgiven). */
export function isMultipleOfStep(x: number, step: number): boolean {
  assertStep(step);
  return snappedQuotient(x, step).whole !== null;
}

/**
 * Quantity arithmetic without float residue: a sum or difference is rounded to 15 significant digits
 * of its larger operand (what a double holds reliably), so a position bought as 0.1 + 0.2 and sold as
 * 0.3 is exactly flat, and 0.068 − 0.059 is 0.009, not 0.009000000000000008.
 */
export function cleanNumber(x: number): number {
  if (x === 0 || !Number.isFinite(x)) return x === 0 ? 0 : x;
  return Number(x.toPrecision(15));
}
export function addClean(a: number, b: number): number {
  return subClean(a, -b);
}
export function subClean(a: number, b: number): number {
  const r = a - b;
  const magnitude = Math.max(Math.abs(a), Math.abs(b));
  if (r === 0 || magnitude === 0 || !Number.isFinite(r)) return r === 0 ? 0 : r;
  const decimals = 14 - Math.floor(Math.log10(magnitude));
  if (decimals < 0) return cleanNumber(r);
  const rounded = decimals > 20 ? cleanNumber(r) : roundTo(r, decimals);
  return rounded === 0 ? 0 : rounded;
}
