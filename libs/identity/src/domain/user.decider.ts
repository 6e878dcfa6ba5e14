// Over 400 lines: one aggregate (the user's stream) decides registration, sign-in, sessions, mailed links and the hooks into two-factor and access tokens, whose own rules live in their folders.
import { ConflictError, deciderOf, evolveByType, NotFoundError, QuotaExceededError, UnauthorizedError, ValidationError } from '@gridrocket/shared';
import { OAuthProvider, PasswordResetReason, SignInMethod, UserEvent } from './user.events';
import {
  SecondFactorNeededError,
  SecondFactorProof,
  TwoFactorCommand,
  TwoFactorState,
  acceptProof,
  decideTwoFactor,
  evolveTwoFactor,
  initialTwoFactorState,
  isTwoFactorCommand,
  isTwoFactorEvent,
  rememberedBrowserValid,
} from '../two-factor/two-factor.decider';
import {
  AccessTokenCommand,
  AccessTokensState,
  decideAccessToken,
  evolveAccessTokens,
  isAccessTokenCommand,
  isAccessTokenEvent,
  revokeAllAccessTokens,
} from '../access-tokens/access-token.decider';

export interface PendingToken {
  tokenDigest: string;
  expiresAt: string;
  /** The forgot-password ask that caused this reset link (mail/reset-intake.ts), when one did. */
  cause?: string;
}

export interface UserState {
  exists: boolean;
  uid: string | null;
  email: string | null;
  displayName: string;
  photoURL: string | null;
  passwordHash: string | null;
  emailVerified: boolean;
  /** Open sessions: session id → expiry. */
  sessions: Map<string, string>;
  pendingVerification: PendingToken | null;
  pendingReset: PendingToken | null;
  providers: Partial<Record<OAuthProvider, string>>;
  /** When the owner was last mailed that someone tried to register with the address (issue 30). */
  registrationNoticeAt?: string | null;
  /** Two-factor sign-in (issue 30). */
  twoFactor: TwoFactorState;
  /** Personal access tokens not revoked (issue 31). */
  accessTokens: AccessTokensState;
  /** The ids of the pending sign-ins completed lately (issue 38: each completes one sign-in). */
  usedPendingSignIns?: ReadonlySet<string>;
}

export const PENDING_SIGN_IN_USED = 'This sign-in has expired or was already completed; sign in again';
/** Completed pending sign-ins remembered per account (a pending cookie lives 5 minutes: far more than enough). */
export const PENDING_SIGN_INS_KEPT = 50;

/** What a provider told us about the person signing in. */
export interface ProviderIdentity {
  provider: OAuthProvider;
  subject: string;
  emailVerified: boolean;
}

/** A mailed link's request: its token's digest, expiry and seed (link-tokens.ts). */
export interface LinkRequest {
  tokenDigest: string;
  expiresAt: string;
  tokenSeed: string;
}

export type UserCommand =
  | {
      type: 'Register';
      uid: string;
      email: string;
      passwordHash: string | null;
      displayName?: string;
      photoURL?: string | null;
      /** Registration through Google or Facebook. */
      provider?: ProviderIdentity;
      /** The session the registration opens, in the same append (issue 30: one write, as a refused one makes). */
      session?: { sessionId: string; expiresAt: string; browser?: string; address?: string };
      /** The verification link's request, in the same append: once the registration is answered, its mail cannot be lost (issue 31). */
      verification?: LinkRequest;
    }
  | {
      type: 'SignIn';
      sessionId: string;
      expiresAt: string;
      method: SignInMethod;
      /** For password sign-in: the sealed hash the password was checked against (refuses a sign-in raced by a password change). */
      checkedPasswordHash?: string | null;
      /** QUOTA_SESSIONS: sessions still alive at `now` beyond which the sign-in is refused (409). */
      maxSessions?: number;
      now?: string;
      /** Shown in the list of sessions (issue 30): the browser summarised from the User-Agent, the client IP. */
      browser?: string;
      address?: string;
      /** With 2FA on: the code, recovery code or remembered browser that came with the sign-in (issue 30). */
      secondFactor?: SecondFactorProof | null;
      /** The pending sign-in this completes (its cookie's id): each completes one sign-in (issue 38). */
      pendingSignIn?: string;
    }
  | { type: 'SignOut'; sessionId: string; reason?: 'logout' | 'revoked' }
  /** "Sign out everywhere" (issue 30): every session alive at `now` but `keep` ends. */
  | { type: 'SignOutOthers'; keep: string; now: string }
  /** The session was used (issue 30: "last seen" in the list of sessions). */
  | { type: 'RecordSessionSeen'; sessionId: string; address?: string }
  /** Someone registered with the address of this account (issue 30: its owner is told by mail, at most hourly). */
  | { type: 'NoteRegistrationAttempt'; now: string; /** The notice's reset link, requested in the same append when the owner is mailed. */ reset?: LinkRequest }
  | { type: 'RequestEmailVerification'; tokenDigest: string; expiresAt: string; tokenSeed?: string }
  | { type: 'VerifyEmail'; tokenDigest: string; now: string }
  | { type: 'RequestPasswordReset'; tokenDigest: string; expiresAt: string; tokenSeed?: string; reason?: PasswordResetReason; cause?: string }
  | { type: 'ResetPassword'; tokenDigest: string; passwordHash: string; now: string }
  /** photoURL undefined keeps the current photo; null removes it. */
  | { type: 'UpdateProfile'; displayName: string; photoURL?: string | null }
  | ({ type: 'LinkProvider'; now: string } & ProviderIdentity)
  | TwoFactorCommand
  | AccessTokenCommand;

