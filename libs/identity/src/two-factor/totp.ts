import { randomBytes, timingSafeEqual } from 'node:crypto';
import { HOTP, Secret, TOTP } from 'otpauth';

/**
 * Time-based one-time passwords, RFC 6238 (TOTP) over RFC 4226 (HOTP), HMAC-SHA-1, 6 digits, 30 s
 * steps: the parameters every authenticator app (Google Authenticator, Authy, 1Password, Aegis …)
 * uses by default. Pure: no clock, no I/O (the caller passes the time).
 *
 * The algorithm and the base32 and otpauth:// encodings are the maintained `otpauth` library's (its
 * Node build uses node:crypto); this module fixes the parameters, the window and the time steps, and is
 * checked against the RFCs' published test vectors (totp.spec.ts).
 *   RFC 4226 §5.3 (HOTP, dynamic truncation): https://www.rfc-editor.org/rfc/rfc4226#section-5.3
 *   RFC 6238 §4 (TOTP, T = floor((now − T0) / X)): https://www.rfc-editor.org/rfc/rfc6238#section-4
 *   RFC 6238 §5.2 (accept at most one step of drift back and forth): https://www.rfc-editor.org/rfc/rfc6238#section-5.2
 *   RFC 4648 §6 (base32, how secrets are shown): https://www.rfc-editor.org/rfc/rfc4648#section-6
 *   Key URI format (otpauth://totp/...): https://github.com/google/google-authenticator/wiki/Key-Uri-Format
 */

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps accepted either side of now (RFC 6238 §5.2: clocks drift and a code takes time to type). */
export const TOTP_WINDOW = 1;
/** 160 bits: RFC 4226 §4 R6 asks for at least 128 and recommends 160. */
export const TOTP_SECRET_BYTES = 20;

const secretOf = (bytes: Buffer): Secret => new Secret({ buffer: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer });

/** RFC 4648 base32 without padding (authenticator apps take it so). */
export function base32Encode(bytes: Buffer): string {
  return secretOf(bytes).base32.replace(/=+$/, '');
}

/** Decodes base32 (case, spaces and padding ignored); null when a character is not base32. */
export function base32Decode(text: string): Buffer | null {
  const clean = text.replace(/[\s=-]/g, '').toUpperCase();
  if (!/^[A-Z2-7]*$/.test(clean)) return null;
  try {
    return Buffer.from(Secret.fromBase32(clean).bytes);
  } catch {
    return null;
  }
}

/** A fresh secret (clear: the caller seals it at once). */
export function newTotpSecret(): Buffer {
  return randomBytes(TOTP_SECRET_BYTES);
}

/** HOTP(K, C) of RFC 4226 §5.3: HMAC-SHA-1 over the 8-byte counter, dynamic truncation, mod 10^digits. */
export function hotp(secret: Buffer, counter: number, digits = TOTP_DIGITS): string {
  return HOTP.generate({ secret: secretOf(secret), algorithm: 'SHA1', digits, counter });
}

/** The time step T of RFC 6238 §4 at `nowMs` (T0 = 0). */
export function totpStep(nowMs: number, period = TOTP_PERIOD_SECONDS): number {
  return Math.floor(nowMs / 1000 / period);
}

/** The code for the time `nowMs`. */
export function totpAt(secret: Buffer, nowMs: number, digits = TOTP_DIGITS): string {
  return hotp(secret, totpStep(nowMs), digits);
}

/** What a typed code may look like: 6 digits, spaces allowed ("123 456" as apps show it). */
export function normalizeTotpCode(code: string): string | null {
  const c = code.replace(/\s/g, '');
  return /^\d{6}$/.test(c) ? c : null;
}

/**
 * The time steps within the window around `nowMs` whose code is `code` (usually none or one). Which of
 * them may still be used (not replayed) is the decider's call: it knows the last step used.
 */
export function matchingSteps(secret: Buffer, code: string, nowMs: number, window = TOTP_WINDOW): number[] {
  const typed = normalizeTotpCode(code);
  if (!typed) return [];
  const now = totpStep(nowMs);
  const steps: number[] = [];
  for (let s = now - window; s <= now + window; s++) {
    if (timingSafeEqual(Buffer.from(hotp(secret, s)), Buffer.from(typed))) steps.push(s);
  }
  return steps;
}

/** The otpauth:// URI an authenticator app reads from the QR code (Key Uri Format). */
export function otpauthUri(secretBase32: string, account: string, issuer = 'GridRocket'): string {
  return new TOTP({ issuer, label: account, secret: Secret.fromBase32(secretBase32), algorithm: 'SHA1', digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS }).toString();
}

// ---- recovery codes -----------------------------------------------------------------------------

export const RECOVERY_CODE_COUNT = 10;

/**
 * Ten one-time recovery codes, each 80 random bits shown as 16 base32 letters in groups of four
 * (`abcd-efgh-ijkl-mnop`). High entropy, so a keyed digest (HMAC-SHA-256) is enough to store them: no
 * slow hash is needed against guessing, as it is for passwords a person chooses.
 */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () =>
    base32Encode(randomBytes(10))
      .toLowerCase()
      .match(/.{4}/g)!
      .join('-'),
  );
}

/** A typed recovery code in its canonical form (case, spaces and dashes ignored); null when it cannot be one. */
export function normalizeRecoveryCode(code: string): string | null {
  const c = code.replace(/[\s-]/g, '').toLowerCase();
  return /^[a-z2-7]{16}$/.test(c) ? c : null;
}
