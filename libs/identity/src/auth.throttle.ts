import { Inject, Injectable } from '@nestjs/common';
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { READ_STORE, ReadStore } from '@gridrocket/read-store';
import { APP_CONFIG, AppConfig, KEYRING_TOKEN, Keyring } from '@gridrocket/shared/runtime';
import { TooManyRequestsError } from '@gridrocket/shared';
import { updateDoc } from './abuse/doc-cas';
import { FailureDoc, LoginDelayPolicy, WindowDoc, budgetWaitMs, loginWaitMs, refundPoint, reserveAttempt, spendPoint } from './abuse/throttle.rules';

export const THROTTLED_MESSAGE = 'Too many attempts; please wait before trying again';

/** The read-store collections of the limits (shared by every replica on the same read store). */
export const AUTH_BUDGETS = 'auth_budgets';
export const LOGIN_FAILURES = 'login_failures';

/** A browser that has signed in to an account before carries this (httpOnly, bound to the account). */
export const DEVICE_COOKIE = 'gr_device';

/** Who is trying to sign in: a device that has signed in to this account before, or else the IP address. */
export interface LoginClient {
  key: string;
  trusted: boolean;
  deviceId: string | null;
}

const hash = (s: string) => createHash('sha256').update(s).digest('hex');
const retryAfter = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
/** Compare-and-set retries: a burst of attempts from one address all write its one budget document. */
const CAS_ATTEMPTS = 64;

/**
 * Rate limits on the auth routes, kept in the read store so replicas share them.
 *
 * - Register, forgot-password and resend-verification: a budget per IP address (`perIp`) and, for forgot
 *   and resend, per email address (`perEmail`), fixed windows, a point per call.
 * - Sign-in, judged before the password hash runs (a refused attempt costs no hashing) and counted as
 *   failed until it succeeds (so concurrent guesses cannot all pass one check); a success clears it:
 *   - a browser with a valid device cookie for the account (it signed in to it before) is judged by its
 *     own limit only: `perEmail` free failures, then 5 s, 10 s, 20 s … up to the window. No address's or
 *     account's count ever refuses it, so nobody can lock the owner's browsers out;
 *   - any other client is judged per account and address (`perEmail` free failures, then the delays),
 *     per account across all addresses (`perAccount` free failures, then the delays: rotating addresses
 *     does not reset it), and per address across all accounts (`loginPerIp` failures per window, a
 *     budget apart from register's and forgot-password's, so failed logins never shut those).
 *
 * Refused → TooManyRequestsError → 429 with Retry-After.
 */