export const EMAIL_TAKEN = 'An account with this email already exists';
export const INVALID_CREDENTIALS = 'Invalid email or password';
export const VERIFY_LINK_INVALID = 'This verification link is invalid or has already been used';
export const VERIFY_LINK_EXPIRED = 'This verification link has expired; request a new one';
export const RESET_LINK_INVALID = 'This password reset link is invalid or has already been used';
export const RESET_LINK_EXPIRED = 'This password reset link has expired; request a new one';
export const PROVIDER_EMAIL_UNVERIFIED =
  'An account with this email already exists. Sign in with your email and password, or verify the email address with your provider first';

const PROVIDER_NAMES: Record<OAuthProvider, string> = { google: 'Google', facebook: 'Facebook' };

export const initialUserState: UserState = {
  exists: false,
  uid: null,
  email: null,
  displayName: '',
  photoURL: null,
  passwordHash: null,
  emailVerified: false,
  sessions: new Map(),
  pendingVerification: null,
  pendingReset: null,
  providers: {},
  twoFactor: initialTwoFactorState,
  accessTokens: new Map(),
};

function tokenError(message: string): ValidationError {
  return new ValidationError([{ field: 'token', message }], message);
}

/** Checks an emailed link against the one pending: it must be the latest, unused and unexpired. */
function checkToken(pending: PendingToken | null, tokenDigest: string, now: string, invalid: string, expired: string): void {
  if (!pending || pending.tokenDigest !== tokenDigest) throw tokenError(invalid);
  if (Date.parse(pending.expiresAt) <= Date.parse(now)) throw tokenError(expired);
}

/** Sessions still alive at `now`, each ended with the given reason. */
function endSessions(state: UserState, now: string, reason: 'password-changed' | 'account-claimed' | 'revoked') {
  const t = Date.parse(now);
  return [...state.sessions]
    .filter(([, expiresAt]) => Date.parse(expiresAt) > t)
    .map(([sessionId]) => ({ type: 'UserSignedOut' as const, data: { sessionId, reason } }));
}

/**
 * Every browser remembered for the account's enrolment counts for nothing from now (issue 38). Only with
 * 2FA on: remembered browsers exist only for an enabled enrolment, and a new one voids them anyway.
 */
function forgetBrowsers(state: UserState, now: string, reason: 'signed-out-everywhere' | 'password-changed'): UserEvent[] {
  return state.twoFactor.enabled ? [{ type: 'TwoFactorBrowsersForgotten', data: { at: Date.parse(now), reason } }] : [];
}

/** The browser and address of a sign-in, only those given (events of older sign-ins have neither). */
function seenFrom(command: { browser?: string; address?: string }): { browser?: string; address?: string } {
  return { ...(command.browser ? { browser: command.browser } : {}), ...(command.address ? { address: command.address } : {}) };
}

/** The owner is mailed about registration attempts at most this often (issue 30). */
export const REGISTRATION_NOTICE_EVERY_MS = 3_600_000;

