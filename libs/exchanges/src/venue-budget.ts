/**
 * One request budget per venue and process (issue 39): the venue's own counter, read from every
 * answer, decides when the next call may go, so that the install never spends more than `share`
 * (default 50 %) of the venue's limit, and a 429 or 418 stops every call to the venue until its
 * Retry-After. The counters and limits, with their sources (docs/exchanges.md "Rate limits"):
 * - Binance: `X-MBX-USED-WEIGHT-1M`, the IP's weight in the current minute, against REQUEST_WEIGHT 6,000
 *   (spot) or 2,400 (USDⓈ-M) a minute (exchangeInfo `rateLimits`).
 * - KuCoin: `gw-ratelimit-limit`, `gw-ratelimit-remaining` and `gw-ratelimit-reset` (ms until the pool
 *   refills) of the account's resource pool ("Rate Limit", https://www.kucoin.com/docs-new/rate-limit).
 * The counter is the venue's (the IP's or the account's), so every process behind one address reads the
 * same figure; a pause learnt from a 429/418 is this process's (sharing it across runners is open work).
 */
export interface BudgetState {
  /** The limit the venue counts against (weight or resource units) and what is used of it now. */
  limit: number;
  used: number;
  /** When the venue's window ends (ms, wall clock). */
  resetAt: number;
  /** Calls wait until then (a 429 or 418 with Retry-After); 0: no pause. */
  pausedUntil: number;
}

export class VenueBudget {
  private state: BudgetState;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(
    readonly venue: string,
    limit: number,
    /** The window of the venue's counter (Binance: the minute). */
    private readonly windowMs: number,
    readonly share = 0.5,
    private readonly now: () => number = Date.now,
    sleep?: (ms: number) => Promise<void>,
  ) {
    this.state = { limit, used: 0, resetAt: 0, pausedUntil: 0 };
    this.sleep = sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms).unref?.()));
  }

  /** What is known now (metrics, health). */
  snapshot(): BudgetState & { usedShare: number } {
    const t = this.now();
    const used = t >= this.state.resetAt ? 0 : this.state.used;
    return { ...this.state, used, usedShare: this.state.limit > 0 ? used / this.state.limit : 0 };
  }

  /** Waits until a call may go: no pause, and the window's use under the share of the limit. */
  async take(): Promise<void> {
    for (let i = 0; i < 1000; i++) {
      const t = this.now();
      if (t < this.state.pausedUntil) {
        await this.sleep(this.state.pausedUntil - t);
        continue;
      }
      if (t < this.state.resetAt && this.state.used >= this.state.limit * this.share) {
        await this.sleep(this.state.resetAt - t + 50);
        continue;
      }
      return;
    }
  }

  /** Reads the venue's counters from an answer's headers (lower-case names, as Node gives them). */
  observe(headers: Record<string, unknown> | undefined): void {
    if (!headers) return;
    const h = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    const t = this.now();
    const weight = Number(h['x-mbx-used-weight-1m']);
    if (Number.isFinite(weight)) {
      const start = t - (t % this.windowMs);
      this.state = { ...this.state, used: weight, resetAt: start + this.windowMs };
      return;
    }
    const remaining = Number(h['gw-ratelimit-remaining']);
    const limit = Number(h['gw-ratelimit-limit']);
    const reset = Number(h['gw-ratelimit-reset']);
    if (Number.isFinite(remaining) && Number.isFinite(limit) && limit > 0) {
      this.state = { ...this.state, limit, used: limit - remaining, resetAt: t + (Number.isFinite(reset) ? reset : this.windowMs) };
    }
  }

  /** The venue said 429 or 418: every call waits `retryAfterMs`. */
  pause(retryAfterMs: number): void {
    const until = this.now() + Math.max(0, retryAfterMs);
    if (until > this.state.pausedUntil) this.state = { ...this.state, pausedUntil: until };
  }
}

/** The venues' limits and windows (docs/exchanges.md "Rate limits"). */
export const VENUE_LIMITS: Record<'binance' | 'binanceusdm' | 'kucoin' | 'kucoinfutures', { limit: number; windowMs: number }> = {
  binance: { limit: 6000, windowMs: 60_000 },
  binanceusdm: { limit: 2400, windowMs: 60_000 },
  // KuCoin's pools (VIP 0): spot 4,000 and futures 2,000 per 30 s; the headers carry the account's own
  kucoin: { limit: 4000, windowMs: 30_000 },
  kucoinfutures: { limit: 2000, windowMs: 30_000 },
};
