import type { Projection } from '@gridrocket/read-store';
import type { UserEvent } from './domain/user.events';

/** The profile as `GET /api/auth/me` returns it. */
export interface UserDoc {
  id: string;
  uid: string;
  email: string;
  displayName: string;
  emailVerified: boolean;
  photoURL: string | null;
}

export interface SessionDoc {
  id: string; // SHA-256 of the session token
  uid: string;
  expiresAt: string;
}

/**
 * Finds the user behind an emailed link. Keyed by the token's digest (never the
 * token); whether a link is still good is decided by the user's stream alone.
 */
export interface UserTokenDoc {
  id: string; // HMAC-SHA-256 digest of the token
  uid: string;
  purpose: 'verify-email' | 'reset-password';
  expiresAt: string;
}

export const USERS = 'users';
export const USER_TOKENS = 'user_tokens';
export const SESSIONS = 'sessions';

export const usersProjection: Projection<UserDoc> = {
  name: 'users',
  collection: USERS,
  indexes: ['email'],
  filter: { streamPrefixes: ['user-'], eventTypes: ['UserRegistered', 'EmailVerified', 'ProfileUpdated'] },
  docId: (e) => e.streamId.slice('user-'.length),
  reduce(doc, event) {
    const e = { type: event.type, data: event.data } as UserEvent;
    switch (e.type) {
      case 'UserRegistered':
        return { id: e.data.uid, uid: e.data.uid, email: e.data.email, displayName: e.data.displayName, emailVerified: false, photoURL: e.data.photoURL };
      case 'EmailVerified':
        return doc ? { ...doc, emailVerified: true } : undefined;
      case 'ProfileUpdated':
        return doc ? { ...doc, displayName: e.data.displayName, photoURL: e.data.photoURL } : undefined;
      default:
        return undefined;
    }
  },
};

export const sessionsProjection: Projection<SessionDoc> = {
  name: 'sessions',
  collection: SESSIONS,
  indexes: ['uid'],
  filter: { streamPrefixes: ['user-'], eventTypes: ['UserSignedIn', 'UserSignedOut'] },
  docId: (e) => (e.data as { sessionId?: string }).sessionId ?? null,
  reduce(_doc, event) {
    const e = { type: event.type, data: event.data } as UserEvent;
    if (e.type === 'UserSignedIn') return { id: e.data.sessionId, uid: event.streamId.slice('user-'.length), expiresAt: e.data.expiresAt };
    if (e.type === 'UserSignedOut') return null;
    return undefined;
  },
};

export const userTokensProjection: Projection<UserTokenDoc> = {
  name: 'user-tokens',
  collection: USER_TOKENS,
  filter: { streamPrefixes: ['user-'], eventTypes: ['EmailVerificationRequested', 'PasswordResetRequested'] },
  docId: (e) => (e.data as { tokenDigest?: string }).tokenDigest ?? null,
  reduce(_doc, event) {
    const e = { type: event.type, data: event.data } as UserEvent;
    const uid = event.streamId.slice('user-'.length);
    if (e.type === 'EmailVerificationRequested') return { id: e.data.tokenDigest, uid, purpose: 'verify-email', expiresAt: e.data.expiresAt };
    if (e.type === 'PasswordResetRequested') return { id: e.data.tokenDigest, uid, purpose: 'reset-password', expiresAt: e.data.expiresAt };
    return undefined;
  },
};
