import { mergeOrderCounts, orderCountsOf, placedIn } from './order-counts';

const T = Date.UTC(2026, 10, 29, 12, 0, 4, 500); // 12:00:04.5 UTC
const DAY = 86_400_000;

describe("an account's order counts from the venue's answers (issue 39)", () => {
  it("reads Binance's X-MBX-ORDER-COUNT-* windows, each ending where the venue's clock-aligned window ends", () => {
    expect(orderCountsOf({ 'x-mbx-used-weight-1m': '40', 'x-mbx-order-count-10s': '3', 'X-MBX-ORDER-COUNT-1D': '199995', 'content-type': 'application/json' }, T)).toEqual([
      { windowMs: 10_000, used: 3, resetAt: Date.UTC(2026, 10, 29, 12, 0, 10) },
      { windowMs: DAY, used: 199_995, resetAt: Date.UTC(2026, 10, 30) },
    ]);
    // USDⓈ-M's minute window; nothing readable: nothing
    expect(orderCountsOf({ 'x-mbx-order-count-1m': '7' }, T)).toEqual([{ windowMs: 60_000, used: 7, resetAt: Date.UTC(2026, 10, 29, 12, 1) }]);
    expect(orderCountsOf({ 'x-mbx-order-count-1d': '', 'x-mbx-order-count-10s': 'many', 'gw-ratelimit-remaining': '3990' }, T)).toEqual([]);
    expect(orderCountsOf(undefined, T)).toEqual([]);
  });

  it('keeps the higher count of one window (answers read out of order), replaces a past window, keeps the windows an answer does not count', () => {
    const first = mergeOrderCounts(undefined, orderCountsOf({ 'x-mbx-order-count-10s': '5', 'x-mbx-order-count-1d': '120' }, T), T);
    // an earlier order's answer read after it: 4 and 119 are not the truth
    const late = mergeOrderCounts(first, orderCountsOf({ 'x-mbx-order-count-10s': '4', 'x-mbx-order-count-1d': '119' }, T + 10), T + 10);
    expect(placedIn(late, 10_000, T + 10)).toBe(5);
    expect(placedIn(late, DAY, T + 10)).toBe(120);
    // the next 10 s window: its count replaces the old one; the day's stays
    const next = mergeOrderCounts(late, orderCountsOf({ 'x-mbx-order-count-10s': '1' }, T + 6000), T + 6000);
    expect(placedIn(next, 10_000, T + 6000)).toBe(1);
    expect(placedIn(next, DAY, T + 6000)).toBe(120);
    // the day over, its count means nothing
    expect(placedIn(next, DAY, Date.UTC(2026, 10, 30, 0, 0, 1))).toBe(0);
    expect(placedIn(undefined, DAY, T)).toBe(0);
  });
});
