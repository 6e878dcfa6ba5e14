import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { User } from '../api/types';

/** Spec section 3: the signed-in user is kept in local storage under 'user' (null when signed out). */
export function loadStoredUser(): User | null {
  try {
    const raw = window.localStorage.getItem('user');
    if (!raw) return null;
    const u = JSON.parse(raw);
    return u && typeof u === 'object' && typeof u.uid === 'string' ? (u as User) : null;
  } catch {
    return null;
  }
}

function storeUser(user: User | null) {
  try {
    window.localStorage.setItem('user', JSON.stringify(user));
  } catch {
    /* private mode: the session cookie still works */
  }
}

export interface AuthState {
  user: User | null;
  /** true once GET /api/auth/me has answered */
  checked: boolean;
}

const authSlice = createSlice({
  name: 'auth',
  initialState: (): AuthState => ({ user: loadStoredUser(), checked: false }),
  reducers: {
    setUser(state, action: PayloadAction<User | null>) {
      state.user = action.payload;
      state.checked = true;
      storeUser(action.payload);
    },
  },
});

export const { setUser } = authSlice.actions;
export default authSlice.reducer;
