import { Gauge, Registry } from 'prom-client';
import type { ExchangeAccess } from './exchange-access';

/**
 * The install's use of each venue's request budget on /metrics (issue 39, docs/exchanges.md "Streams and
 * rate limits"), as every runner wrote it to the read store:
 * - gridrocket_venue_budget_used_ratio{venue}: the venue's counter over its limit in the current window;
 * - gridrocket_venue_budget_allowed_ratio{venue}: the share the install allows itself (VENUE_BUDGET_SHARE);
 * - gridrocket_venue_paused{venue}: 1 while a 429/418 pauses every call to the venue, with
 *   gridrocket_venue_paused_until_timestamp_seconds{venue} (0 when none).
 */
export function registerVenueBudgetMetrics(registry: Registry, access: ExchangeAccess): void {
  const registers = [registry];
  let last: { at: number; list: ReturnType<ExchangeAccess['venueBudgets']> } | null = null;
  const budgets = () => {
    // one read per scrape, shared by the gauges
    if (!last || Date.now() - last.at > 200) last = { at: Date.now(), list: access.venueBudgets().catch(() => []) };
    return last.list;
  };
  const gauge = (name: string, help: string, value: (b: Awaited<ReturnType<ExchangeAccess['venueBudgets']>>[number]) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['venue'],
      registers,
      async collect() {
        const list = await budgets();
        this.reset();
        for (const b of list) this.set({ venue: b.venue }, value(b));
      },
    });
  gauge('gridrocket_venue_budget_used_ratio', "The venue's request counter over its limit in the current window (Binance X-MBX-USED-WEIGHT-1M, KuCoin gw-ratelimit-*), every runner of the install", (b) => b.usedShare);
  gauge('gridrocket_venue_budget_allowed_ratio', 'The share of the venue limit the install allows itself (VENUE_BUDGET_SHARE)', (b) => b.share);
  gauge('gridrocket_venue_paused', "1 while the venue's 429 or 418 pauses every call of the install to it", (b) => (b.pausedUntil === null ? 0 : 1));
  gauge('gridrocket_venue_paused_until_timestamp_seconds', "When the venue's 429/418 pause ends (Unix time; 0 when none)", (b) => (b.pausedUntil === null ? 0 : b.pausedUntil / 1000));
}
