/**
 * Issue 39, "Any pair the venue lists": a market's maximums as its venue states them, read from the market
 * ccxt loads (its unified `limits` where it carries them, the venue's own `info` otherwise), with the
 * venue's name of each rule so that a refusal names it. Pure: no ccxt, no I/O.
 *
 * Each venue's reading and rule names are in its folder (venues/<venue>/maximums.ts); sources
 * (docs/exchanges.md "Any pair the venue lists"):
 * - Binance spot, GET /api/v3/exchangeInfo `filters` (https://developers.binance.com/docs/binance-spot-api-docs/filters):
 *   LOT_SIZE maxQty ("quantity <= maxQty"), NOTIONAL maxNotional ("price * quantity <= maxNotional"),
 *   MAX_NUM_ORDERS maxNumOrders ("the maximum number of orders an account is allowed to have open on a
 *   symbol"), PERCENT_PRICE_BY_SIDE ("buy: price <= weightedAveragePrice * bidMultiplierUp, price >=
 *   weightedAveragePrice * bidMultiplierDown"; sells the same with askMultiplierUp/Down). ccxt's binance
 *   market puts LOT_SIZE maxQty in limits.amount.max and NOTIONAL maxNotional in limits.cost.max.
 * - Binance USDⓈ-M, GET /fapi/v1/exchangeInfo `filters`: LOT_SIZE maxQty, MAX_NUM_ORDERS `limit`,
 *   PERCENT_PRICE multiplierUp/multiplierDown against the mark price (a buy at most multiplierUp × it, a sell
 *   at least multiplierDown × it).
 * - KuCoin spot, GET /api/v2/symbols: baseMaxSize, quoteMaxSize (ccxt: limits.amount.max, limits.cost.max).
 * - KuCoin futures, GET /api/v1/contracts/active: maxOrderQty in lots (ccxt: limits.amount.max, in contracts).
 */
import type { VenueId } from './venue.types';
import { positive, type CcxtMarketLike, type Maximums } from './ccxt-market';
import { VENUE_REGISTRY, venueById } from './registry';

export type { CcxtMarketLike, Maximums } from './ccxt-market';

/** Each venue's name of each maximum (the words of its API), from its folder. */
export const MAXIMUM_RULE_NAMES: Readonly<Record<VenueId, NonNullable<Maximums['ruleNames']>>> = Object.fromEntries(
  VENUE_REGISTRY.map((v) => [v.id, v.ccxt.maximums.ruleNames]),
) as Record<VenueId, NonNullable<Maximums['ruleNames']>>;

/** Only the keys with a value (so that an absent maximum stays absent). */
function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/**
 * The maximums of a ccxt market of `venue`; `contractSize` converts a contract market's amounts to base
 * units (KuCoin futures). Maximums the market does not state are absent. The largest amount is read the same
 * way everywhere (limits.amount.max, else a LOT_SIZE filter's maxQty); the rest is the venue's own reading.
 */
export function ccxtMaximums(venue: VenueId, m: CcxtMarketLike, contractSize = 1): Maximums {
  const own = venueById(venue).ccxt.maximums;
  const lot = (m.info as { filters?: Array<Record<string, unknown>> } | undefined)?.filters;
  const lotMax = Array.isArray(lot) ? lot.find((f) => f && f.filterType === 'LOT_SIZE')?.maxQty : undefined;
  const amountMax = positive(m.limits?.amount?.max) ?? positive(lotMax);
  const { maxNotional, maxNumOrders, percentPrice } = own.read(m);
  const maxAmount = amountMax === undefined ? undefined : Number((amountMax * contractSize).toPrecision(12));
  const out = defined({ maxAmount, maxNotional, maxNumOrders, percentPrice: percentPrice && Object.keys(percentPrice).length ? percentPrice : undefined });
  return Object.keys(out).length ? { ...out, ruleNames: own.ruleNames } : out;
}
