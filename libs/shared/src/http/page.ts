import { ValidationError } from '../errors';

/** A paginated list's `limit` (1 to 100, default 50) and `offset` (from 0) from the query string; a bad value is a 400 naming it. */
export function pageOf(query: Record<string, unknown>): { limit: number; offset: number } {
  const num = (v: unknown, field: string, min: number, max: number, fallback: number) => {
    if (v === undefined || v === '') return fallback;
    const n = typeof v === 'string' && /^[0-9]{1,9}$/.test(v) ? Number(v) : NaN;
    if (!Number.isInteger(n) || n < min || n > max) throw new ValidationError([{ field, message: `${field} must be a whole number from ${min} to ${max}` }]);
    return n;
  };
  return { limit: num(query.limit, 'limit', 1, 100, 50), offset: num(query.offset, 'offset', 0, 999_999_999, 0) };
}
