/**
 * The orders an account has placed in each of the venue's order-count windows (issue 39, "a start that
 * would exceed the venue's order-count limit is refused with the numbers"): pure, no I/O.
 *
 * Binance counts new orders per account, not per IP, in the windows of its `rateLimits` ORDERS entries
 * (spot: 100 per 10 s and 200,000 per day; USDⓈ-M: 300 per 10 s and 1,200 per minute), and says on every
 * order's answer how many the account has placed in each: `X-MBX-ORDER-COUNT-(intervalNum)(intervalLetter)`,
 * e.g. `X-MBX-ORDER-COUNT-10S`, `X-MBX-ORDER-COUNT-1D` ("Every successful order response will contain a
 * X-MBX-ORDER-COUNT-(intervalNum)(intervalLetter) header which has the current order count for the account
 * for all order rate limiters defined", binance-official-api-docs rest-api.md "Order rate limits",
 * https://developers.binance.com/docs/binance-spot-api-docs/rest-api/limits; USDⓈ-M:
 * https://developers.binance.com/docs/derivatives/usds-margined-futures/general-info). Since 2023 the count
 * is of unfilled orders (a filled order gives its count back: faqs/order_count_decrement). Past a limit,
 * -1015 "Too many new orders". The counts include orders placed by anything else that uses the key (the
 * trader's own app, another tool): only the venue's header knows them, so the figure is what the last
 * answer said.
 *
 * The windows are fixed and aligned to the clock (UTC), as the venue resets them: the count seen in the
 * 10 s window ending at 12:00:10 means nothing at 12:00:11. KuCoin has no per-account order count
 * (its orders weigh in the resource pool, kucoin.rate-limits.ts): no headers, no figure.
 */

/** One window of the venue's order count as the account's last order answer gave it. */
export interface OrderCountWindow {
  /** The window's length (10 s: 10,000; a day: 86,400,000). */
  windowMs: number;
  /** Orders the account has placed in the window. */
  used: number;
  /** When the window ends (ms since the epoch, UTC-aligned). */
  resetAt: number;
}

/** The account's figure in the store: every window seen, and when the last answer came. */
export interface AccountOrderCounts {
  windows: OrderCountWindow[];
  seenAt: number;
}

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** The order counts of an answer's headers (`x-mbx-order-count-10s`: 10 s), each window's end from `t`; empty: none. */
export function orderCountsOf(headers: Record<string, unknown> | undefined, t: number): OrderCountWindow[] {
  const out: OrderCountWindow[] = [];
  for (const [name, value] of Object.entries(headers ?? {})) {
    const m = /^x-mbx-order-count-(\d+)([smhd])$/i.exec(name);
    const used = Number(value);
    if (!m || value === '' || !Number.isFinite(used) || used < 0) continue;
    const windowMs = Number(m[1]) * UNIT_MS[m[2].toLowerCase()];
    if (!(windowMs > 0)) continue;
    out.push({ windowMs, used, resetAt: t - (t % windowMs) + windowMs });
  }
  return out.sort((a, b) => a.windowMs - b.windowMs);
}

/**
 * The account's figure after an answer: each window the answer counts replaces the one held, unless the
 * one held is the same window with a higher count (two answers read out of order: the later count is the
 * higher); windows the answer does not count stay while they last.
 */
export function mergeOrderCounts(held: AccountOrderCounts | undefined, seen: readonly OrderCountWindow[], t: number): AccountOrderCounts {
  const byWindow = new Map<number, OrderCountWindow>();
  for (const w of held?.windows ?? []) if (w.resetAt > t) byWindow.set(w.windowMs, w);
  for (const w of seen) {
    const cur = byWindow.get(w.windowMs);
    byWindow.set(w.windowMs, cur && cur.resetAt === w.resetAt && cur.used > w.used ? cur : w);
  }
  return { windows: [...byWindow.values()].sort((a, b) => a.windowMs - b.windowMs), seenAt: Math.max(t, held?.seenAt ?? 0) };
}

/** The orders placed in the window of `windowMs` that is current at `t` (0 when the count held is of a past window). */
export function placedIn(counts: AccountOrderCounts | undefined | null, windowMs: number, t: number): number {
  const w = counts?.windows.find((x) => x.windowMs === windowMs);
  return w && w.resetAt > t ? w.used : 0;
}
