import type { Answer } from './api/contract';
import { signupKey, VENUES } from './venues';

/**
 * Runtime configuration. Never read from build-time env (jest loads this as CommonJS):
 * an optional `window.__GRIDROCKET__` object (set by the server or a test) wins over
 * `GET /api/config`, and both fall back to the defaults below.
 */
export type AppConfig = Answer<'/api/config', 'get'>;

export const defaultConfig: AppConfig = {
  contactEmail: 'support@gridrocket.local',
  social: { twitter: 'https://x.com/', telegram: 'https://t.me/', github: 'https://github.com/' },
  exchangeSignup: Object.fromEntries(VENUES.map((v) => [signupKey(v), v.signupUrl])) as AppConfig['exchangeSignup'],
  providers: { google: false, facebook: false },
};

declare global {
  interface Window {
    __GRIDROCKET__?: Partial<AppConfig>;
  }
}

export function windowConfig(): Partial<AppConfig> | undefined {
  return typeof window !== 'undefined' ? window.__GRIDROCKET__ : undefined;
}

export function mergeConfig(...parts: Array<Partial<AppConfig> | undefined | null>): AppConfig {
  const out: AppConfig = JSON.parse(JSON.stringify(defaultConfig));
  for (const p of parts) {
    if (!p || typeof p !== 'object') continue;
    if (typeof p.contactEmail === 'string') out.contactEmail = p.contactEmail;
    if (p.social) out.social = { ...out.social, ...p.social };
    if (p.exchangeSignup) out.exchangeSignup = { ...out.exchangeSignup, ...p.exchangeSignup };
    if (p.providers) out.providers = { ...out.providers, ...p.providers };
  }
  return out;
}