@Injectable()
export class AuthThrottle {
  private readonly enabled: boolean;
  private readonly windowMs: number;
  private readonly perIp: number;
  private readonly perEmail: number;
  private readonly loginPerIp: number;
  private readonly clientDelays: LoginDelayPolicy;
  private readonly accountDelays: LoginDelayPolicy;
  private readonly deviceKey: Buffer;
  private ready: Promise<void> | null = null;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(KEYRING_TOKEN) keyring: Keyring,
  ) {
    const t = config.authThrottle;
    this.enabled = t.enabled;
    this.windowMs = t.windowSeconds * 1000;
    this.perIp = t.perIp;
    this.perEmail = t.perEmail;
    this.loginPerIp = t.loginPerIp;
    const firstDelaySeconds = Math.min(5, t.windowSeconds);
    this.clientDelays = { freeFailures: t.perEmail, firstDelaySeconds, maxDelaySeconds: t.windowSeconds };
    this.accountDelays = { freeFailures: t.perAccount, firstDelaySeconds, maxDelaySeconds: t.windowSeconds };
    this.deviceKey = keyring.deriveKey('device-cookie');
  }

  private init(): Promise<void> {
    this.ready ??= Promise.all([this.store.ensureCollection(AUTH_BUDGETS), this.store.ensureCollection(LOGIN_FAILURES)]).then(() => undefined);
    return this.ready;
  }

  // ---- budgets per IP and per email (register, forgot-password, resend) ---------------------

  /** Spends one point per key; throws 429 when either is exhausted. */
  async consume(ip: string | undefined, email: string | undefined): Promise<void> {
    if (!this.enabled) return;
    await this.init();
    const waits = await Promise.all([
      this.spend(`ip:${ip ?? 'unknown'}`, this.perIp),
      email ? this.spend(`email:${email.trim().toLowerCase()}`, this.perEmail) : 0,
    ]);
    const wait = Math.max(...waits);
    if (wait > 0) throw new TooManyRequestsError(retryAfter(wait), THROTTLED_MESSAGE);
  }

  /** Spends a point; returns how long to wait when the budget was already empty (0: fine). */
  private spend(key: string, points: number): Promise<number> {
    const id = hash(key);
    return updateDoc<WindowDoc, number>(this.store, AUTH_BUDGETS, id, (doc) => {
      const now = Date.now();
      const wait = budgetWaitMs(doc, now, points, this.windowMs);
      return { next: wait > 0 ? undefined : spendPoint(doc, id, now, this.windowMs), result: wait };
    }, CAS_ATTEMPTS);
  }

  // ---- sign-in ------------------------------------------------------------------------------

  /** The client behind a login attempt for the account `uid`. */
  clientOf(uid: string, ip: string | undefined, deviceCookie: string | undefined): LoginClient {
    const deviceId = this.deviceIdOf(deviceCookie);
    if (deviceId && this.deviceCookieValid(deviceCookie!, uid)) return { key: `device:${deviceId}`, trusted: true, deviceId };
    return { key: `ip:${ip ?? 'unknown'}`, trusted: false, deviceId };
  }

  /**
   * Call before the password is checked: throws 429 while any limit of this client applies, else counts
   * the attempt (as failed, until `loginSucceeded`). A refused attempt counts nowhere.
   */
  async beginLogin(email: string, client: LoginClient): Promise<void> {
    if (!this.enabled) return;
    await this.init();
    const counts = this.loginCounts(email, client);
    const ipBudget = client.trusted ? null : hash(`login-ip:${client.key}`);
    // Read-only first, so that an attempt refused by one limit spends nothing of the others.
    const now = Date.now();
    const docs = await this.store.getMany<FailureDoc>(LOGIN_FAILURES, counts.map((c) => c.id));
    let wait = Math.max(0, ...counts.map((c) => loginWaitMs(docs.get(c.id)?.doc ?? null, now)));
    if (ipBudget) wait = Math.max(wait, budgetWaitMs(await this.store.get<WindowDoc>(AUTH_BUDGETS, ipBudget), now, this.loginPerIp, this.windowMs));
    if (wait > 0) throw new TooManyRequestsError(retryAfter(wait), THROTTLED_MESSAGE);
    // Then count it, each limit checked again atomically with its write (replicas and concurrent requests).
    for (const { id, policy } of counts) {
      const w = await updateDoc<FailureDoc, number>(this.store, LOGIN_FAILURES, id, (doc) => {
        const { wait: ms, next } = reserveAttempt(doc, id, Date.now(), policy);
        return { next, result: ms };
      }, CAS_ATTEMPTS);
      if (w > 0) throw new TooManyRequestsError(retryAfter(w), THROTTLED_MESSAGE);
    }
    if (ipBudget) {
      const w = await this.spend(`login-ip:${client.key}`, this.loginPerIp);
      if (w > 0) throw new TooManyRequestsError(retryAfter(w), THROTTLED_MESSAGE);
    }
  }

  /** The password was right: clears this client's and (for an unknown browser) the account's count, refunds the address's point. */
  async loginSucceeded(email: string, client: LoginClient): Promise<void> {
    if (!this.enabled) return;
    await this.init();
    for (const { id } of this.loginCounts(email, client)) {
      await updateDoc<FailureDoc, void>(this.store, LOGIN_FAILURES, id, (doc) => ({ next: doc ? null : undefined, result: undefined }), CAS_ATTEMPTS);
    }
    if (!client.trusted) {
      await updateDoc<WindowDoc, void>(this.store, AUTH_BUDGETS, hash(`login-ip:${client.key}`), (doc) => ({ next: refundPoint(doc, Date.now(), this.windowMs), result: undefined }), CAS_ATTEMPTS);
    }
  }

  /** The failure counts an attempt of this client at this account is judged by. */
  private loginCounts(email: string, client: LoginClient): { id: string; policy: LoginDelayPolicy }[] {
    const account = email.trim().toLowerCase();
    const own = { id: hash(`${account}|${client.key}`), policy: this.clientDelays };
    return client.trusted ? [own] : [own, { id: hash(`${account}|account`), policy: this.accountDelays }];
  }

  // ---- device cookie -----------------------------------------------------------------------

  /** The cookie value that marks this browser (its device id, new or kept) as known to the account `uid`. */
  deviceCookie(uid: string, deviceId: string | null): string {
    const id = deviceId ?? randomBytes(16).toString('base64url');
    return `${id}.${this.mac(uid, id)}`;
  }

  private mac(uid: string, deviceId: string): string {
    return createHmac('sha256', this.deviceKey).update(`${uid}.${deviceId}`).digest('base64url');
  }

  private deviceIdOf(cookie: string | undefined): string | null {
    const m = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/.exec(cookie ?? '');
    return m ? m[1] : null;
  }

  private deviceCookieValid(cookie: string, uid: string): boolean {
    const [id, mac] = cookie.split('.');
    const expected = Buffer.from(this.mac(uid, id));
    const given = Buffer.from(mac);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
