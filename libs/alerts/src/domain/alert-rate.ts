/**
 * The rate limit of alerts: at most `limit` messages per user and channel in any `windowMs` (sliding
 * window; default 20 a minute, ALERTS_RATE_LIMIT / ALERTS_RATE_WINDOW_SECONDS). Telegram asks bots to
 * "avoid sending more than one message per second" to one chat and no more than 20 a minute to a group
 * (https://core.telegram.org/bots/faq#my-bot-is-hitting-limits-how-do-i-avoid-this); a webhook receiver
 * and a mailbox deserve no flood either. Alerts beyond the limit are not sent and show in the delivery
 * log as `rate-limited`. Pure: the clock is passed in. The count lives in the dispatcher's process.
 */
export class AlertRateLimit {
  private readonly sent = new Map<string, number[]>();
  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  /** True (and counted) when one more message may go to `key` at `now`. */
  take(key: string, now: number): boolean {
    const times = (this.sent.get(key) ?? []).filter((t) => t > now - this.windowMs);
    if (times.length >= this.limit) {
      this.sent.set(key, times);
      return false;
    }
    times.push(now);
    this.sent.set(key, times);
    return true;
  }
}

/** The wait before retry n (1-based) of a failed delivery: base × 2^(n−1) (exponential back-off). */
export const backoffMs = (retry: number, baseMs: number) => baseMs * 2 ** (retry - 1);
