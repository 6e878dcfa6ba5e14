import { resolve } from 'node:path';

/** Everything the deployment decides, from the environment. Adapter choice is configuration only. */
export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  publicUrl: string;
  eventStore: { kind: 'sqlite' } | { kind: 'kurrentdb'; url: string };
  readStore: { kind: 'sqlite' } | { kind: 'mongodb'; url: string };
  cookieSecure: boolean;
  sessionDays: number;
  /** Serve the built dashboard from this folder (SPA fallback), when it exists. */
  webDist: string;
  /** Host the bot runner in this process (embedded mode). */
  embeddedRunner: boolean;
  logLevel: string;
  contactEmail: string;
  exchangeSignup: { binance: string; kucoin: string };
  social: { twitter: string; telegram: string; github: string };
}

export const APP_CONFIG = Symbol('APP_CONFIG');

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<AppConfig> = {}): AppConfig {
  const port = Number(env.PORT ?? 3000);
  const host = env.HOST ?? '127.0.0.1';
  const config: AppConfig = {
    port: Number.isInteger(port) && port >= 0 ? port : 3000,
    host,
    dataDir: resolve(env.DATA_DIR ?? './data'),
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port || 3000}`).replace(/\/$/, ''),
    eventStore: env.KURRENTDB_URL ? { kind: 'kurrentdb', url: env.KURRENTDB_URL } : { kind: 'sqlite' },
    readStore: env.MONGO_URL ? { kind: 'mongodb', url: env.MONGO_URL } : { kind: 'sqlite' },
    cookieSecure: env.COOKIE_SECURE === 'true',
    sessionDays: Number(env.SESSION_DAYS ?? 7),
    webDist: resolve(env.WEB_DIST ?? 'frontend/dist'),
    embeddedRunner: env.EMBEDDED_RUNNER !== 'false',
    logLevel: env.LOG_LEVEL ?? 'info',
    contactEmail: env.CONTACT_EMAIL ?? 'hello@gridrocket.example',
    exchangeSignup: {
      binance: env.BINANCE_SIGNUP_URL ?? 'https://accounts.binance.com/register',
      kucoin: env.KUCOIN_SIGNUP_URL ?? 'https://www.kucoin.com/ucenter/signup',
    },
    social: {
      twitter: env.SOCIAL_TWITTER ?? 'https://x.com/gridrocket',
      telegram: env.SOCIAL_TELEGRAM ?? 'https://t.me/gridrocket',
      github: env.SOCIAL_GITHUB ?? 'https://github.com/gridrocket',
    },
  };
  return { ...config, ...overrides };
}
