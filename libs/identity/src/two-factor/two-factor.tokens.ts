import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { SignInMethod } from '../domain/user.events';

/**
 * The two signed cookies of two-factor sign-in (issue 30). Both are HMAC-SHA-256 under keys derived from
 * the master key, httpOnly, and carry no secret: forging or changing one fails its MAC.
 *
 * - Pending sign-in (`gr_2fa_pending`, 5 minutes): the password (or Google/Facebook) was right and a
 *   code is needed. It is no session: the session guard never reads it, so it opens nothing but the code
 *   step. It names the account, the method and a digest of the password hash it was checked against
 *   (a password changed meanwhile voids it).
 * - Remembered browser (`gr_2fa_browser`, 30 days): lets this browser skip the code for this account,
 *   for as long as the enrolment it was given under is the account's (turning 2FA off and on voids it).
 */
export const PENDING_COOKIE = 'gr_2fa_pending';
export const REMEMBER_COOKIE = 'gr_2fa_browser';
export const PENDING_TTL_MS = 5 * 60_000;
export const REMEMBER_DAYS = 30;

export interface PendingSignIn {
  uid: string;
  method: SignInMethod;
  /** SHA-256 of the sealed password hash checked ('' for Google/Facebook). */
  passwordDigest: string;
  expiresAt: number;
  /** Random: the sign-in it completes records it, so the cookie completes no second one (issue 38). */
  id: string;
}

const METHODS: SignInMethod[] = ['password', 'google', 'facebook'];

export function passwordDigest(sealedHash: string | null): string {
  return sealedHash ? createHash('sha256').update(sealedHash).digest('base64url') : '';
}

function mac(key: Buffer, payload: string): string {
  return createHmac('sha256', key).update(payload).digest('base64url');
}

function macOk(key: Buffer, payload: string, given: string): boolean {
  const expected = Buffer.from(mac(key, payload));
  const g = Buffer.from(given);
  return g.length === expected.length && timingSafeEqual(g, expected);
}

export function signPending(key: Buffer, p: PendingSignIn): string {
  const payload = `${p.uid}.${p.method}.${p.passwordDigest}.${p.expiresAt}.${p.id}`;
  return `${payload}.${mac(key, `pending|${payload}`)}`;
}

/** The pending sign-in of a cookie, or null when it is absent, forged, malformed or expired. */
export function readPending(key: Buffer, cookie: string | undefined, now: number): PendingSignIn | null {
  if (!cookie || cookie.length > 400) return null;
  const m = /^([A-Za-z0-9_-]{1,100})\.(password|google|facebook)\.([A-Za-z0-9_-]{0,64})\.(\d{1,15})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/.exec(cookie);
  if (!m) return null;
  const [, uid, method, digest, exp, id, given] = m;
  if (!macOk(key, `pending|${uid}.${method}.${digest}.${exp}.${id}`, given)) return null;
  const expiresAt = Number(exp);
  if (expiresAt <= now || !METHODS.includes(method as SignInMethod)) return null;
  return { uid, method: method as SignInMethod, passwordDigest: digest, expiresAt, id };
}

export function signRemembered(key: Buffer, uid: string, enrolmentId: string, expiresAt: number): string {
  return `${enrolmentId}.${expiresAt}.${mac(key, `browser|${uid}|${enrolmentId}|${expiresAt}`)}`;
}

/** The enrolment a remembered-browser cookie vouches for this account, and when it was given (ms), or null. */
export function readRemembered(key: Buffer, cookie: string | undefined, uid: string, now: number): { enrolmentId: string; issuedAt: number } | null {
  if (!cookie || cookie.length > 200) return null;
  const m = /^([0-9a-f-]{36})\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(cookie);
  if (!m) return null;
  const [, enrolmentId, exp, given] = m;
  if (!macOk(key, `browser|${uid}|${enrolmentId}|${exp}`, given) || Number(exp) <= now) return null;
  return { enrolmentId, issuedAt: Number(exp) - REMEMBER_DAYS * 86_400_000 };
}
