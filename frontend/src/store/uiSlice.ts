import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export type ToastKind = 'success' | 'error' | 'info';
export interface Toast {
  id: number;
  kind: ToastKind;
  text: string;
  detail?: string;
}
export type LoginPanel = 'login' | 'register' | 'forgot';
export type PendingOp = 'start' | 'stop';

export interface UiState {
  spinner: number;
  toasts: Toast[];
  alert: { message: string } | null;
  loginDialog: LoginPanel | null;
  socketConnected: boolean;
  /** bots whose start or stop we asked for and whose outcome we are waiting for */
  pending: Record<string, PendingOp>;
}

const initialState: UiState = {
  spinner: 0,
  toasts: [],
  alert: null,
  loginDialog: null,
  socketConnected: false,
  pending: {},
};

let nextToast = 1;

const uiSlice = createSlice({
  name: 'ui',
  initialState,
  reducers: {
    showSpinner(state) {
      state.spinner += 1;
    },
    hideSpinner(state) {
      state.spinner = Math.max(0, state.spinner - 1);
    },
    resetSpinner(state) {
      state.spinner = 0;
    },
    toast: {
      reducer(state, action: PayloadAction<Toast>) {
        state.toasts.push(action.payload);
        if (state.toasts.length > 5) state.toasts.shift();
      },
      prepare(kind: ToastKind, text: string, detail?: string) {
        return { payload: { id: nextToast++, kind, text, detail } };
      },
    },
    dismissToast(state, action: PayloadAction<number>) {
      state.toasts = state.toasts.filter((t) => t.id !== action.payload);
    },
    showAlert(state, action: PayloadAction<string>) {
      state.alert = { message: action.payload };
    },
    closeAlert(state) {
      state.alert = null;
    },
    openLoginDialog(state, action: PayloadAction<LoginPanel | undefined>) {
      state.loginDialog = action.payload ?? 'login';
    },
    closeLoginDialog(state) {
      state.loginDialog = null;
    },
    setSocketConnected(state, action: PayloadAction<boolean>) {
      state.socketConnected = action.payload;
    },
    setPending(state, action: PayloadAction<{ id: string; op: PendingOp }>) {
      state.pending[action.payload.id] = action.payload.op;
    },
    clearPending(state, action: PayloadAction<string>) {
      delete state.pending[action.payload];
    },
  },
});

export const ui = uiSlice.actions;
export default uiSlice.reducer;
