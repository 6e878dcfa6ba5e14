import { isIP } from 'node:net';
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
  /**
   * RECENT_SIGN_IN_SECONDS (default 300): for this long after signing in, a session may set up or turn off
   * two-factor sign-in, make an access token or change the alert channels without typing the password
   * again (issue 38); 0: the password every time.
   */
  recentSignInSeconds: number;
  /** Serve the built dashboard from this folder (SPA fallback), when it exists. */
  webDist: string;
  /** Host the bot runner in this process (embedded mode). */
  embeddedRunner: boolean;
  /** Run the projections (and so the pushes) in this process; the API does, a scaled-out runner does not. */
  projections: boolean;
  logLevel: string;
  contactEmail: string;
  /** Operators' sign-up links by exchange (`<NAME>_SIGNUP_URL`, the name in lower case); the venues' own otherwise (libs/exchanges signupLinks). */
  exchangeSignup: Record<string, string>;
  social: { twitter: string; telegram: string; github: string };
  /** Outgoing mail: `.eml` files under DATA_DIR/mail unless SMTP_URL is set. */
  mail: MailConfig;
  /** Google and Facebook sign-in; null when the provider is not configured. */
  oauth: { google: OAuthProviderConfig | null; facebook: OAuthProviderConfig | null };
  /** Rate limits on login, register, forgot-password and resend-verification. */
  authThrottle: AuthThrottleConfig;
  /**
   * Express's `trust proxy` (TRUST_PROXY): which peers' X-Forwarded-For decides the client address that the
   * auth limits count by. `loopback` (default), a hop count, a list of names/addresses/CIDR ranges, or
   * false (never trust the header).
   */
  trustProxy: TrustProxy;
  /** Lifetimes of the emailed links, in seconds (24 h to verify, 1 h to reset). */
  tokenTtl: { verifyEmailSeconds: number; resetPasswordSeconds: number };
  /** Which exchange adapter serves balances, prices and orders: the paper exchange (default) or ccxt. */
  exchangeMode: 'paper' | 'live' | 'testnet';
  /** Paper exchange: replay this CSV (`ms,exchange,symbol,price`) instead of the seeded random walk. */
  paperPrices: string | null;
  /**
   * Paper exchange: which feed prices it (issue 39, libs/exchanges paper-feed.setup.ts): PAPER_FEED
   * walk | csv | venue (the venues' public ticker streams), PAPER_FEED_VENUES, PAPER_FEED_ORIGIN.
   */
  paperFeed: { kind: string | null; venues: string | null; origin: string | null };
  /** live/testnet: send every exchange API call to this origin instead (tests, a private gateway). */
  exchangeApiOrigin: string | null;
  /**
   * live/testnet (issue 39, docs/exchanges.md "Streams and rate limits"): the share of each venue's request
   * limit the whole install may use (VENUE_BUDGET_SHARE, a fraction above 0 and at most 1, default 0.5).
   */
  venueBudgetShare: number;
  /**
   * API-key permission checks (issue 30, docs/exchanges.md "Key permissions"): `egressIps` (EGRESS_IP,
   * comma-separated addresses) are the addresses this server calls the venues from, which the key list tells
   * users to allow on an unrestricted key (unknown when empty: the list says "the address of this server");
   * each stored key is asked again every `recheckHours` (KEY_RECHECK_HOURS, default 24).
   */
  keyChecks: { egressIps: string[]; recheckHours: number };
  /** Kafka brokers (KAFKA_BROKERS, comma-separated); empty: the in-process stream. */
  kafkaBrokers: string[];
  /** Run the event forwarder in this process (FORWARDER=false on extra API replicas and CLIs). */
  forwarder: boolean;
  /** Emails of auditors (AUDITOR_EMAILS, comma-separated, lowercase): read any bot's history, change nothing. */
  auditorEmails: string[];
  /** When set, GET /metrics needs `Authorization: Bearer <METRICS_TOKEN>`. */
  metricsToken: string | null;
  /** METRICS_PUBLIC=true: GET /metrics open to anyone without a token (closed by default: 403). */
  metricsPublic: boolean;
  /** Per-user limits (QUOTA_BOTS, QUOTA_KEYS, QUOTA_SESSIONS, QUOTA_SOCKETS); beyond them a 409 says which. */
  quotas: QuotaConfig;
  /** Uploaded CSVs of candles per user (UPLOAD_MAX_FILES, UPLOAD_MAX_BYTES); beyond them a 409 says which. */
  uploads: { maxFiles: number; maxBytes: number };
  /**
   * The backtest job runner: worker threads (BACKTEST_WORKERS, default min(2, cores); 0 = that default)
   * and the computing budget of one backtest or sweep (BACKTEST_BUDGET_SECONDS, default 600), and the
   * nice value of the threads doing heavy work (BACKTEST_NICE, 0–19, default 10; 0: normal priority).
   * Issue 40, the history a backtest runs over (docs/backtest.md "Histories"): BACKTEST_HISTORY `venue`
   * (default: the venue's own candles through ccxt's public OHLCV where the server reaches it, else the
   * fixed, seeded history labelled simulated) or `simulated` (never asks the venue: offline installs, tests);
   * BACKTEST_CANDLES_ORIGIN sends those public calls to another origin, one for all or `binance=http://…,…`
   * per ccxt id (tests: a stand-in; a gateway); live/testnet default: EXCHANGE_API_ORIGIN.
   */
  backtests: { workers: number; budgetSeconds: number; nice: number; history: 'venue' | 'simulated'; candlesOrigin: string | null };
  /** Per-user alerts (libs/alerts, issue 29). */
  alerts: AlertsConfig;
}

