import { COMMON_PASSWORDS_TEXT } from './common-passwords.data';

/** The field message on `password` when a new password is one of the most common. */
export const COMMON_PASSWORD = 'This password is too common. Choose another.';

let list: Set<string> | null = null;

/** The bundled list (common-passwords.data.ts), read into a set on first use. */
function commonPasswords(): Set<string> {
  list ??= new Set(COMMON_PASSWORDS_TEXT.split('\n'));
  return list;
}

/** How many passwords the bundled list holds. */
export function commonPasswordCount(): number {
  return commonPasswords().size;
}

/**
 * Whether a password is one of the most common (compared in lower case, as attackers' lists try every
 * casing: "Password1" is as weak as "password1"), or a pattern the list leaves out by design: its
 * generator drops what zxcvbn's pattern rules guess sooner than the password's rank (zxcvbn-ts
 * data-scripts/_generators/PasswordGenerator.ts, `shouldInclude`), so "aaaaaaaa", "00000000",
 * "12341234", "abcdefgh" and "87654321" are not in it; they are refused here as repeats and sequences.
 * Offline: nothing leaves the process.
 */
export function isCommonPassword(password: string): boolean {
  const p = password.toLowerCase();
  return commonPasswords().has(p) || isRepeat(p) || isSequence(p);
}

/** A unit of 1 to 4 characters repeated ("aaaaaaaa", "12341234", "abcabcab"). */
function isRepeat(p: string): boolean {
  for (let unit = 1; unit <= 4 && unit * 2 <= p.length; unit++) {
    let same = true;
    for (let i = unit; i < p.length && same; i++) same = p[i] === p[i - unit];
    if (same) return true;
  }
  return false;
}

/** Letters or digits that step by one, up or down ("abcdefgh", "87654321", "3456789012" is not: it wraps). */
function isSequence(p: string): boolean {
  if (p.length < 2 || !/^([a-z]+|[0-9]+)$/.test(p)) return false;
  const step = p.charCodeAt(1) - p.charCodeAt(0);
  if (step !== 1 && step !== -1) return false;
  for (let i = 2; i < p.length; i++) if (p.charCodeAt(i) - p.charCodeAt(i - 1) !== step) return false;
  return true;
}