function noticeMailedWithin(state: UserState, now: string, ms: number): boolean {
  return !!state.registrationNoticeAt && Date.parse(now) - Date.parse(state.registrationNoticeAt) < ms;
}

/** How many of the user's sessions are alive at `now`. */
export function liveSessions(state: UserState, now: string): number {
  const t = Date.parse(now);
  let n = 0;
  for (const expiresAt of state.sessions.values()) if (Date.parse(expiresAt) > t) n++;
  return n;
}

export function decideUser(command: UserCommand, state: UserState): UserEvent[] {
  if (isTwoFactorCommand(command)) {
    if (!state.exists) throw new NotFoundError('No such user');
    const events: UserEvent[] = decideTwoFactor(command, state.twoFactor);
    // turning 2FA on ends every other session (issue 38): a session stolen before it is no way in after
    if (command.type === 'EnableTwoFactor' && command.keepSession && command.now) {
      events.push(...endSessions(state, command.now, 'revoked').filter((e) => e.data.sessionId !== command.keepSession));
    }
    return events;
  }
  if (isAccessTokenCommand(command)) {
    if (!state.exists) throw new NotFoundError('No such user');
    return decideAccessToken(command, state.accessTokens);
  }
  switch (command.type) {
    case 'Register': {
      if (state.exists) throw new ConflictError(EMAIL_TAKEN);
      const events: UserEvent[] = [
        {
          type: 'UserRegistered',
          data: {
            uid: command.uid,
            email: command.email,
            displayName: command.displayName ?? '',
            photoURL: command.photoURL ?? null,
            passwordHash: command.passwordHash,
            method: command.provider?.provider ?? 'password',
          },
        },
      ];
      if (command.session) {
        const { sessionId, expiresAt } = command.session;
        events.push({ type: 'UserSignedIn', data: { sessionId, expiresAt, method: 'password', ...seenFrom(command.session) } });
      }
      if (command.provider) {
        events.push({ type: 'ProviderLinked', data: { provider: command.provider.provider, subject: command.provider.subject, email: command.email } });
        if (command.provider.emailVerified) events.push({ type: 'EmailVerified', data: { email: command.email, method: command.provider.provider } });
      }
      if (command.verification && !command.provider?.emailVerified) {
        const v = command.verification;
        events.push({ type: 'EmailVerificationRequested', data: { tokenDigest: v.tokenDigest, expiresAt: v.expiresAt, tokenSeed: v.tokenSeed } });
      }
      return events;
    }
    case 'SignIn':
      if (!state.exists) throw new UnauthorizedError(INVALID_CREDENTIALS);
      if (command.method === 'password') {
        if (!state.passwordHash || command.checkedPasswordHash !== state.passwordHash) throw new UnauthorizedError(INVALID_CREDENTIALS);
      } else if (!state.providers[command.method]) {
        throw new UnauthorizedError(`This account is not linked to ${PROVIDER_NAMES[command.method]}`);
      }
      // Decided on the user's stream and appended with its revision (issue 28): sign-ins at once cannot
      // pass the limit together, as they could when it was counted on the lagging read model.
      if (command.maxSessions !== undefined && liveSessions(state, command.now ?? new Date().toISOString()) >= command.maxSessions) {
        throw new QuotaExceededError('sessions', command.maxSessions);
      }
      {
        // a pending sign-in completes one sign-in (issue 38: its cookie completed a second one after it was used)
        if (command.pendingSignIn && state.usedPendingSignIns?.has(command.pendingSignIn)) throw new UnauthorizedError(PENDING_SIGN_IN_USED);
        const signedIn: UserEvent = {
          type: 'UserSignedIn',
          data: { sessionId: command.sessionId, expiresAt: command.expiresAt, method: command.method, ...seenFrom(command), ...(command.pendingSignIn ? { pendingSignIn: command.pendingSignIn } : {}) },
        };
        if (!state.twoFactor.enabled) return [signedIn];
        // 2FA on (issue 30): no session without the second factor; the code is used up with the sign-in.
        const proof = command.secondFactor;
        // a browser remembered for an earlier enrolment (2FA turned off and on since) counts for nothing
        // and so is one remembered before "sign out everywhere" or a new password (issue 38)
        const stale = proof?.kind === 'remembered-browser' && !rememberedBrowserValid(state.twoFactor, proof);
        if (!proof || stale) throw new SecondFactorNeededError(state.uid!, command.method, command.checkedPasswordHash ?? null);
        return [...acceptProof(state.twoFactor, proof, 'sign-in', 401), signedIn];
      }
    case 'SignOut':
      if (!state.sessions.has(command.sessionId)) return [];
      return [{ type: 'UserSignedOut', data: { sessionId: command.sessionId, reason: command.reason ?? 'logout' } }];
    case 'SignOutOthers':
      // remembered browsers too (issue 38): a thief's remembered cookie no longer skips the code step
      return [...endSessions(state, command.now, 'revoked').filter((e) => e.data.sessionId !== command.keep), ...forgetBrowsers(state, command.now, 'signed-out-everywhere')];
    case 'RecordSessionSeen':
      if (!state.sessions.has(command.sessionId)) return [];
      return [{ type: 'SessionSeen', data: { sessionId: command.sessionId, ...(command.address ? { address: command.address } : {}) } }];
    case 'NoteRegistrationAttempt':
      if (!state.exists) throw new NotFoundError('No such user');
      // Recorded every time (the same write as a new registration); mailed at most once an hour, so
      // that registering the address over and over does not flood its owner's mailbox.
    {
      const mailed = !noticeMailedWithin(state, command.now, REGISTRATION_NOTICE_EVERY_MS);
      const events: UserEvent[] = [{ type: 'RegistrationAttempted', data: { at: command.now, mailed } }];
      // the owner's notice and its reset link in the same append: the outbox mails it (issue 31)
      if (mailed && command.reset) {
        const r = command.reset;
        events.push({ type: 'PasswordResetRequested', data: { tokenDigest: r.tokenDigest, expiresAt: r.expiresAt, tokenSeed: r.tokenSeed, reason: 'registration-attempt' } });
      }
      return events;
    }
    case 'RequestEmailVerification':
      if (!state.exists) throw new NotFoundError('No such user');
      if (state.emailVerified) return [];
      return [{ type: 'EmailVerificationRequested', data: { tokenDigest: command.tokenDigest, expiresAt: command.expiresAt, ...(command.tokenSeed ? { tokenSeed: command.tokenSeed } : {}) } }];
    case 'VerifyEmail':
      checkToken(state.pendingVerification, command.tokenDigest, command.now, VERIFY_LINK_INVALID, VERIFY_LINK_EXPIRED);
      return [{ type: 'EmailVerified', data: { email: state.email!, method: 'link' } }];
    case 'RequestPasswordReset':
      if (!state.exists) throw new NotFoundError('No such user');
      // the same ask handled again (the intake reactor after a crash): its link is the pending one already
      if (command.cause && state.pendingReset?.cause === command.cause) return [];
      return [
        {
          type: 'PasswordResetRequested',
          data: {
            tokenDigest: command.tokenDigest,
            expiresAt: command.expiresAt,
            ...(command.tokenSeed ? { tokenSeed: command.tokenSeed } : {}),
            ...(command.reason ? { reason: command.reason } : {}),
            ...(command.cause ? { cause: command.cause } : {}),
          },
        },
      ];
    case 'ResetPassword': {
      checkToken(state.pendingReset, command.tokenDigest, command.now, RESET_LINK_INVALID, RESET_LINK_EXPIRED);
      const events: UserEvent[] = [{ type: 'PasswordChanged', data: { passwordHash: command.passwordHash, method: 'reset-link' } }];
      // The link reached the mailbox: that proves the address as well as a verification link would.
      if (!state.emailVerified) events.push({ type: 'EmailVerified', data: { email: state.email!, method: 'reset-link' } });
      // every session ends, and every access token (issue 31): a reset is how an owner locks out whoever had the account
      // and every remembered browser (issue 38): the 30-day cookie skipped the code step after a reset
      return [
        ...events,
        ...endSessions(state, command.now, 'password-changed'),
        ...revokeAllAccessTokens(state.accessTokens, 'password-reset'),
        ...forgetBrowsers(state, command.now, 'password-changed'),
      ];
    }
    case 'UpdateProfile': {
      if (!state.exists) throw new NotFoundError('No such user');
      const photoURL = command.photoURL === undefined ? state.photoURL : command.photoURL;
      if (command.displayName === state.displayName && photoURL === state.photoURL) return [];
      return [{ type: 'ProfileUpdated', data: { displayName: command.displayName, photoURL } }];
    }
    case 'LinkProvider': {
      if (!state.exists) throw new NotFoundError('No such user');
      const linked = state.providers[command.provider];
      const name = PROVIDER_NAMES[command.provider];
      if (linked && linked !== command.subject) throw new ConflictError(`This account is linked to a different ${name} account`);
      if (linked) {
        return command.emailVerified && !state.emailVerified ? [{ type: 'EmailVerified', data: { email: state.email!, method: command.provider } }] : [];
      }
      // Only a provider that vouches for the address may sign into an existing account.
      if (!command.emailVerified) throw new ConflictError(PROVIDER_EMAIL_UNVERIFIED);
      const link: UserEvent = { type: 'ProviderLinked', data: { provider: command.provider, subject: command.subject, email: state.email! } };
      if (state.emailVerified) return [link];
      // The address was never proven by whoever registered it: the provider's owner claims the account,
      // and whoever set the unverified password (possibly someone squatting the address) is locked out.
      const events: UserEvent[] = [];
      if (state.passwordHash) events.push({ type: 'PasswordChanged', data: { passwordHash: null, method: 'account-claimed' } });
      // so is a second factor they set up: the owner could not sign in past it
      if (state.twoFactor.enabled) events.push({ type: 'TwoFactorDisabled', data: { enrolmentId: state.twoFactor.enrolmentId!, method: 'account-claimed' } });
      // and so is every access token they made (issue 31)
      events.push(...revokeAllAccessTokens(state.accessTokens, 'account-claimed'));
      events.push(...endSessions(state, command.now, 'account-claimed'));
      events.push({ type: 'EmailVerified', data: { email: state.email!, method: command.provider } });
      events.push(link);
      return events;
    }
  }
}

