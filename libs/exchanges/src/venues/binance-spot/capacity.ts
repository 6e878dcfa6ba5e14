/** Binance spot: the limits a start is checked against (issue 39, libs/bots domain/capacity.ts), each with its source. */
import type { VenueCapacity } from '../venue';

const BINANCE_SPOT_LIMITS = 'https://developers.binance.com/docs/binance-spot-api-docs/rest-api/limits';
const BINANCE_SPOT_ORDER_COUNT = 'https://developers.binance.com/docs/binance-spot-api-docs/faqs/order_count_decrement';

/**
 * A Binance market's capacity: the same rules on both markets (MAX_NUM_ORDERS per symbol, ORDERS windows of
 * exchangeInfo's rateLimits, REQUEST_WEIGHT a minute per IP), with each market's figures and sources.
 */
export function binanceCapacity(c: {
  maxOpen: { limit: number; source: string };
  /** Per window: its label, length, limit and exchangeInfo's interval ("SECOND 10"). */
  orderWindows: readonly (readonly [label: string, windowMs: number, limit: number, interval: string])[];
  /** Where the ORDERS and the REQUEST_WEIGHT limits are documented (one page: both). */
  sources: string | { orders: string; weight: string };
  weightLimit: number;
  reads: VenueCapacity['reads'];
}): VenueCapacity {
  const sources = typeof c.sources === 'string' ? { orders: c.sources, weight: c.sources } : c.sources;
  return {
    maxOpenPerSymbol: { rule: 'MAX_NUM_ORDERS', ...c.maxOpen },
    orderWindows: c.orderWindows.map(([label, windowMs, limit, interval]) => ({ rule: 'ORDERS', label, windowMs, limit, source: `exchangeInfo rateLimits ORDERS ${interval}; ${sources.orders}` })),
    weight: { rule: 'REQUEST_WEIGHT', label: '1 min', windowMs: 60_000, limit: c.weightLimit, source: `exchangeInfo rateLimits REQUEST_WEIGHT MINUTE 1, per IP; ${sources.weight}` },
    reads: c.reads,
  };
}

export const BINANCE_SPOT_CAPACITY: VenueCapacity = binanceCapacity({
  // "the maximum number of orders an account is allowed to have open on a symbol"; BTCUSDT's exchangeInfo: 200
  maxOpen: { limit: 200, source: 'https://developers.binance.com/docs/binance-spot-api-docs/filters (MAX_NUM_ORDERS; exchangeInfo of BTCUSDT: 200)' },
  orderWindows: [['10 s', 10_000, 100, 'SECOND 10'], ['1 day', 86_400_000, 200_000, 'DAY 1']],
  sources: { orders: BINANCE_SPOT_ORDER_COUNT, weight: BINANCE_SPOT_LIMITS },
  weightLimit: 6000,
  // GET /api/v3/openOrders 6 with a symbol, 80 without; GET /api/v3/account 20
  reads: { openOrdersPerSymbol: 6, openOrdersAll: 80, accountReads: 20, source: 'https://developers.binance.com/docs/binance-spot-api-docs/rest-api/account-endpoints (openOrders, account weights)' },
});
