/**
 * A small token bucket: `capacity` calls at once, refilled at `perSecond`. One per user and exchange
 * (an exchange's limits are per account/IP), so thousands of bots of one user share it fairly and a
 * user's bots never push the account into the exchange's ban.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;
  private waiters: Array<() => void> = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly capacity: number,
    private readonly perSecond: number,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = capacity;
    this.last = now();
  }

  private refill() {
    const t = this.now();
    this.tokens = Math.min(this.capacity, this.tokens + ((t - this.last) / 1000) * this.perSecond);
    this.last = t;
  }

  /** Resolves when a token is available (FIFO). */
  take(): Promise<void> {
    this.refill();
    if (this.waiters.length === 0 && this.tokens >= 1) {
      this.tokens -= 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      this.schedule();
    });
  }

  private schedule() {
    if (this.timer) return;
    const wait = Math.max(1, Math.ceil(((1 - this.tokens) / this.perSecond) * 1000));
    this.timer = setTimeout(() => {
      this.timer = null;
      this.refill();
      while (this.waiters.length && this.tokens >= 1) {
        this.tokens -= 1;
        this.waiters.shift()!();
      }
      if (this.waiters.length) this.schedule();
    }, wait);
    this.timer.unref?.();
  }
}

export class RateLimiters {
  private readonly buckets = new Map<string, TokenBucket>();
  constructor(private readonly capacity: number, private readonly perSecond: number) {}

  for(key: string): TokenBucket {
    let b = this.buckets.get(key);
    if (!b) this.buckets.set(key, (b = new TokenBucket(this.capacity, this.perSecond)));
    return b;
  }
}
