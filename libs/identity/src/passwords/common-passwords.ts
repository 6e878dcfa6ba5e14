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
 * casing: "Password1" is as weak as "password1"). Offline: nothing leaves the process.
 */
export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.toLowerCase());
}
