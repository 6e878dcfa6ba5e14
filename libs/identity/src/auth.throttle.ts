import { Inject, Injectable } from '@nestjs/common';
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { READ_STORE, ReadStore } from '@gridrocket/read-store';
import { APP_CONFIG, AppConfig, KEYRING_TOKEN, Keyring } from '@gridrocket/shared/runtime';
import { TooManyRequestsError } from '@gridrocket/shared';
import { updateDoc } from './abuse/doc-cas';
import { FailureDoc, LoginDelayPolicy, WindowDoc, budgetWaitMs, loginWaitMs, recordFailure, spendPoint } from './abuse/throttle.rules';

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

/**
 * Rate limits on the auth routes, kept in the read store so replicas share them.
 *
 * - Budgets per IP address and per email address (fixed windows): register, forgot-password and resend
 *   cost a point per call; a failed login costs a point of its IP's budget (not of the email's: that
 *   would let anyone lock the owner out).
 * - Failed logins are counted per account AND client (a device that signed in to that account before,
 *   else the IP address), with progressive delays after `perEmail` free failures: 5 s, 10 s, 20 s …
 *   up to the window. An attacker elsewhere never delays the owner's own browser or another address.
 *
 * Exhausted → TooManyRequestsError → 429 with Retry-After.
 */
@Injectable()
export class AuthThrottle {
  private readonly enabled: boolean;
  private readonly windowMs: number;
  private readonly perIp: number;
  private readonly perEmail: number;
  private readonly delays: LoginDelayPolicy;
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
    this.delays = { freeFailures: t.perEmail, firstDelaySeconds: Math.min(5, t.windowSeconds), maxDelaySeconds: t.windowSeconds };
    this.deviceKey = keyring.deriveKey('device-cookie');
  }

  private init(): Promise<void> {
    this.ready ??= Promise.all([this.store.ensureCollection(AUTH_BUDGETS), this.store.ensureCollection(LOGIN_FAILURES)]).then(() => undefined);
    return this.ready;
  }

  // ---- budgets per IP and per email ---------------------------------------------------------

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

  /** Throws 429 when the IP's budget has no points left, without spending any. */
  async checkIp(ip: string | undefined): Promise<void> {
    if (!this.enabled) return;
    await this.init();
    const doc = await this.store.get<WindowDoc>(AUTH_BUDGETS, hash(`ip:${ip ?? 'unknown'}`));
    const wait = budgetWaitMs(doc, Date.now(), this.perIp, this.windowMs);
    if (wait > 0) throw new TooManyRequestsError(retryAfter(wait), THROTTLED_MESSAGE);
  }

  /** Spends a point; returns how long to wait when the budget was already empty (0: fine). */
  private spend(key: string, points: number): Promise<number> {
    const id = hash(key);
    return updateDoc<WindowDoc, number>(this.store, AUTH_BUDGETS, id, (doc) => {
      const now = Date.now();
      const wait = budgetWaitMs(doc, now, points, this.windowMs);
      return { next: wait > 0 ? undefined : spendPoint(doc, id, now, this.windowMs), result: wait };
    });
  }

  // ---- failed logins per account and client ------------------------------------------------

  /** The client behind a login attempt for the account `uid`. */
  clientOf(uid: string, ip: string | undefined, deviceCookie: string | undefined): LoginClient {
    const deviceId = this.deviceIdOf(deviceCookie);
    if (deviceId && this.deviceCookieValid(deviceCookie!, uid)) return { key: `device:${deviceId}`, trusted: true, deviceId };
    return { key: `ip:${ip ?? 'unknown'}`, trusted: false, deviceId };
  }

  /** Throws 429 while this client must wait before trying this account again. */
  async checkLogin(email: string, client: LoginClient): Promise<void> {
    if (!this.enabled) return;
    await this.init();
    const doc = await this.store.get<FailureDoc>(LOGIN_FAILURES, this.loginId(email, client));
    const wait = loginWaitMs(doc, Date.now());
    if (wait > 0) throw new TooManyRequestsError(retryAfter(wait), THROTTLED_MESSAGE);
  }

  async loginFailed(email: string, client: LoginClient): Promise<void> {
    if (!this.enabled) return;
    await this.init();
    const id = this.loginId(email, client);
    await updateDoc<FailureDoc, void>(this.store, LOGIN_FAILURES, id, (doc) => ({ next: recordFailure(doc, id, Date.now(), this.delays), result: undefined }));
  }

  async loginSucceeded(email: string, client: LoginClient): Promise<void> {
    if (!this.enabled) return;
    await this.init();
    const id = this.loginId(email, client);
    await updateDoc<FailureDoc, void>(this.store, LOGIN_FAILURES, id, (doc) => ({ next: doc ? null : undefined, result: undefined }));
  }

  private loginId(email: string, client: LoginClient): string {
    return hash(`${email.trim().toLowerCase()}|${client.key}`);
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