const evolveAccount = evolveByType<UserEvent, UserState>({
  UserRegistered: (state, event) => ({
    ...state,
    exists: true,
    uid: event.data.uid,
    email: event.data.email,
    displayName: event.data.displayName,
    photoURL: event.data.photoURL,
    passwordHash: event.data.passwordHash,
  }),
  UserSignedIn: (state, event) => {
    const next = { ...state, sessions: new Map(state.sessions).set(event.data.sessionId, event.data.expiresAt) };
    if (!event.data.pendingSignIn) return next;
    // kept while such a cookie could still be presented (its expiry is in its id), bounded
    const used = new Set([...(state.usedPendingSignIns ?? [])].slice(-PENDING_SIGN_INS_KEPT));
    used.add(event.data.pendingSignIn);
    return { ...next, usedPendingSignIns: used };
  },
  UserSignedOut: (state, event) => {
    const sessions = new Map(state.sessions);
    sessions.delete(event.data.sessionId);
    return { ...state, sessions };
  },
  EmailVerificationRequested: (state, event) => ({ ...state, pendingVerification: { ...event.data } }),
  EmailVerified: (state) => ({ ...state, emailVerified: true, pendingVerification: null }),
  PasswordResetRequested: (state, event) => ({ ...state, pendingReset: { ...event.data } }),
  PasswordChanged: (state, event) => ({ ...state, passwordHash: event.data.passwordHash, pendingReset: null }),
  ProfileUpdated: (state, event) => ({ ...state, displayName: event.data.displayName, photoURL: event.data.photoURL }),
  RegistrationAttempted: (state, event) => (event.data.mailed ? { ...state, registrationNoticeAt: event.data.at } : state),
  ProviderLinked: (state, event) => ({ ...state, providers: { ...state.providers, [event.data.provider]: event.data.subject } }),
});

export function evolveUser(state: UserState, event: UserEvent): UserState {
  if (isTwoFactorEvent(event)) return { ...state, twoFactor: evolveTwoFactor(state.twoFactor, event) };
  if (isAccessTokenEvent(event)) return { ...state, accessTokens: evolveAccessTokens(state.accessTokens, event) };
  return evolveAccount(state, event);
}

export const userDecider = deciderOf<UserCommand, UserEvent, UserState>(initialUserState, decideUser, evolveUser);