/**
 * Alerts (issue 29, libs/alerts): `allowPrivateUrls` (ALERTS_ALLOW_PRIVATE_URLS=true) lets webhooks go to
 * loopback/private addresses (tests, a self-hosted receiver on the same network; off by default);
 * `telegramApi` (ALERTS_TELEGRAM_API) is the Bot API's origin (tests: a stand-in); webhook retries:
 * ALERTS_MAX_ATTEMPTS (default 5) tries, the n-th retry after ALERTS_RETRY_BASE_MS × 2^(n-1) (default
 * 1000 ms); rate limit: ALERTS_RATE_LIMIT messages (default 20) per user and channel per
 * ALERTS_RATE_WINDOW_SECONDS (default 60); `dispatcher` (ALERTS_DISPATCHER=false turns it off): whether this
 * process sends the alerts when it runs the projections. One per deployment: two would each send every
 * alert (nothing claims a delivery before it goes out), so extra API replicas set ALERTS_DISPATCHER=false.
 */
export interface AlertsConfig {
  dispatcher: boolean;
  allowPrivateUrls: boolean;
  telegramApi: string;
  maxAttempts: number;
  retryBaseMs: number;
  rateLimit: number;
  rateWindowSeconds: number;
}

export interface QuotaConfig {
  bots: number;
  keys: number;
  sessions: number;
  sockets: number;
}

export const APP_CONFIG = Symbol('APP_CONFIG');

/**
 * Mail (libs/identity/src/mail): SMTP when SMTP_URL is set, else .eml files. The outbox (issue 31) sends
 * every identity mail from the event that asked for it, retrying until the server takes it: the n-th retry
 * after MAIL_RETRY_BASE_MS × 2^(n-1) (default 1000 ms), at most MAIL_RETRY_MAX_MS apart (default 300000 ms,
 * 5 minutes). `outbox` (MAIL_OUTBOX=false turns it off): whether this process sends the mails when it runs
 * the projections; one per deployment, like the alert dispatcher (extra API replicas set MAIL_OUTBOX=false).
 */
export interface MailConfig {
  smtpUrl: string | null;
  from: string;
  outbox: boolean;
  retryBaseMs: number;
  retryMaxMs: number;
}

export interface OAuthProviderConfig {
  clientId: string;
  clientSecret: string;
  authorizationUrl: string;
  tokenUrl: string;
  profileUrl: string;
}

export interface AuthThrottleConfig {
  enabled: boolean;
  /** Points per IP address per window for register, forgot-password and resend-verification (1 each). */
  perIp: number;
  /**
   * Points per email address per window (each forgot and resend costs 1); also the free failed logins of
   * one account from one client (a known browser, or else an address) before its delays start.
   */
  perEmail: number;
  /** Free failed logins of one account from all browsers without its device cookie, whatever their address. */
  perAccount: number;
  /** Failed logins per IP address per window from browsers without a device cookie (a budget of its own). */
  loginPerIp: number;
  windowSeconds: number;
}

