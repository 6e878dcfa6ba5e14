import { timingSafeEqual } from 'node:crypto';

/**
 * Whether a secret sent by a client (a header, a cookie) equals the expected one, in constant time.
 * The comparison is on bytes: a string of the right length whose characters take more bytes (a header
 * decoded as Latin-1 holds characters up to U+00FF, two bytes each in UTF-8) is simply not equal.
 * Comparing `string.length` and then `timingSafeEqual` on the UTF-8 buffers threw on it (issue 28: a
 * 500 for an X-CSRF-Token with a non-ASCII character).
 */
export function sameSecret(sent: string | undefined | null, expected: string | undefined | null): boolean {
  if (typeof sent !== 'string' || typeof expected !== 'string' || expected === '') return false;
  const a = Buffer.from(sent, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
