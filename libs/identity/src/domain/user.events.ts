/**
 * Events of a user's stream `user-<uid>`. Secrets never appear in clear: the
 * password hash is sealed with the master key, sessions appear only as the
 * SHA-256 of their token.
 */
export type UserEvent =
  | { type: 'UserRegistered'; data: { uid: string; email: string; displayName: string; photoURL: string | null; passwordHash: string | null; method: 'password' | 'google' | 'facebook' } }
  | { type: 'UserSignedIn'; data: { sessionId: string; expiresAt: string; method: 'password' | 'google' | 'facebook' } }
  | { type: 'UserSignedOut'; data: { sessionId: string } };

export const userStream = (uid: string) => `user-${uid}`;
