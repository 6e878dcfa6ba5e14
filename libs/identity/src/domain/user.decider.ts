import { ConflictError, Decider, UnauthorizedError } from '@gridrocket/shared';
import { UserEvent } from './user.events';

export interface UserState {
  exists: boolean;
  uid: string | null;
  email: string | null;
  displayName: string;
  photoURL: string | null;
  passwordHash: string | null;
  emailVerified: boolean;
  sessions: Set<string>;
}

export type UserCommand =
  | { type: 'Register'; uid: string; email: string; passwordHash: string; displayName?: string }
  | { type: 'SignIn'; sessionId: string; expiresAt: string; method: 'password' | 'google' | 'facebook' }
  | { type: 'SignOut'; sessionId: string };

export const EMAIL_TAKEN = 'An account with this email already exists';

export const initialUserState: UserState = {
  exists: false,
  uid: null,
  email: null,
  displayName: '',
  photoURL: null,
  passwordHash: null,
  emailVerified: false,
  sessions: new Set(),
};

export function decideUser(command: UserCommand, state: UserState): UserEvent[] {
  switch (command.type) {
    case 'Register':
      if (state.exists) throw new ConflictError(EMAIL_TAKEN);
      return [
        {
          type: 'UserRegistered',
          data: { uid: command.uid, email: command.email, displayName: command.displayName ?? '', photoURL: null, passwordHash: command.passwordHash, method: 'password' },
        },
      ];
    case 'SignIn':
      if (!state.exists) throw new UnauthorizedError('Invalid email or password');
      return [{ type: 'UserSignedIn', data: { sessionId: command.sessionId, expiresAt: command.expiresAt, method: command.method } }];
    case 'SignOut':
      if (!state.sessions.has(command.sessionId)) return [];
      return [{ type: 'UserSignedOut', data: { sessionId: command.sessionId } }];
  }
}

export function evolveUser(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserRegistered':
      return {
        ...state,
        exists: true,
        uid: event.data.uid,
        email: event.data.email,
        displayName: event.data.displayName,
        photoURL: event.data.photoURL,
        passwordHash: event.data.passwordHash,
      };
    case 'UserSignedIn':
      return { ...state, sessions: new Set(state.sessions).add(event.data.sessionId) };
    case 'UserSignedOut': {
      const sessions = new Set(state.sessions);
      sessions.delete(event.data.sessionId);
      return { ...state, sessions };
    }
    default:
      return state;
  }
}

export const userDecider: Decider<UserCommand, UserEvent, UserState> = {
  initialState: initialUserState,
  decide: decideUser,
  evolve: evolveUser,
};
