import { AppError, ConflictError, FieldError } from '@gridrocket/shared';
import type { SignInMethod } from '../domain/user.events';
import type { TwoFactorEvent, TwoFactorPurpose } from './two-factor.events';

/**
 * The pure rules of two-factor sign-in (issue 30), part of the user decider: the user's stream decides
 * whether a code may still be used, so two requests with the same code cannot both pass (the second is
 * decided on the revision the first appended).
 */
export interface TwoFactorState {
  enabled: boolean;
  /** The enabled enrolment (remembered browsers are bound to it). */
  enrolmentId: string | null;
  sealedSecret: string | null;
  /** Started, not yet confirmed. */
  pending: { enrolmentId: string; sealedSecret: string } | null;
  /** The last time step whose code was accepted: it and every earlier one are refused (no replay). */
  lastUsedStep: number;
  /** Digests of the recovery codes not used yet. */
  recoveryCodes: string[];
  /** When wrong codes were given in the last day (ms, oldest first; issue 38). */
  failures: number[];
  /** No code is taken before this (ms; 0: not locked). */
  lockedUntil: number;
  /** Browsers remembered at or before this (ms) count for nothing (null: none forgotten). */
  browsersForgottenAt: number | null;
}

/** Wrong codes an account may be given in a day before its code step locks for the rest of that day (issue 38). */
export const CODE_FAILURES_PER_DAY = 20;
export const CODE_FAILURE_MEMORY_MS = 24 * 3_600_000;

/** Until when the code step is locked at `now`, or 0. */
export function codeStepLockedUntil(tf: TwoFactorState, now: number): number {
  return tf.lockedUntil > now ? tf.lockedUntil : 0;
}

export const initialTwoFactorState: TwoFactorState = {
  enabled: false,
  enrolmentId: null,
  sealedSecret: null,
  pending: null,
  lastUsedStep: -1,
  recoveryCodes: [],
  failures: [],
  lockedUntil: 0,
  browsersForgottenAt: null,
};

/**
 * What proves the second factor, as the application found it:
 * - `totp`: the steps around now at which the typed code matches the secret of `enrolmentId` (none: wrong);
 * - `recovery-code`: the keyed digest of a typed recovery code;
 * - `remembered-browser`: a valid signed cookie of this browser for the enrolment `enrolmentId`.
 */
export type SecondFactorProof =
  | { kind: 'totp'; enrolmentId: string; steps: number[] }
  | { kind: 'recovery-code'; digest: string }
  | { kind: 'remembered-browser'; enrolmentId: string; issuedAt?: number };

/** Whether a remembered browser's proof still counts: its enrolment, and remembered after the last "forget" (issue 38). */
export function rememberedBrowserValid(tf: TwoFactorState, proof: { enrolmentId: string; issuedAt?: number }): boolean {
  if (proof.enrolmentId !== tf.enrolmentId) return false;
  if (tf.browsersForgottenAt === null) return true;
  return proof.issuedAt !== undefined && proof.issuedAt > tf.browsersForgottenAt;
}

export type TwoFactorCommand =
  | { type: 'StartTwoFactorEnrolment'; enrolmentId: string; sealedSecret: string }
  /** `steps`: where the confirming code matched the pending secret of `enrolmentId`. */
  | { type: 'EnableTwoFactor'; enrolmentId: string; steps: number[]; recoveryCodeDigests: string[]; /** the session that enables it stays; every other ends (issue 38) */ keepSession?: string; now?: string }
  | { type: 'DisableTwoFactor'; proof: SecondFactorProof | null }
  /** A sensitive action (add or delete a key, change alert channels) asks for a fresh code when 2FA is on. */
  | { type: 'ConfirmSensitiveAction'; proof: SecondFactorProof | null }
  /** A wrong code was given (issue 38): remembered for a day; the CODE_FAILURES_PER_DAY-th locks the code step. */
  | { type: 'RecordTwoFactorFailure'; purpose: TwoFactorPurpose; now: number }
  /** Every browser remembered until now must give a code again (issue 38). */
  | { type: 'ForgetRememberedBrowsers'; reason: 'signed-out-everywhere' | 'password-changed'; now: number };

