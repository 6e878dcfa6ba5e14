/**
 * In-memory bounds of the signal route, per process (docs/signals.md, "Flooding"):
 * - `take(botId, now)`: at most `perMinute` requests per bot id per minute reach the checks at all
 *   (valid or not); beyond, 429 and nothing is read, opened or recorded.
 * - `suppressed`: refusals the bot's log would not take (its cap of recorded refusals per minute is
 *   in the log itself: signal-log.decider.ts) are counted here and written with the next recorded one.
 * Both maps are bounded (`maxKeys`, oldest out): ids an attacker invents cannot grow them.
 */
export class SignalRateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private readonly suppressedCounts = new Map<string, number>();

  constructor(
    private readonly perMinute: number,
    private readonly maxKeys = 10_000,
  ) {}

  /** True when the request may go on; false: over the limit (answer 429). */
  take(botId: string, now: number): boolean {
    let w = this.windows.get(botId);
    if (!w || now - w.start >= 60_000 || now < w.start) w = { start: now, count: 0 };
    this.windows.delete(botId);
    this.windows.set(botId, w);
    this.trim(this.windows);
    if (w.count >= this.perMinute) return false;
    w.count++;
    return true;
  }

  /** Gives back what `take` counted (a request that turned out not to use the budget). */
  giveBack(botId: string): void {
    const w = this.windows.get(botId);
    if (w && w.count > 0) w.count--;
  }

  /** Seconds until the bot's window ends (Retry-After). */
  retryAfter(botId: string, now: number): number {
    const w = this.windows.get(botId);
    return w ? Math.max(1, Math.ceil((w.start + 60_000 - now) / 1000)) : 1;
  }

  suppress(botId: string): void {
    const n = (this.suppressedCounts.get(botId) ?? 0) + 1;
    this.suppressedCounts.delete(botId); // most recent last
    this.suppressedCounts.set(botId, n);
    this.trim(this.suppressedCounts);
  }

  /** The count not yet written, reset: the caller writes it with a record. */
  takeSuppressed(botId: string): number {
    const n = this.suppressedCounts.get(botId) ?? 0;
    this.suppressedCounts.delete(botId);
    return n;
  }

  /** Puts back a count that could not be written. */
  restoreSuppressed(botId: string, n: number): void {
    if (n > 0) this.suppressedCounts.set(botId, (this.suppressedCounts.get(botId) ?? 0) + n);
  }

  private trim(map: Map<string, unknown>): void {
    while (map.size > this.maxKeys) map.delete(map.keys().next().value as string);
  }
}
