import { Inject, Injectable } from '@nestjs/common';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { Response } from 'express';
import { z } from 'zod';
import { EventSourcedPorts } from '@gridrocket/read-store/nest';
import { KEYRING_TOKEN, Keyring, executeCommand, loadState } from '@gridrocket/shared/runtime';
import { CommandContext, TooManyRequestsError, UnauthorizedError } from '@gridrocket/shared';
import { UserCommand, UserState, userDecider } from '../domain/user.decider';
import { userStream } from '../domain/user.events';
import { parseOrThrow } from '../auth.rules';
import { AuthThrottle, LoginClient } from '../auth.throttle';
import { SessionService, type SignInClient } from '../session.service';
import { UserDoc } from '../identity.projections';
import { CODE_NEEDED, SecondFactorNeededError, SecondFactorProof, TwoFactorCodeError, WRONG_CODE, WRONG_RECOVERY_CODE, codeStepLockedUntil } from './two-factor.decider';
import type { TwoFactorPurpose } from './two-factor.events';
import QRCode from 'qrcode';
import { base32Encode, matchingSteps, newRecoveryCodes, newTotpSecret, normalizeRecoveryCode, normalizeTotpCode, otpauthUri } from './totp';
import { PENDING_COOKIE, PENDING_TTL_MS, PendingSignIn, REMEMBER_COOKIE, REMEMBER_DAYS, passwordDigest, readPending, readRemembered, signPending, signRemembered } from './two-factor.tokens';

type Ctx = Omit<CommandContext, 'userId'>;

export const SIGN_IN_EXPIRED = 'This sign-in has expired or was already completed; sign in again';

/** The code step of an account locked after a day's wrong codes (issue 38). */
export function codeStepLockedMessage(until: number): string {
  return `Too many wrong codes for this account today: codes are not taken until ${new Date(until).toISOString().slice(0, 16).replace('T', ' ')} UTC. The account's owner was told by mail. A browser that was remembered at sign-in still signs in.`;
}

const codeField = z
  .string({ invalid_type_error: 'Code must be text' })
  .max(20, 'Code must be 6 digits')
  .refine((s) => normalizeTotpCode(s) !== null, 'Code must be 6 digits');
const recoveryField = z
  .string({ invalid_type_error: 'Recovery code must be text' })
  .max(40, 'Recovery code looks like abcd-efgh-ijkl-mnop')
  .refine((s) => normalizeRecoveryCode(s) !== null, 'Recovery code looks like abcd-efgh-ijkl-mnop');

/** A code, or (where allowed) a recovery code: exactly one. */
export const secondFactorSchema = z
  .object({ code: codeField.optional(), recoveryCode: recoveryField.optional(), remember: z.boolean({ invalid_type_error: 'Remember must be true or false' }).optional() })
  .superRefine((v, ctx) => {
    if (v.code === undefined && v.recoveryCode === undefined) ctx.addIssue({ code: 'custom', path: ['code'], message: 'Code is required' });
    if (v.code !== undefined && v.recoveryCode !== undefined) ctx.addIssue({ code: 'custom', path: ['recoveryCode'], message: 'Give either a code or a recovery code, not both' });
  });
export const enableSchema = z.object({ code: z.string({ required_error: 'Code is required', invalid_type_error: 'Code must be text' }).pipe(codeField) });

export type SecondFactorInput = z.output<typeof secondFactorSchema>;

export function parseSecondFactor(body: unknown): SecondFactorInput {
  return parseOrThrow(secondFactorSchema, body);
}

/**
 * Two-factor sign-in (issue 30): enrolment, the code step of a sign-in, codes for sensitive actions,
 * turning it off. Every change is a command on the user's stream (the decider decides whether a code may
 * still be used); code attempts are throttled as password attempts are (AuthThrottle, counted apart).
 */
@Injectable()
export class TwoFactorService {
  private readonly recoveryKey: Buffer;
  private readonly pendingKey: Buffer;
  private readonly rememberKey: Buffer;

  constructor(
    private readonly ports: EventSourcedPorts,
    @Inject(KEYRING_TOKEN) private readonly keyring: Keyring,
    private readonly sessions: SessionService,
    private readonly throttle: AuthThrottle,
  ) {
    this.recoveryKey = keyring.deriveKey('2fa-recovery-code');
    this.pendingKey = keyring.deriveKey('2fa-pending-sign-in');
    this.rememberKey = keyring.deriveKey('2fa-remembered-browser');
  }

  private async state(uid: string): Promise<UserState> {
    const s = await loadState(this.ports.events, userStream(uid), userDecider);
    if (!s || !s.state.exists) throw new UnauthorizedError();
    return s.state;
  }

  private async run(uid: string, command: UserCommand, ctx: Ctx) {
    const r = await executeCommand(this.ports.events, userStream(uid), userDecider, command, { ...ctx, userId: uid });
    await this.ports.projector.waitFor(r.position);
    return r;
  }