export const ALREADY_ENABLED = 'Two-factor sign-in is already on';
export const NOT_ENABLED = 'Two-factor sign-in is not on';
export const ENROLMENT_GONE = 'This setup was replaced or has ended; start the setup again';
export const CODE_NEEDED = 'Enter the 6-digit code from your authenticator app';
export const FRESH_CODE_NEEDED = 'Two-factor sign-in is on: enter a current code from your authenticator app to confirm this';
export const WRONG_CODE = 'That code is not right. Check the time on your phone and enter the code now shown';
export const CODE_REPLAYED = 'That code was already used. Wait for the next code in your authenticator app';
export const WRONG_RECOVERY_CODE = 'That recovery code is not right or was already used';
export const RECOVERY_NOT_HERE = 'Enter a current code from your authenticator app (a recovery code is for signing in or turning two-factor off)';

/** A code was missing, wrong or replayed: 401 at the sign-in step, 403 elsewhere; the field tells the page which box. */
export class TwoFactorCodeError extends AppError {
  readonly errors: FieldError[];
  constructor(
    readonly status: 401 | 403,
    message: string,
    field: 'code' | 'recoveryCode' | 'totp' = 'code',
  ) {
    super(message);
    this.name = 'TwoFactorCodeError';
    this.errors = [{ field, message }];
  }
}

/**
 * The password (or Google/Facebook) was right but the account has 2FA on and no second factor came with
 * the sign-in. The application answers "code needed" and keeps a pending half-session; uncaught, it is
 * a plain 401 (no session is made either way).
 */
export class SecondFactorNeededError extends AppError {
  readonly status = 401;
  constructor(
    readonly uid: string,
    readonly method: SignInMethod,
    readonly checkedPasswordHash: string | null,
  ) {
    super(CODE_NEEDED);
    this.name = 'SecondFactorNeededError';
  }
}

/**
 * The events that accept `proof` for `purpose` on an account with 2FA on, or the refusal.
 * `status`: 401 at the sign-in step, 403 for an action of a signed-in user.
 */
export function acceptProof(
  tf: TwoFactorState,
  proof: SecondFactorProof | null,
  purpose: TwoFactorPurpose,
  status: 401 | 403,
): TwoFactorEvent[] {
  const field = purpose === 'sensitive-action' ? 'totp' : 'code';
  if (!proof) throw new TwoFactorCodeError(status, purpose === 'sensitive-action' ? FRESH_CODE_NEEDED : CODE_NEEDED, field);
  switch (proof.kind) {
    case 'totp': {
      // a code checked against a secret that is no longer the account's (re-enrolled meanwhile) is wrong
      if (proof.enrolmentId !== tf.enrolmentId || proof.steps.length === 0) throw new TwoFactorCodeError(status, WRONG_CODE, field);
      const step = proof.steps.find((s) => s > tf.lastUsedStep);
      if (step === undefined) throw new TwoFactorCodeError(status, CODE_REPLAYED, field);
      return [{ type: 'TwoFactorCodeUsed', data: { step, purpose } }];
    }
    case 'recovery-code':
      if (purpose === 'sensitive-action') throw new TwoFactorCodeError(status, RECOVERY_NOT_HERE, field);
      if (!tf.recoveryCodes.includes(proof.digest)) throw new TwoFactorCodeError(status, WRONG_RECOVERY_CODE, 'recoveryCode');
      return [{ type: 'TwoFactorRecoveryCodeUsed', data: { digest: proof.digest, purpose } }];
    case 'remembered-browser':
      // only the sign-in may be skipped on a remembered browser, and only for the enrolment it was remembered for
      if (purpose !== 'sign-in' || !rememberedBrowserValid(tf, proof)) throw new TwoFactorCodeError(status, CODE_NEEDED, field);
      return [];
  }
}

