import { Inject, Injectable } from '@nestjs/common';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { APP_CONFIG, AppConfig } from '@gridrocket/shared/runtime';
import { TooManyRequestsError } from '@gridrocket/shared';

export const THROTTLED_MESSAGE = 'Too many attempts; please wait before trying again';

/**
 * Rate limits on the auth routes, in memory (rate-limiter-flexible), per IP
 * address and per email address. Register, forgot-password and resend cost a
 * point on every call; login costs a point only when it fails, and a key that
 * is out of points is refused before the password is even checked.
 * Exhausted → TooManyRequestsError → 429 with Retry-After.
 */
@Injectable()
export class AuthThrottle {
  private readonly perIp: RateLimiterMemory;
  private readonly perEmail: RateLimiterMemory;
  private readonly enabled: boolean;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const t = config.authThrottle;
    this.enabled = t.enabled;
    this.perIp = new RateLimiterMemory({ keyPrefix: 'auth-ip', points: t.perIp, duration: t.windowSeconds });
    this.perEmail = new RateLimiterMemory({ keyPrefix: 'auth-email', points: t.perEmail, duration: t.windowSeconds });
  }

  /** Spends one point per key; throws 429 when either is exhausted. */
  async consume(ip: string | undefined, email: string | undefined): Promise<void> {
    if (!this.enabled) return;
    await Promise.all([this.spend(this.perIp, ip ?? 'unknown'), email ? this.spend(this.perEmail, email.toLowerCase()) : null]);
  }

  /** Throws 429 when either key has no points left, without spending any. */
  async check(ip: string | undefined, email: string | undefined): Promise<void> {
    if (!this.enabled) return;
    const waits = await Promise.all([this.blockedFor(this.perIp, ip ?? 'unknown'), email ? this.blockedFor(this.perEmail, email.toLowerCase()) : 0]);
    const wait = Math.max(...waits);
    if (wait > 0) throw new TooManyRequestsError(Math.max(1, Math.ceil(wait / 1000)), THROTTLED_MESSAGE);
  }

  private async spend(limiter: RateLimiterMemory, key: string): Promise<void> {
    try {
      await limiter.consume(key);
    } catch (err) {
      if (err instanceof RateLimiterRes) throw new TooManyRequestsError(Math.max(1, Math.ceil(err.msBeforeNext / 1000)), THROTTLED_MESSAGE);
      throw err;
    }
  }

  private async blockedFor(limiter: RateLimiterMemory, key: string): Promise<number> {
    const res = await limiter.get(key);
    return res && res.consumedPoints >= limiter.points ? res.msBeforeNext : 0;
  }
}
