/**
 * Venue rules: what Binance and Kucoin document and a bot depends on, as data and pure functions
 * (no I/O). Written once and used twice: by the paper exchange (the embedded default behaves like the
 * venue) and by the venue stand-ins of the ccxt adapter's tests (the adapter's requests are checked
 * the way the venue checks them). Every rule's source is cited in docs/exchanges.md.
 */
import type { ExchangeName, MarketType, OrderSide } from '../exchange.port';
import { BINANCE_SPOT } from './binance-spot/rules';
import { BINANCE_USDM } from './binance-usdm/rules';
import { KUCOIN_SPOT } from './kucoin-spot/rules';
import { KUCOIN_FUTURES } from './kucoin-futures/rules';
import type { VenueRules } from './venue.types';
import { VENUE_REGISTRY, venueOf } from './registry';

export type { VenueId, VenueAnswer, VenueRules } from './venue.types';
export { BINANCE_SPOT, BINANCE_USDM, KUCOIN_SPOT, KUCOIN_FUTURES };


/** Every venue's rules, in the registry's order (venues/registry.ts). */
export const VENUES: readonly VenueRules[] = VENUE_REGISTRY.map((v) => v.rules);

export function venueRules(exchange: ExchangeName, market: MarketType): VenueRules {
  return venueOf(exchange, market).rules;
}

/** The fee of one fill: which asset it is charged in and how much, before any rounding. */
export function fillFee(
  rules: VenueRules,
  fill: { side: OrderSide; price: number; amount: number; role: 'maker' | 'taker' },
  options: { payInDiscountAsset?: boolean; discountAssetPrice?: number; base: string; quote: string } = { base: 'BASE', quote: 'QUOTE' },
): { asset: string; cost: number; quoteValue: number } {
  const rate = fill.role === 'maker' ? rules.fees.maker : rules.fees.taker;
  const notional = fill.price * fill.amount;
  if (options.payInDiscountAsset && rules.fees.discountAsset && options.discountAssetPrice) {
    const quoteValue = notional * rate * (1 - (rules.fees.discount ?? 0));
    return { asset: rules.fees.discountAsset, cost: quoteValue / options.discountAssetPrice, quoteValue };
  }
  if (fill.side === 'buy' && rules.fees.buyFeeIn === 'base') {
    const cost = fill.amount * rate;
    return { asset: options.base, cost, quoteValue: cost * fill.price };
  }
  return { asset: options.quote, cost: notional * rate, quoteValue: notional * rate };
}

/** What a buy of `amount` leaves in the account after a fee charged in the coin received. */
export function netBoughtAmount(rules: VenueRules, amount: number, role: 'maker' | 'taker' = 'maker'): number {
  if (rules.fees.buyFeeIn !== 'base') return amount;
  return amount * (1 - (role === 'maker' ? rules.fees.maker : rules.fees.taker));
}

/**
 * The smallest take-profit (percent above the average buy price) that covers a round trip of maker
 * fees: (1 + m) / (1 − m) − 1, rounded UP to the next 0.01 % strictly above it. The maker rate, not
 * the taker rate: the grid's buys and its take-profit are resting limit orders (docs/exchanges.md,
 * "Fee rates"), so both legs pay the maker fee. A take-profit below it books a loss as "profit".
 * `makerRate` is a fraction (0.001 = 0.1 %): the market's reported maker fee when it has one, else
 * the venue's default (`venueRules(exchange, market).fees.maker`).
 */
export function minTakeProfitPercent(makerRate: number): number {
  const m = makerRate;
  const breakEven = ((1 + m) / (1 - m) - 1) * 100;
  // the next 0.01 % strictly above break-even
  return Math.ceil(breakEven * 100 + 1e-9) / 100;
}

/** Does this client order id pass the venue's format check? */
export function validClientOrderId(rules: VenueRules, id: unknown): boolean {
  return typeof id === 'string' && id.length <= rules.clientOrderId.maxLength && rules.clientOrderId.pattern.test(id);
}

/**
 * The [start, end] windows (inclusive, ms) a fill recovery from `sinceMs` to `nowMs` must ask for, each
 * no longer than the venue allows, oldest first.
 */
export function tradeWindows(rules: VenueRules, sinceMs: number, nowMs: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const span = rules.tradeHistory.maxWindowMs;
  for (let start = sinceMs; start <= nowMs; start += span) out.push([start, Math.min(start + span - 1, nowMs)]);
  return out;
}