export function decideTwoFactor(command: TwoFactorCommand, tf: TwoFactorState): TwoFactorEvent[] {
  switch (command.type) {
    case 'StartTwoFactorEnrolment':
      if (tf.enabled) throw new ConflictError(ALREADY_ENABLED);
      return [{ type: 'TwoFactorEnrolmentStarted', data: { enrolmentId: command.enrolmentId, sealedSecret: command.sealedSecret } }];
    case 'EnableTwoFactor': {
      if (tf.enabled) throw new ConflictError(ALREADY_ENABLED);
      if (!tf.pending || tf.pending.enrolmentId !== command.enrolmentId) throw new ConflictError(ENROLMENT_GONE);
      if (command.steps.length === 0) throw new TwoFactorCodeError(403, WRONG_CODE);
      const fresh = command.steps.filter((s) => s > tf.lastUsedStep);
      if (fresh.length === 0) throw new TwoFactorCodeError(403, CODE_REPLAYED);
      // the confirming code is used once like any other: the next sign-in needs the next one
      const step = Math.max(...fresh);
      return [{ type: 'TwoFactorEnabled', data: { enrolmentId: command.enrolmentId, step, recoveryCodeDigests: [...command.recoveryCodeDigests] } }];
    }
    case 'DisableTwoFactor': {
      if (!tf.enabled) throw new ConflictError(NOT_ENABLED);
      if (command.proof?.kind === 'remembered-browser') throw new TwoFactorCodeError(403, CODE_NEEDED);
      const used = acceptProof(tf, command.proof, 'disable', 403);
      return [...used, { type: 'TwoFactorDisabled', data: { enrolmentId: tf.enrolmentId!, method: command.proof!.kind === 'totp' ? 'code' : 'recovery-code' } }];
    }
    case 'ConfirmSensitiveAction':
      if (!tf.enabled) return [];
      return acceptProof(tf, command.proof, 'sensitive-action', 403);
    case 'RecordTwoFactorFailure': {
      if (codeStepLockedUntil(tf, command.now)) return []; // locked already: nothing more to count
      const recent = tf.failures.filter((t) => command.now - t < CODE_FAILURE_MEMORY_MS);
      const events: TwoFactorEvent[] = [{ type: 'TwoFactorCodeFailed', data: { at: command.now, purpose: command.purpose } }];
      if (recent.length + 1 >= CODE_FAILURES_PER_DAY) {
        // locked until the oldest remembered failure is a day old: the day's budget, and no more
        const until = (recent[0] ?? command.now) + CODE_FAILURE_MEMORY_MS;
        events.push({ type: 'TwoFactorCodeStepLocked', data: { until, failures: recent.length + 1 } });
      }
      return events;
    }
    case 'ForgetRememberedBrowsers':
      return [{ type: 'TwoFactorBrowsersForgotten', data: { at: command.now, reason: command.reason } }];
  }
}

export function evolveTwoFactor(tf: TwoFactorState, event: TwoFactorEvent): TwoFactorState {
  switch (event.type) {
    case 'TwoFactorEnrolmentStarted':
      return { ...tf, pending: { ...event.data } };
    case 'TwoFactorEnabled':
      return {
        ...tf,
        enabled: true,
        enrolmentId: event.data.enrolmentId,
        sealedSecret: tf.pending?.enrolmentId === event.data.enrolmentId ? tf.pending.sealedSecret : tf.sealedSecret,
        pending: null,
        lastUsedStep: Math.max(tf.lastUsedStep, event.data.step),
        recoveryCodes: [...event.data.recoveryCodeDigests],
      };
    case 'TwoFactorCodeUsed':
      return { ...tf, lastUsedStep: Math.max(tf.lastUsedStep, event.data.step) };
    case 'TwoFactorRecoveryCodeUsed':
      return { ...tf, recoveryCodes: tf.recoveryCodes.filter((d) => d !== event.data.digest) };
    case 'TwoFactorDisabled':
      // lastUsedStep is kept: a code seen before cannot come back after a new enrolment either; so are the
      // day's failures, the lock and the forgotten browsers (turning 2FA off and on refills nothing)
      return { ...initialTwoFactorState, lastUsedStep: tf.lastUsedStep, failures: tf.failures, lockedUntil: tf.lockedUntil, browsersForgottenAt: tf.browsersForgottenAt };
    case 'TwoFactorCodeFailed': {
      const at = event.data.at;
      const failures = [...tf.failures.filter((t) => at - t < CODE_FAILURE_MEMORY_MS), at].slice(-CODE_FAILURES_PER_DAY);
      return { ...tf, failures };
    }
    case 'TwoFactorCodeStepLocked':
      return { ...tf, lockedUntil: Math.max(tf.lockedUntil, event.data.until) };
    case 'TwoFactorBrowsersForgotten':
      return { ...tf, browsersForgottenAt: Math.max(tf.browsersForgottenAt ?? 0, event.data.at) };
  }
}

export function isTwoFactorCommand(command: { type: string }): command is TwoFactorCommand {
  return ['StartTwoFactorEnrolment', 'EnableTwoFactor', 'DisableTwoFactor', 'ConfirmSensitiveAction', 'RecordTwoFactorFailure', 'ForgetRememberedBrowsers'].includes(command.type);
}

export function isTwoFactorEvent(event: { type: string }): event is TwoFactorEvent {
  return event.type.startsWith('TwoFactor');
}
