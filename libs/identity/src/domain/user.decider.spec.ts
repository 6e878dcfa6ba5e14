import { ConflictError, NotFoundError, QuotaExceededError, UnauthorizedError, ValidationError } from '@gridrocket/shared';
import { deciderSpec } from '@gridrocket/shared/testing/decider-spec';
import {
  PROVIDER_EMAIL_UNVERIFIED,
  RESET_LINK_EXPIRED,
  RESET_LINK_INVALID,
  UserCommand,
  VERIFY_LINK_EXPIRED,
  VERIFY_LINK_INVALID,
  userDecider,
} from './user.decider';
import { UserEvent } from './user.events';

const registered: UserEvent = {
  type: 'UserRegistered',
  data: { uid: 'u1', email: 'ann@example.com', displayName: '', photoURL: null, passwordHash: 'sealed-1', method: 'password' },
};
const signedIn = (sessionId: string, expiresAt = '2030-01-01T00:00:00.000Z'): UserEvent => ({ type: 'UserSignedIn', data: { sessionId, expiresAt, method: 'password' } });
const verifyRequested = (tokenDigest: string, expiresAt = '2025-01-02T00:00:00.000Z'): UserEvent => ({ type: 'EmailVerificationRequested', data: { tokenDigest, expiresAt } });
const resetRequested = (tokenDigest: string, expiresAt = '2025-01-01T01:00:00.000Z'): UserEvent => ({ type: 'PasswordResetRequested', data: { tokenDigest, expiresAt } });
const verified: UserEvent = { type: 'EmailVerified', data: { email: 'ann@example.com', method: 'link' } };
const NOW = '2025-01-01T00:30:00.000Z';

const { given } = deciderSpec(userDecider);

