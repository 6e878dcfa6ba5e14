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

export const USERS = 'users';
export const SESSIONS = 'sessions';

export const usersProjection: Projection<UserDoc> = {
  name: 'users',
  collection: USERS,
  indexes: ['email'],
  filter: { streamPrefixes: ['user-'] },
  docId: (e) => e.streamId.slice('user-'.length),
  reduce(doc, event) {
    const e = { type: event.type, data: event.data } as UserEvent;
    switch (e.type) {
      case 'UserRegistered':
        return { id: e.data.uid, uid: e.data.uid, email: e.data.email, displayName: e.data.displayName, emailVerified: false, photoURL: e.data.photoURL };
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
