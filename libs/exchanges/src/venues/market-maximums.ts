/**
 * Issue 39, "Any pair the venue lists": a market's maximums as its venue states them, read from the market
 * ccxt loads (its unified `limits` where it carries them, the venue's own `info` otherwise), with the
 * venue's name of each rule so that a refusal names it. Pure: no ccxt, no I/O.
 *
 * Sources (docs/exchanges.md "Any pair the venue lists"):
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
import type { MarketRules, PercentPrice } from '../exchange.port';
import type { VenueId } from './venue.types';

export type Maximums = Pick<MarketRules, 'maxAmount' | 'maxNotional' | 'maxNumOrders' | 'percentPrice' | 'ruleNames'>;

/** Each venue's name of each maximum (the words of its API). */
export const MAXIMUM_RULE_NAMES: Readonly<Record<VenueId, NonNullable<MarketRules['ruleNames']>>> = {
  'binance-spot': { maxAmount: 'LOT_SIZE maxQty', maxNotional: 'NOTIONAL maxNotional', maxNumOrders: 'MAX_NUM_ORDERS maxNumOrders', percentPrice: 'PERCENT_PRICE_BY_SIDE' },
  'binance-usdm': { maxAmount: 'LOT_SIZE maxQty', maxNumOrders: 'MAX_NUM_ORDERS limit', percentPrice: 'PERCENT_PRICE' },
  'kucoin-spot': { maxAmount: 'baseMaxSize', maxNotional: 'quoteMaxSize' },
  'kucoin-futures': { maxAmount: 'maxOrderQty' },
};

/** The part of a ccxt market read here. */
export interface CcxtMarketLike {
  limits?: { amount?: { min?: number | null; max?: number | null }; cost?: { min?: number | null; max?: number | null } };
  info?: unknown;
}

const positive = (v: unknown): number | undefined => {
  const n = typeof v === 'string' ? Number(v) : typeof v === 'number' ? v : NaN;
  return Number.isFinite(n) && n > 0 ? n : undefined;
};

/** The Binance filter of this type in a market's info, if any. */
function filter(info: unknown, type: string): Record<string, unknown> | undefined {
  const filters = (info as { filters?: unknown })?.filters;
  if (!Array.isArray(filters)) return undefined;
  return filters.find((f) => f && typeof f === 'object' && (f as { filterType?: unknown }).filterType === type) as Record<string, unknown> | undefined;
}

/** Only the keys with a value (so that an absent maximum stays absent). */
function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/**
 * The maximums of a ccxt market of `venue`; `contractSize` converts a contract market's amounts to base
 * units (KuCoin futures). Maximums the market does not state are absent.
 */
export function ccxtMaximums(venue: VenueId, m: CcxtMarketLike, contractSize = 1): Maximums {
  const info = m.info;
  const amountMax = positive(m.limits?.amount?.max) ?? positive(filter(info, 'LOT_SIZE')?.maxQty);
  let maxNotional: number | undefined;
  let maxNumOrders: number | undefined;
  let percentPrice: PercentPrice | undefined;
  if (venue === 'binance-spot') {
    maxNotional = positive(m.limits?.cost?.max) ?? positive(filter(info, 'NOTIONAL')?.maxNotional);
    maxNumOrders = positive(filter(info, 'MAX_NUM_ORDERS')?.maxNumOrders);
    const side = filter(info, 'PERCENT_PRICE_BY_SIDE');
    const plain = filter(info, 'PERCENT_PRICE');
    if (side) percentPrice = defined({ bidUp: positive(side.bidMultiplierUp), bidDown: positive(side.bidMultiplierDown), askUp: positive(side.askMultiplierUp), askDown: positive(side.askMultiplierDown) });
    else if (plain) percentPrice = defined({ bidUp: positive(plain.multiplierUp), bidDown: positive(plain.multiplierDown), askUp: positive(plain.multiplierUp), askDown: positive(plain.multiplierDown) });
  } else if (venue === 'binance-usdm') {
    maxNumOrders = positive(filter(info, 'MAX_NUM_ORDERS')?.limit);
    const plain = filter(info, 'PERCENT_PRICE');
    if (plain) percentPrice = defined({ bidUp: positive(plain.multiplierUp), askDown: positive(plain.multiplierDown) });
  } else if (venue === 'kucoin-spot') {
    maxNotional = positive(m.limits?.cost?.max) ?? positive((info as { quoteMaxSize?: unknown })?.quoteMaxSize);
  }
  const maxAmount = amountMax === undefined ? undefined : Number((amountMax * contractSize).toPrecision(12));
  const out = defined({ maxAmount, maxNotional, maxNumOrders, percentPrice: percentPrice && Object.keys(percentPrice).length ? percentPrice : undefined });
  return Object.keys(out).length ? { ...out, ruleNames: MAXIMUM_RULE_NAMES[venue] } : out;
}