/** Express `trust proxy` values we accept: false, a hop count, or names (loopback …), addresses and CIDR ranges. */
export type TrustProxy = false | number | string | string[];

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * Parses TRUST_PROXY with Express's semantics, refusing what Express would take silently: `true` (trust
 * every peer, so anyone could choose their own address), names Express does not know, and malformed
 * addresses or prefixes (proxy-addr would throw only at the first request).
 */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const v = (value ?? '').trim();
  if (v === '') return 'loopback';
  const fail = (why: string) => new Error(`TRUST_PROXY ${why} (got ${JSON.stringify(value)}): give a hop count, loopback, or proxy addresses/CIDR ranges separated by commas, or false`);
  if (/^(false|none)$/i.test(v)) return false;
  if (/^true$/i.test(v)) throw fail('true would trust every peer: anyone could pick the address the limits count by');
  if (/^[-+]?\d+(\.\d*)?$/.test(v)) {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) throw fail('must be a whole number of hops');
    return n === 0 ? false : n;
  }
  const items = v.split(',').map((x) => x.trim()).filter(Boolean);
  for (const item of items) {
    if (PROXY_NAMES.includes(item)) continue;
    const [addr, prefix, extra] = item.split('/');
    const family = isIP(addr);
    if (!family || extra !== undefined) throw fail(`has ${JSON.stringify(item)}, which is not an address or CIDR range`);
    if (prefix !== undefined && (!/^\d{1,3}$/.test(prefix) || Number(prefix) > (family === 4 ? 32 : 128))) throw fail(`has a bad prefix in ${JSON.stringify(item)}`);
  }
  return items.length === 1 ? items[0] : items;
}

function positiveNumber(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(n) && n > 0 ? n : fallback;
}

function oauthProvider(
  env: NodeJS.ProcessEnv,
  prefix: 'GOOGLE' | 'FACEBOOK',
  defaults: { authorizationUrl: string; tokenUrl: string; profileUrl: string },
): OAuthProviderConfig | null {
  const clientId = env[`${prefix}_CLIENT_ID`];
  const clientSecret = env[`${prefix}_CLIENT_SECRET`];
  if (!clientId || !clientSecret) return null;
  return {
    clientId,
    clientSecret,
    authorizationUrl: env[`${prefix}_AUTHORIZATION_URL`] || defaults.authorizationUrl,
    tokenUrl: env[`${prefix}_TOKEN_URL`] || defaults.tokenUrl,
    profileUrl: env[`${prefix}_PROFILE_URL`] || defaults.profileUrl,
  };
}

const EXCHANGE_MODES = ['paper', 'live', 'testnet'] as const;

