import { request } from './http';
import type { User } from './types';

/** Two-factor sign-in calls (issue 30): /api/auth/2fa. */
export interface TwoFactorStatus {
  enabled: boolean;
  setupStarted: boolean;
  recoveryCodesLeft: number;
}

export const twoFactorApi = {
  status: () => request<TwoFactorStatus>({ url: '/api/auth/2fa' }),
  setup: () => request<{ secret: string; otpauthUri: string }>({ url: '/api/auth/2fa/setup', method: 'POST' }),
  enable: (code: string) => request<{ enabled: true; recoveryCodes: string[]; message: string }>({ url: '/api/auth/2fa/enable', method: 'POST', body: { code } }),
  disable: (body: { code: string } | { recoveryCode: string }) => request<{ enabled: false; message: string }>({ url: '/api/auth/2fa/disable', method: 'POST', body }),
  verify: (body: ({ code: string } | { recoveryCode: string }) & { remember: boolean }) => request<User>({ url: '/api/auth/2fa/verify', method: 'POST', body }),
};

/** The path the sign-in's code step lives at (the password step and the provider popup send here). */
export const CODE_STEP_PATH = '/sign-in?step=code';
