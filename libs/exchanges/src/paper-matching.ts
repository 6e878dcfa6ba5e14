/**
 * Matching of the paper exchange: which orders a trade fills and at what price and role. No
 * liquidity model: a resting limit order fills in full at its limit price as a MAKER when a trade
 * prints at or through it; an order that crosses the current price when placed (or a market order)
 * TAKES: it fills at once at the current price — the book's — with the taker rate (finding 8).
 */
import type { ExchangeName, OrderSide } from './exchange.port';
import { bps } from './paper-accounts';
import { PaperOrderBook, type BookOrder } from './paper-order-book';
import type { VenueRules } from './venues/venue-rules';

export const bookKey = (exchange: ExchangeName, symbol: string) => `${exchange}:${symbol}`;

export type Role = 'maker' | 'taker';

/** Would an order placed now take liquidity? Market orders always do; a limit order if it crosses. */
export function takesOnPlacement(order: { side: OrderSide; price: number }, current: number, market: boolean): boolean {
  return market || PaperOrderBook.crosses({ id: 0, side: order.side, price: order.price }, current);
}

/** Fill price and fee rate (basis points) of a fill: maker at the limit, taker at the current price. */
export function execution(venue: VenueRules, limitPrice: number, takerPrice: number | undefined): { price: number; role: Role; rateBps: number } {
  if (takerPrice === undefined) return { price: limitPrice, role: 'maker', rateBps: bps(venue.fees.maker) };
  return { price: takerPrice, role: 'taker', rateBps: bps(venue.fees.taker) };
}

/** The fee rate an order must hold for: the taker rate if it takes on placement, else the maker rate. */
export function holdRateBps(venue: VenueRules, takes: boolean): number {
  return bps(takes ? venue.fees.taker : venue.fees.maker);
}

export { PaperOrderBook, type BookOrder };
