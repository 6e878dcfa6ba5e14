/**
 * Two-factor sign-in events, in the user's stream `user-<uid>` (issue 30). The TOTP secret appears only
 * sealed with the master key (AES-256-GCM, bound to the user and the enrolment); recovery codes only as
 * keyed digests (HMAC-SHA-256 under a key derived from the master key).
 */
export type TwoFactorPurpose = 'sign-in' | 'sensitive-action' | 'disable';

export type TwoFactorEvent =
  /** A secret was made and shown; 2FA is not on until a code from it is confirmed. A newer start replaces it. */
  | { type: 'TwoFactorEnrolmentStarted'; data: { enrolmentId: string; sealedSecret: string } }
  /** Confirmed with a code from the new secret (`step`: its time step, used from now on). */
  | { type: 'TwoFactorEnabled'; data: { enrolmentId: string; step: number; recoveryCodeDigests: string[] } }
  /** A code was accepted: its time step and every earlier one can no longer be used. */
  | { type: 'TwoFactorCodeUsed'; data: { step: number; purpose: TwoFactorPurpose } }
  /** A recovery code was used; it no longer works. */
  | { type: 'TwoFactorRecoveryCodeUsed'; data: { digest: string; purpose: TwoFactorPurpose } }
  | { type: 'TwoFactorDisabled'; data: { enrolmentId: string; method: 'code' | 'recovery-code' | 'account-claimed' } }
  /** A wrong code or recovery code was given (issue 38: remembered for a day, so the guessing budget does not refill). */
  | { type: 'TwoFactorCodeFailed'; data: { at: number; purpose: TwoFactorPurpose } }
  /** Too many wrong codes in a day: no code is taken until `until` (ms); the owner is mailed. */
  | { type: 'TwoFactorCodeStepLocked'; data: { until: number; failures: number } }
  /** Every browser remembered before `at` (ms) must give a code again (issue 38: sign out everywhere, a new password). */
  | { type: 'TwoFactorBrowsersForgotten'; data: { at: number; reason: 'signed-out-everywhere' | 'password-changed' } };

export type TwoFactorEventType = TwoFactorEvent['type'];

export const TWO_FACTOR_EVENT_TYPES: TwoFactorEventType[] = [
  'TwoFactorEnrolmentStarted',
  'TwoFactorEnabled',
  'TwoFactorCodeUsed',
  'TwoFactorRecoveryCodeUsed',
  'TwoFactorDisabled',
  'TwoFactorCodeFailed',
  'TwoFactorCodeStepLocked',
  'TwoFactorBrowsersForgotten',
];