describe('user decider', () => {
  describe('register and sign in', () => {
    it('given nothing, when registering, then UserRegistered with the sealed hash', () => {
      given().when({ type: 'Register', uid: 'u1', email: 'ann@example.com', passwordHash: 'sealed-1' }).then(registered);
    });
    it('given a user, when registering the same address, then 409', () => {
      given(registered).when({ type: 'Register', uid: 'u1', email: 'ann@example.com', passwordHash: 'x' }).thenThrows(ConflictError);
    });
    it('refuses a password sign-in checked against a hash that has changed since', () => {
      const changed: UserEvent = { type: 'PasswordChanged', data: { passwordHash: 'sealed-2', method: 'reset-link' } };
      given(registered, changed)
        .when({ type: 'SignIn', sessionId: 's1', expiresAt: NOW, method: 'password', checkedPasswordHash: 'sealed-1' })
        .thenThrows(UnauthorizedError, 'Invalid email or password');
      given(registered, changed)
        .when({ type: 'SignIn', sessionId: 's1', expiresAt: NOW, method: 'password', checkedPasswordHash: 'sealed-2' })
        .then({ type: 'UserSignedIn', data: { sessionId: 's1', expiresAt: NOW, method: 'password' } });
    });
    it('refuses a provider sign-in for a provider that is not linked', () => {
      given(registered).when({ type: 'SignIn', sessionId: 's1', expiresAt: NOW, method: 'google' }).thenThrows(UnauthorizedError, 'not linked to Google');
    });
    it('given QUOTA_SESSIONS live sessions, when signing in, then 409 (sessions expired or signed out do not count)', () => {
      const signIn = { type: 'SignIn', sessionId: 's9', expiresAt: '2030-01-01T00:00:00.000Z', method: 'password', checkedPasswordHash: 'sealed-1', maxSessions: 2, now: NOW } as const;
      given(registered, signedIn('s1'), signedIn('s2'))
        .when(signIn)
        .thenThrows(QuotaExceededError, 'Limit reached: at most 2 signed-in sessions per user. Sign out on another device, or wait until an old session expires.');
      given(registered, signedIn('s1'), signedIn('s2', '2024-01-01T00:00:00.000Z'))
        .when(signIn)
        .then({ type: 'UserSignedIn', data: { sessionId: 's9', expiresAt: '2030-01-01T00:00:00.000Z', method: 'password' } });
      given(registered, signedIn('s1'), signedIn('s2'), { type: 'UserSignedOut', data: { sessionId: 's2', reason: 'logout' } })
        .when(signIn)
        .then({ type: 'UserSignedIn', data: { sessionId: 's9', expiresAt: '2030-01-01T00:00:00.000Z', method: 'password' } });
    });
  });

  describe('sessions under the user\'s control (issue 30)', () => {
    it('a sign-in records the browser and address it was given', () => {
      given(registered)
        .when({ type: 'SignIn', sessionId: 's1', expiresAt: NOW, method: 'password', checkedPasswordHash: 'sealed-1', browser: 'Chrome on Linux', address: '10.0.0.1' })
        .then({ type: 'UserSignedIn', data: { sessionId: 's1', expiresAt: NOW, method: 'password', browser: 'Chrome on Linux', address: '10.0.0.1' } });
    });
    it('sign out everywhere ends every live session but the one kept', () => {
      given(registered, signedIn('s1'), signedIn('s2'), signedIn('s3'), signedIn('old', '2024-01-01T00:00:00.000Z'))
        .when({ type: 'SignOutOthers', keep: 's2', now: NOW })
        .then({ type: 'UserSignedOut', data: { sessionId: 's1', reason: 'revoked' } }, { type: 'UserSignedOut', data: { sessionId: 's3', reason: 'revoked' } });
      given(registered, signedIn('s1')).when({ type: 'SignOutOthers', keep: 's1', now: NOW }).then();
    });
    it('signing out another session records why; an ended session ends nothing', () => {
      given(registered, signedIn('s1'), signedIn('s2'))
        .when({ type: 'SignOut', sessionId: 's2', reason: 'revoked' })
        .then({ type: 'UserSignedOut', data: { sessionId: 's2', reason: 'revoked' } });
      given(registered, signedIn('s1'), { type: 'UserSignedOut', data: { sessionId: 's1', reason: 'logout' } }).when({ type: 'SignOut', sessionId: 's1', reason: 'revoked' }).then();
    });
    it('"seen" is recorded for a live session only', () => {
      given(registered, signedIn('s1')).when({ type: 'RecordSessionSeen', sessionId: 's1', address: '10.0.0.2' }).then({ type: 'SessionSeen', data: { sessionId: 's1', address: '10.0.0.2' } });
      given(registered).when({ type: 'RecordSessionSeen', sessionId: 'gone' }).then();
    });
    it('a registration attempt on an existing account is recorded; its owner is mailed at most once an hour; on no account it is refused', () => {
      const attempted = (at: string, mailed: boolean): UserEvent => ({ type: 'RegistrationAttempted', data: { at, mailed } });
      given(registered).when({ type: 'NoteRegistrationAttempt', now: NOW }).then(attempted(NOW, true));
      given(registered, attempted('2025-01-01T00:00:00.000Z', true)).when({ type: 'NoteRegistrationAttempt', now: NOW }).then(attempted(NOW, false));
      // an attempt that was not mailed does not move the hour on
      given(registered, attempted('2024-12-31T23:00:00.000Z', true), attempted('2025-01-01T00:20:00.000Z', false))
        .when({ type: 'NoteRegistrationAttempt', now: NOW })
        .then(attempted(NOW, true));
      given().when({ type: 'NoteRegistrationAttempt', now: NOW }).thenThrows(NotFoundError);
    });
    it('the mail a registration promises is requested in its own append (issue 31): a new account\'s verification link, a mailed notice\'s reset link', () => {
      const link = { tokenDigest: 'd1', expiresAt: '2025-01-02T00:00:00.000Z', tokenSeed: 's1' };
      given()
        .when({ type: 'Register', uid: 'u1', email: 'ann@example.com', passwordHash: 'sealed-1', verification: link })
        .then(registered, { type: 'EmailVerificationRequested', data: link });
      const attempted = (at: string, mailed: boolean): UserEvent => ({ type: 'RegistrationAttempted', data: { at, mailed } });
      given(registered)
        .when({ type: 'NoteRegistrationAttempt', now: NOW, reset: link })
        .then(attempted(NOW, true), { type: 'PasswordResetRequested', data: { ...link, reason: 'registration-attempt' } });
      // not mailed within the hour: no new link either (the owner's earlier one stays valid)
      given(registered, attempted('2025-01-01T00:00:00.000Z', true)).when({ type: 'NoteRegistrationAttempt', now: NOW, reset: link }).then(attempted(NOW, false));
    });
  });

  describe('email verification', () => {
    it('given a pending link, when it is used in time, then EmailVerified', () => {
      given(registered, verifyRequested('d1')).when({ type: 'VerifyEmail', tokenDigest: 'd1', now: NOW }).then(verified);
    });
    it('given a newer link, when the older one is used, then it is refused', () => {
      given(registered, verifyRequested('d1'), verifyRequested('d2'))
        .when({ type: 'VerifyEmail', tokenDigest: 'd1', now: NOW })
        .thenThrows(ValidationError, VERIFY_LINK_INVALID);
    });
    it('given a used link, when it is used again, then it is refused', () => {
      given(registered, verifyRequested('d1'), verified).when({ type: 'VerifyEmail', tokenDigest: 'd1', now: NOW }).thenThrows(ValidationError, VERIFY_LINK_INVALID);
    });
    it('given a link past its expiry, then it is refused as expired', () => {
      given(registered, verifyRequested('d1', '2025-01-01T00:00:00.000Z'))
        .when({ type: 'VerifyEmail', tokenDigest: 'd1', now: NOW })
        .thenThrows(ValidationError, VERIFY_LINK_EXPIRED);
    });
    it('given a verified address, when asked for a new link, then nothing happens', () => {
      given(registered, verified).when({ type: 'RequestEmailVerification', tokenDigest: 'd3', expiresAt: NOW }).then();
    });
  });

  describe('password reset', () => {
    it('given a pending reset link, when used, then the password changes, the address counts as verified and open sessions end', () => {
      given(registered, signedIn('s1'), signedIn('s2', '2024-01-01T00:00:00.000Z'), resetRequested('r1'))
        .when({ type: 'ResetPassword', tokenDigest: 'r1', passwordHash: 'sealed-2', now: NOW })
        .then(
          { type: 'PasswordChanged', data: { passwordHash: 'sealed-2', method: 'reset-link' } },
          { type: 'EmailVerified', data: { email: 'ann@example.com', method: 'reset-link' } },
          { type: 'UserSignedOut', data: { sessionId: 's1', reason: 'password-changed' } },
        );
    });
    it('is single-use', () => {
      const changed: UserEvent = { type: 'PasswordChanged', data: { passwordHash: 'sealed-2', method: 'reset-link' } };
      given(registered, resetRequested('r1'), changed)
        .when({ type: 'ResetPassword', tokenDigest: 'r1', passwordHash: 'sealed-3', now: NOW })
        .thenThrows(ValidationError, RESET_LINK_INVALID);
    });
    it('refuses an expired link', () => {
      given(registered, resetRequested('r1', '2025-01-01T00:29:59.999Z'))
        .when({ type: 'ResetPassword', tokenDigest: 'r1', passwordHash: 'sealed-2', now: NOW })
        .thenThrows(ValidationError, RESET_LINK_EXPIRED);
    });
  });

  describe('profile', () => {
    it('records a change, keeps the photo when none is given, and ignores a no-op', () => {
      given(registered).when({ type: 'UpdateProfile', displayName: 'Ann Lee' }).then({ type: 'ProfileUpdated', data: { displayName: 'Ann Lee', photoURL: null } });
      const updated: UserEvent = { type: 'ProfileUpdated', data: { displayName: 'Ann Lee', photoURL: 'https://x/p.png' } };
      given(registered, updated).when({ type: 'UpdateProfile', displayName: 'Ann Lee' }).then();
      given(registered, updated).when({ type: 'UpdateProfile', displayName: 'Ann Lee', photoURL: null }).then({ type: 'ProfileUpdated', data: { displayName: 'Ann Lee', photoURL: null } });
    });
  });

  describe('providers', () => {
    const link = (emailVerified: boolean): UserCommand => ({ type: 'LinkProvider', provider: 'google', subject: 'g-1', emailVerified, now: NOW });
    it('registers a new user with the provider linked and the address verified', () => {
      given()
        .when({ type: 'Register', uid: 'u1', email: 'ann@example.com', passwordHash: null, displayName: 'Ann Lee', photoURL: 'https://p/a.png', provider: { provider: 'google', subject: 'g-1', emailVerified: true } })
        .then(
          { type: 'UserRegistered', data: { uid: 'u1', email: 'ann@example.com', displayName: 'Ann Lee', photoURL: 'https://p/a.png', passwordHash: null, method: 'google' } },
          { type: 'ProviderLinked', data: { provider: 'google', subject: 'g-1', email: 'ann@example.com' } },
          { type: 'EmailVerified', data: { email: 'ann@example.com', method: 'google' } },
        );
    });
    it('links a verified provider address to a verified account', () => {
      given(registered, verified).when(link(true)).then({ type: 'ProviderLinked', data: { provider: 'google', subject: 'g-1', email: 'ann@example.com' } });
    });
    it('refuses to link when the provider does not vouch for the address', () => {
      given(registered, verified).when(link(false)).thenThrows(ConflictError, PROVIDER_EMAIL_UNVERIFIED);
    });
    it('when the account was never verified, the provider owner claims it: the unverified password and sessions end', () => {
      given(registered, signedIn('s1'))
        .when(link(true))
        .then(
          { type: 'PasswordChanged', data: { passwordHash: null, method: 'account-claimed' } },
          { type: 'UserSignedOut', data: { sessionId: 's1', reason: 'account-claimed' } },
          { type: 'EmailVerified', data: { email: 'ann@example.com', method: 'google' } },
          { type: 'ProviderLinked', data: { provider: 'google', subject: 'g-1', email: 'ann@example.com' } },
        );
    });
    it('signing in again with the same provider account changes nothing; another account of that provider is refused', () => {
      const linked: UserEvent = { type: 'ProviderLinked', data: { provider: 'google', subject: 'g-1', email: 'ann@example.com' } };
      given(registered, verified, linked).when(link(true)).then();
      given(registered, verified, linked).when({ ...link(true), subject: 'g-2' } as UserCommand).thenThrows(ConflictError);
    });
  });
});