  /** 429 while the account's code step is locked after a day's wrong codes (issue 38). */
  private assertCodeStepOpen(state: UserState): void {
    const now = Date.now();
    const until = codeStepLockedUntil(state.twoFactor, now);
    if (until) throw new TooManyRequestsError(Math.max(1, Math.ceil((until - now) / 1000)), codeStepLockedMessage(until));
  }

  /**
   * Runs a step that checks a code; a wrong code or recovery code is remembered on the account for a day
   * (issue 38: the 15-minute budget refilled, about 2,000 guesses a day); the day's last allowed one locks
   * the code step and the owner is mailed (the mail outbox, from the event). The refusal is passed on.
   */
  private async counted<T>(uid: string, purpose: TwoFactorPurpose, ctx: Ctx, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (err instanceof TwoFactorCodeError && (err.message === WRONG_CODE || err.message === WRONG_RECOVERY_CODE)) {
        await this.run(uid, { type: 'RecordTwoFactorFailure', purpose, now: Date.now() }, ctx);
      }
      throw err;
    }
  }

  private aad(uid: string, enrolmentId: string) {
    return `totp:${uid}:${enrolmentId}`;
  }

  /** Keyed digest of a recovery code (HMAC-SHA-256, bound to the account). */
  private recoveryDigest(uid: string, code: string): string {
    return createHmac('sha256', this.recoveryKey).update(`${uid}:${normalizeRecoveryCode(code)}`).digest('base64url');
  }

  /** The throttle key of code attempts: the account's own count, apart from its password attempts. */
  private throttleKey(uid: string) {
    return `2fa:${uid}`;
  }

  async status(uid: string) {
    const { twoFactor } = await this.state(uid);
    return { enabled: twoFactor.enabled, setupStarted: twoFactor.pending !== null, recoveryCodesLeft: twoFactor.enabled ? twoFactor.recoveryCodes.length : 0 };
  }

  /** A new secret, sealed into the stream; shown to the user this once (as the QR's URI and in base32). */
  async start(uid: string, email: string, ctx: Ctx) {
    const enrolmentId = randomUUID();
    const secret = newTotpSecret();
    try {
      const sealedSecret = this.keyring.seal(secret, this.aad(uid, enrolmentId));
      await this.run(uid, { type: 'StartTwoFactorEnrolment', enrolmentId, sealedSecret }, ctx);
      const b32 = base32Encode(secret);
      const uri = otpauthUri(b32, email);
      // the QR code an authenticator app scans (an SVG data URL: drawn on the server, no script needed)
      const qr = `data:image/svg+xml;base64,${Buffer.from(await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 })).toString('base64')}`;
      return { secret: b32, otpauthUri: uri, qr };
    } finally {
      secret.fill(0);
    }
  }

  /** Confirms the pending secret with a code from it: 2FA on, ten recovery codes returned this once. */
  async enable(uid: string, body: unknown, client: LoginClient, ctx: Ctx, keepSession?: string) {
    const { code } = parseOrThrow(enableSchema, body);
    const state = await this.state(uid);
    const { twoFactor } = state;
    this.assertCodeStepOpen(state);
    await this.throttle.beginLogin(this.throttleKey(uid), client);
    let steps: number[] = [];
    if (twoFactor.pending) steps = this.steps(uid, twoFactor.pending.enrolmentId, twoFactor.pending.sealedSecret, code);
    const recoveryCodes = newRecoveryCodes();
    await this.counted(uid, 'sensitive-action', ctx, () =>
      this.run(
        uid,
        { type: 'EnableTwoFactor', enrolmentId: twoFactor.pending?.enrolmentId ?? '', steps, recoveryCodeDigests: recoveryCodes.map((c) => this.recoveryDigest(uid, c)), keepSession, now: new Date().toISOString() },
        ctx,
      ),
    );
    await this.throttle.loginSucceeded(this.throttleKey(uid), client);
    return { recoveryCodes };
  }

  async disable(uid: string, body: unknown, client: LoginClient, ctx: Ctx): Promise<void> {
    const input = parseSecondFactor(body);
    const state = await this.state(uid);
    this.assertCodeStepOpen(state);
    await this.throttle.beginLogin(this.throttleKey(uid), client);
    await this.counted(uid, 'disable', ctx, () => this.run(uid, { type: 'DisableTwoFactor', proof: this.proofOf(uid, state, input) }, ctx));
    await this.throttle.loginSucceeded(this.throttleKey(uid), client);
  }

  /**
   * A sensitive action (add or delete a key, change the alert channels): with 2FA on it needs a fresh
   * code (`X-TOTP`), used up by it. 403 with a clear message when it is missing, wrong or replayed.
   */
  async confirmSensitiveAction(uid: string, code: string | undefined, client: LoginClient, ctx: Ctx): Promise<void> {
    const state = await this.state(uid);
    if (!state.twoFactor.enabled) return;
    if (code === undefined || code === '') {
      await this.run(uid, { type: 'ConfirmSensitiveAction', proof: null }, ctx); // the decider's refusal: code needed
      return;
    }
    this.assertCodeStepOpen(state);
    await this.throttle.beginLogin(this.throttleKey(uid), client);
    const typed = normalizeTotpCode(code);
    const steps = typed ? this.steps(uid, state.twoFactor.enrolmentId!, state.twoFactor.sealedSecret!, typed) : [];
    await this.counted(uid, 'sensitive-action', ctx, () => this.run(uid, { type: 'ConfirmSensitiveAction', proof: { kind: 'totp', enrolmentId: state.twoFactor.enrolmentId!, steps } }, ctx));
    await this.throttle.loginSucceeded(this.throttleKey(uid), client);
  }

  private steps(uid: string, enrolmentId: string, sealedSecret: string, code: string): number[] {
    const secret = this.keyring.open(sealedSecret, this.aad(uid, enrolmentId));
    try {
      return matchingSteps(secret, code, Date.now());
    } finally {
      secret.fill(0);
    }
  }

  private proofOf(uid: string, state: UserState, input: SecondFactorInput): SecondFactorProof | null {
    const tf = state.twoFactor;
    if (input.recoveryCode !== undefined) return { kind: 'recovery-code', digest: this.recoveryDigest(uid, input.recoveryCode) };
    if (input.code !== undefined && tf.enabled) return { kind: 'totp', enrolmentId: tf.enrolmentId!, steps: this.steps(uid, tf.enrolmentId!, tf.sealedSecret!, input.code) };
    return null;
  }

  // ---- the sign-in's code step ---------------------------------------------------------------

  /** The proof a remembered browser brings to a sign-in of `uid` (null: none). */
  rememberedProof(uid: string, cookie: string | undefined): SecondFactorProof | null {
    const remembered = readRemembered(this.rememberKey, cookie, uid, Date.now());
    return remembered ? { kind: 'remembered-browser', enrolmentId: remembered.enrolmentId, issuedAt: remembered.issuedAt } : null;
  }

  /** Answers "code needed": a pending half-session in a short-lived signed cookie, no session. */
  askForCode(res: Response, needed: SecondFactorNeededError) {
    const pending: PendingSignIn = { uid: needed.uid, method: needed.method, passwordDigest: passwordDigest(needed.checkedPasswordHash), expiresAt: Date.now() + PENDING_TTL_MS, id: randomBytes(16).toString('base64url') };
    res.cookie(PENDING_COOKIE, signPending(this.pendingKey, pending), {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.ports.config.cookieSecure,
      path: '/api/auth',
      maxAge: PENDING_TTL_MS,
    });
    res.status(202);
    return { twoFactorRequired: true, message: CODE_NEEDED };
  }

  pendingOf(cookie: string | undefined): PendingSignIn | null {
    return readPending(this.pendingKey, cookie, Date.now());
  }

  /**
   * Completes a pending sign-in with a code or a recovery code: opens the session (the code is used up
   * with it, in one decision); `remember` gives this browser a cookie that skips the code for 30 days.
   */
  async completeSignIn(pending: PendingSignIn, input: SecondFactorInput, client: LoginClient, ctx: Ctx, res: Response, seenFrom: SignInClient = {}): Promise<{ token: string; user: UserDoc }> {
    const state = await this.state(pending.uid);
    // a password changed since the password step voids it
    if (pending.method === 'password' && passwordDigest(state.passwordHash) !== pending.passwordDigest) throw new UnauthorizedError(SIGN_IN_EXPIRED);
    if (state.usedPendingSignIns?.has(pending.id)) throw new UnauthorizedError(SIGN_IN_EXPIRED); // used already (issue 38)
    this.assertCodeStepOpen(state);
    await this.throttle.beginLogin(this.throttleKey(pending.uid), client);
    const proof = this.proofOf(pending.uid, state, input);
    const checked = pending.method === 'password' ? state.passwordHash : undefined;
    const opened = await this.counted(pending.uid, 'sign-in', ctx, () =>
      this.sessions.openSession(pending.uid, pending.method, ctx, checked, seenFrom, proof, pending.id).catch((e) => {
        // 2FA was turned off meanwhile: the decider asks for nothing, the proof was ignored; any other refusal stands
        if (e instanceof SecondFactorNeededError) throw new UnauthorizedError(SIGN_IN_EXPIRED);
        throw e;
      }),
    );
    await this.throttle.loginSucceeded(this.throttleKey(pending.uid), client);
    res.clearCookie(PENDING_COOKIE, { path: '/api/auth' });
    if (input.remember && state.twoFactor.enrolmentId) {
      const expiresAt = Date.now() + REMEMBER_DAYS * 86_400_000;
      res.cookie(REMEMBER_COOKIE, signRemembered(this.rememberKey, pending.uid, state.twoFactor.enrolmentId, expiresAt), {
        httpOnly: true,
        sameSite: 'lax',
        secure: this.ports.config.cookieSecure,
        path: '/api/auth',
        maxAge: REMEMBER_DAYS * 86_400_000,
      });
    }
    return opened;
  }
}
