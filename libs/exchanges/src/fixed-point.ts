/**
 * Exact money arithmetic for the paper exchange: every price, amount and balance is an integer count
 * of 1e-8 units (a "unit"), held in a JS number (exact below 2^53, i.e. up to ~90 million whole
 * coins). Products go through BigInt and are rounded half away from zero, deterministically.
 */
export const DECIMALS = 8;
export const SCALE = 100_000_000;
const SCALE_N = 100_000_000n;

/** Exact parse of a decimal string ('95000.12', '1e-3' not accepted) into units. */
export function parseUnits(text: string): number {
  const s = text.trim();
  const m = /^(-)?(\d+)(?:\.(\d+))?$/.exec(s);
  if (!m) throw new Error(`not a decimal number: ${JSON.stringify(s.slice(0, 30))}`);
  const frac = (m[3] ?? '').padEnd(DECIMALS, '0');
  if (frac.length > DECIMALS && /[1-9]/.test(frac.slice(DECIMALS))) {
    throw new Error(`more than ${DECIMALS} decimals: ${s}`);
  }
  const v = BigInt(m[2]) * SCALE_N + BigInt(frac.slice(0, DECIMALS));
  const n = Number(m[1] ? -v : v);
  if (!Number.isSafeInteger(n)) throw new Error(`number out of range: ${s}`);
  return n;
}

/** A JS number (e.g. 0.1 + 0.2) to the nearest unit. */
export function toUnits(value: number): number {
  if (!Number.isFinite(value)) throw new Error('not a finite number');
  // Values carry at most 8 decimals and stay below 2^53 units, so the float product is within
  // far less than half a unit of the intended integer.
  const n = Math.round(value * SCALE);
  if (!Number.isSafeInteger(n)) throw new Error('number out of range');
  return n;
}

export function fromUnits(units: number): number {
  return units / SCALE;
}

/** round(a × b ÷ d), half away from zero, exact. */
export function mulDiv(a: number, b: number, d: number): number {
  const num = BigInt(a) * BigInt(b);
  const den = BigInt(d);
  const neg = num < 0n !== den < 0n;
  const an = num < 0n ? -num : num;
  const ad = den < 0n ? -den : den;
  const q = (an * 2n + ad) / (2n * ad);
  return Number(neg ? -q : q);
}

/** Quote value of `amount` base units at `price`, both in units. */
export function notionalUnits(price: number, amount: number): number {
  return mulDiv(price, amount, SCALE);
}

/** Fee on a notional at a rate in basis points. */
export function feeUnits(notional: number, feeBps: number): number {
  return mulDiv(notional, feeBps, 10_000);
}

export function isMultipleOf(value: number, step: number): boolean {
  return step > 0 && value % step === 0;
}
