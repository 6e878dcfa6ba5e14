/**
 * Events of a user's stream `user-<uid>`. Secrets never appear in clear: the
 * password hash is sealed with the master key, sessions appear only as the
 * SHA-256 of their token, and emailed link tokens only as a keyed digest
 * (HMAC-SHA-256 under a key derived from the master key).
 */
import type { TwoFactorEvent } from '../two-factor/two-factor.events';
import type { AccessTokenEvent } from '../access-tokens/access-token.decider';

export type SignInMethod = 'password' | 'google' | 'facebook';
export type OAuthProvider = 'google' | 'facebook';
export type PasswordResetReason = 'forgot-password' | 'registration-attempt';

export type UserEvent =
  | {
      type: 'UserRegistered';
      data: { uid: string; email: string; displayName: string; photoURL: string | null; passwordHash: string | null; method: SignInMethod };
    }
  /** `browser` ("Chrome on Linux", from the User-Agent) and `address` (the client IP): for the list of sessions (issue 30). */
  /** `pendingSignIn`: the id of the pending sign-in (two-factor code step) this completed; each completes one (issue 38). */
  | { type: 'UserSignedIn'; data: { sessionId: string; expiresAt: string; method: SignInMethod; browser?: string; address?: string; pendingSignIn?: string } }
  /** `revoked`: ended from another session ("sign out" in the list of sessions, or "sign out everywhere"). */
  | { type: 'UserSignedOut'; data: { sessionId: string; reason?: 'logout' | 'password-changed' | 'account-claimed' | 'revoked' } }
  /** The session was used (recorded at most every few minutes), from this address (issue 30). */
  | { type: 'SessionSeen'; data: { sessionId: string; address?: string } }
  /** Someone tried to register with this account's address; `mailed`: the owner was mailed a notice (at most hourly; issue 30). */
  | { type: 'RegistrationAttempted'; data: { at: string; mailed: boolean } }
  /**
   * A verification link is to be mailed (the mail outbox sends it); any earlier verification link is dead
   * from now on. `tokenSeed` (issue 31): the link's token is HMAC(key derived from the master key, seed), so
   * the outbox can make the link again from the event alone; absent on events written before the outbox.
   */
  | { type: 'EmailVerificationRequested'; data: { tokenDigest: string; expiresAt: string; tokenSeed?: string } }
  | { type: 'EmailVerified'; data: { email: string; method: 'link' | 'reset-link' | OAuthProvider } }
  /**
   * A reset link is to be mailed (the mail outbox sends it); any earlier reset link is dead from now on.
   * `reason` picks the mail: forgot-password (the default) or the notice that someone tried to register
   * with this address (issue 30); `tokenSeed` as for EmailVerificationRequested; `cause`: the id of the
   * recorded forgot-password ask it answers (mail/reset-intake.ts), so that ask is not answered twice.
   */
  | { type: 'PasswordResetRequested'; data: { tokenDigest: string; expiresAt: string; tokenSeed?: string; reason?: PasswordResetReason; cause?: string } }
  /** `passwordHash` is sealed with the master key; null removes password sign-in. */
  | { type: 'PasswordChanged'; data: { passwordHash: string | null; method: 'reset-link' | 'account-claimed' } }
  | { type: 'ProfileUpdated'; data: { displayName: string; photoURL: string | null } }
  | { type: 'ProviderLinked'; data: { provider: OAuthProvider; subject: string; email: string } }
  /** Two-factor sign-in (issue 30): two-factor/two-factor.events.ts. */
  | TwoFactorEvent
  /** Personal access tokens (issue 31): access-tokens/access-token.decider.ts. */
  | AccessTokenEvent;

export type UserEventType = UserEvent['type'];

export const userStream = (uid: string) => `user-${uid}`;