function exchangeModeOf(value: string | undefined): AppConfig['exchangeMode'] {
  const v = (value ?? 'paper').trim().toLowerCase() || 'paper';
  if (!(EXCHANGE_MODES as readonly string[]).includes(v)) throw new Error(`EXCHANGE_MODE must be paper, live or testnet (got ${JSON.stringify(value)})`);
  return v as AppConfig['exchangeMode'];
}

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
    recentSignInSeconds: Math.max(0, Number(env.RECENT_SIGN_IN_SECONDS ?? 300) || 0),
    webDist: resolve(env.WEB_DIST ?? 'frontend/dist'),
    embeddedRunner: env.EMBEDDED_RUNNER !== 'false',
    projections: env.PROJECTIONS !== 'false',
    logLevel: env.LOG_LEVEL ?? 'info',
    contactEmail: env.CONTACT_EMAIL ?? 'hello@gridrocket.example',
    exchangeSignup: Object.fromEntries(Object.entries(env).flatMap(([k, v]) => (/^[A-Z]+_SIGNUP_URL$/.test(k) && v ? [[k.slice(0, -'_SIGNUP_URL'.length).toLowerCase(), v]] : []))),
    social: {
      twitter: env.SOCIAL_TWITTER ?? 'https://x.com/gridrocket',
      telegram: env.SOCIAL_TELEGRAM ?? 'https://t.me/gridrocket',
      github: env.SOCIAL_GITHUB ?? 'https://github.com/gridrocket',
    },
    mail: {
      smtpUrl: env.SMTP_URL || null,
      from: env.MAIL_FROM || 'GridRocket <no-reply@gridrocket.example>',
      outbox: env.MAIL_OUTBOX !== 'false',
      retryBaseMs: positiveNumber(env.MAIL_RETRY_BASE_MS, 1000),
      retryMaxMs: positiveNumber(env.MAIL_RETRY_MAX_MS, 300_000),
    },
    oauth: {
      google: oauthProvider(env, 'GOOGLE', {
        authorizationUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
        tokenUrl: 'https://oauth2.googleapis.com/token',
        profileUrl: 'https://openidconnect.googleapis.com/v1/userinfo',
      }),
      facebook: oauthProvider(env, 'FACEBOOK', {
        authorizationUrl: 'https://www.facebook.com/v19.0/dialog/oauth',
        tokenUrl: 'https://graph.facebook.com/v19.0/oauth/access_token',
        profileUrl: 'https://graph.facebook.com/v19.0/me',
      }),
    },
    authThrottle: {
      enabled: env.AUTH_THROTTLE !== 'off',
      perIp: positiveNumber(env.AUTH_THROTTLE_PER_IP, 300),
      perEmail: positiveNumber(env.AUTH_THROTTLE_PER_EMAIL, 10),
      perAccount: positiveNumber(env.AUTH_THROTTLE_PER_ACCOUNT, 20),
      loginPerIp: positiveNumber(env.AUTH_THROTTLE_LOGIN_PER_IP, 100),
      windowSeconds: positiveNumber(env.AUTH_THROTTLE_WINDOW_SECONDS, 900),
    },
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    tokenTtl: {
      verifyEmailSeconds: positiveNumber(env.VERIFY_EMAIL_TOKEN_TTL_SECONDS, 24 * 3600),
      resetPasswordSeconds: positiveNumber(env.RESET_PASSWORD_TOKEN_TTL_SECONDS, 3600),
    },
    exchangeMode: exchangeModeOf(env.EXCHANGE_MODE),
    paperPrices: env.PAPER_PRICES ? resolve(env.PAPER_PRICES) : null,
    paperFeed: { kind: env.PAPER_FEED || null, venues: env.PAPER_FEED_VENUES || null, origin: env.PAPER_FEED_ORIGIN || null },
    exchangeApiOrigin: env.EXCHANGE_API_ORIGIN ? env.EXCHANGE_API_ORIGIN.replace(/\/$/, '') : null,
    venueBudgetShare: Math.min(1, positiveNumber(env.VENUE_BUDGET_SHARE, 0.5)),
    keyChecks: { egressIps: egressIpsOf(env.EGRESS_IP), recheckHours: positiveNumber(env.KEY_RECHECK_HOURS, 24) },
    kafkaBrokers: (env.KAFKA_BROKERS ?? '').split(',').map((b) => b.trim()).filter(Boolean),
    forwarder: env.FORWARDER !== 'false',
    auditorEmails: (env.AUDITOR_EMAILS ?? '').split(',').map((e) => e.trim().toLowerCase()).filter(Boolean),
    metricsToken: env.METRICS_TOKEN || null,
    metricsPublic: env.METRICS_PUBLIC === 'true',
    quotas: {
      bots: positiveNumber(env.QUOTA_BOTS, 200),
      keys: positiveNumber(env.QUOTA_KEYS, 20),
      sessions: positiveNumber(env.QUOTA_SESSIONS, 50),
      sockets: positiveNumber(env.QUOTA_SOCKETS, 20),
    },
    uploads: {
      maxFiles: positiveNumber(env.UPLOAD_MAX_FILES, 20),
      maxBytes: positiveNumber(env.UPLOAD_MAX_BYTES, 64 * 1024 * 1024),
    },
    backtests: {
      workers: Math.floor(positiveNumber(env.BACKTEST_WORKERS, 0)),
      budgetSeconds: positiveNumber(env.BACKTEST_BUDGET_SECONDS, 600),
      nice: env.BACKTEST_NICE === '0' ? 0 : Math.min(19, Math.floor(positiveNumber(env.BACKTEST_NICE, 10))),
      history: backtestHistoryOf(env.BACKTEST_HISTORY),
      candlesOrigin: env.BACKTEST_CANDLES_ORIGIN?.trim() || null,
    },
    alerts: {
      dispatcher: env.ALERTS_DISPATCHER !== 'false',
      allowPrivateUrls: env.ALERTS_ALLOW_PRIVATE_URLS === 'true',
      telegramApi: (env.ALERTS_TELEGRAM_API || 'https://api.telegram.org').replace(/\/$/, ''),
      maxAttempts: Math.floor(positiveNumber(env.ALERTS_MAX_ATTEMPTS, 5)),
      retryBaseMs: positiveNumber(env.ALERTS_RETRY_BASE_MS, 1000),
      rateLimit: Math.floor(positiveNumber(env.ALERTS_RATE_LIMIT, 20)),
      rateWindowSeconds: positiveNumber(env.ALERTS_RATE_WINDOW_SECONDS, 60),
    },
  };
  return { ...config, ...overrides };
}

/** BACKTEST_HISTORY: venue (default) or simulated; anything else stops the start with a clear message. */
function backtestHistoryOf(raw: string | undefined): 'venue' | 'simulated' {
  const v = (raw ?? '').trim().toLowerCase();
  if (v === '' || v === 'venue') return 'venue';
  if (v === 'simulated') return 'simulated';
  throw new Error(`BACKTEST_HISTORY must be venue or simulated (got ${JSON.stringify(String(raw).slice(0, 20))})`);
}

/** EGRESS_IP: comma-separated IPv4/IPv6 addresses; anything else stops the start with a clear message. */
function egressIpsOf(raw: string | undefined): string[] {
  const ips = (raw ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const ip of ips) {
    if (!isIP(ip)) throw new Error(`EGRESS_IP must list IP addresses separated by commas (got ${JSON.stringify(ip.slice(0, 45))})`);
  }
  return ips;
}
