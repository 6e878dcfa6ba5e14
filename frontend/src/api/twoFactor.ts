import { apiPath, type Answer, type Body } from './contract';
import { request } from './http';

/** Two-factor sign-in calls (issue 30): /api/auth/2fa. */
export type TwoFactorStatus = Answer<'/api/auth/2fa', 'get'>;

export const twoFactorApi = {
  status: () => request<TwoFactorStatus>({ url: apiPath('/api/auth/2fa') }),
  setup: () => request<Answer<'/api/auth/2fa/setup', 'post'>>({ url: apiPath('/api/auth/2fa/setup'), method: 'POST' }),
  enable: (code: string) => request<Answer<'/api/auth/2fa/enable', 'post'>>({ url: apiPath('/api/auth/2fa/enable'), method: 'POST', body: { code } satisfies Body<'/api/auth/2fa/enable', 'post'> }),
  disable: (body: Body<'/api/auth/2fa/disable', 'post'>) => request<Answer<'/api/auth/2fa/disable', 'post'>>({ url: apiPath('/api/auth/2fa/disable'), method: 'POST', body }),
  verify: (body: Body<'/api/auth/2fa/verify', 'post'>) => request<Answer<'/api/auth/2fa/verify', 'post'>>({ url: apiPath('/api/auth/2fa/verify'), method: 'POST', body }),
};

/** The path the sign-in's code step lives at (the password step and the provider popup send here). */
export const CODE_STEP_PATH = '/sign-in?step=code';
