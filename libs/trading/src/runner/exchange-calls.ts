/**
 * Exchange calls of the runner: a token bucket per user+exchange (not on paper), retries of retryable
 * errors with exponential back-off, and the back-off delays of bot-level retries.
 */
import { isExchangeError } from '@gridrocket/exchanges';
import { RateLimiters } from './token-bucket';

export interface CallerOptions {
  paper: boolean;
  rateLimit?: { capacity: number; perSecond: number };
  /** Shared across runners (issue 12); default: token buckets in this process. */
  rateLimiter?: { for(key: string): { take(): Promise<void> } };
  retryBaseMs?: number;
  retryMaxMs?: number;
  onError?: (exchange: string, code?: string) => void;
}

export class ExchangeCaller {
  private readonly limiters: { for(key: string): { take(): Promise<void> } };

  constructor(private readonly o: CallerOptions) {
    const rl = o.rateLimit ?? { capacity: 10, perSecond: 8 };
    this.limiters = o.rateLimiter ?? new RateLimiters(rl.capacity, rl.perSecond);
  }

  /**
   * `fn` with rate limiting; retryable errors are retried up to `retries` times. `beforeAttempt` runs
   * immediately before EVERY attempt, the first included, after any wait for the rate limit or a
   * back-off: the runner's ownership check (`task.ensureOwned()`), which throws once the runner lost
   * the bot or its lease lapsed, so that no attempt starts after that (docs/resilience.md, "Exchange
   * calls of a deposed runner").
   */
  async call<T>(account: { userId: string; exchange: string }, fn: () => Promise<T>, retries: number, beforeAttempt: () => void): Promise<T> {
    const limiter = this.o.paper ? null : this.limiters.for(`${account.userId}|${account.exchange}`);
    for (let attempt = 1; ; attempt++) {
      if (limiter) await limiter.take();
      beforeAttempt();
      try {
        return await fn();
      } catch (err) {
        if (isExchangeError(err)) {
          this.o.onError?.(account.exchange, err.code);
          if (err.retryable && attempt < retries) {
            await this.backoff(attempt);
            continue;
          }
        }
        throw err;
      }
    }
  }

  /** Delay before the n-th retry of a whole bot step. */
  delay(failures: number): number {
    return Math.min(this.o.retryMaxMs ?? 30_000, (this.o.retryBaseMs ?? 200) * 2 ** Math.min(failures - 1, 10));
  }

  backoff(attempt: number): Promise<void> {
    const base = this.o.retryBaseMs ?? 200;
    const ms = Math.min(this.o.retryMaxMs ?? 30_000, base * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2);
    return new Promise((r) => setTimeout(r, ms));
  }
}
