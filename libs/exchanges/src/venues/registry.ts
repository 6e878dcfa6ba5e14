/**
 * The venues GridRocket trades on (issue 42): one line per venue and market, each a folder of its own
 * (venue.ts describes what a folder brings). Everything that differs by venue is asked here; nothing
 * else branches on a venue's name (libs/shared/src/boundaries/venue-names.spec.ts).
 */
import type { ExchangeName, MarketType } from '../exchange.port';
import type { VenueId } from './venue.types';
import type { CcxtId, ExchangeAccount, Venue } from './venue';
import { BINANCE_SPOT_VENUE } from './binance-spot/venue';
import { BINANCE_USDM_VENUE } from './binance-usdm/venue';
import { KUCOIN_SPOT_VENUE } from './kucoin-spot/venue';
import { KUCOIN_FUTURES_VENUE } from './kucoin-futures/venue';

export const VENUE_REGISTRY: readonly Venue[] = [
  BINANCE_SPOT_VENUE,
  BINANCE_USDM_VENUE,
  KUCOIN_SPOT_VENUE,
  KUCOIN_FUTURES_VENUE,
];

/** The venue of an exchange's market; throws for a pair the registry does not list. */
export function venueOf(exchange: ExchangeName, market: MarketType): Venue {
  const v = VENUE_REGISTRY.find((x) => x.exchange === exchange && x.market === market);
  if (!v) throw new Error(`no venue for ${String(exchange)} ${String(market)}`);
  return v;
}

export function venueById(id: VenueId): Venue {
  const v = VENUE_REGISTRY.find((x) => x.id === id);
  if (!v) throw new Error(`no venue ${String(id)}`);
  return v;
}

/** The venue of a ccxt class id ('binanceusdm'), or undefined. */
export function venueByCcxtId(id: string): Venue | undefined {
  return VENUE_REGISTRY.find((x) => x.ccxt.id === id);
}

/** The account (key, permissions, display name) of an exchange: the one its markets share. */
export function accountOf(exchange: ExchangeName): ExchangeAccount {
  const v = VENUE_REGISTRY.find((x) => x.exchange === exchange);
  if (!v) throw new Error(`no venue for ${String(exchange)}`);
  return v.account;
}

/** The accounts of the registry's exchanges, once each, in its order. */
export function exchangeAccounts(): ExchangeAccount[] {
  return [...new Set(VENUE_REGISTRY.map((v) => v.account))];
}

/**
 * The client config's `exchangeSignup` (the spec's GET /api/config): each exchange's sign-up link, keyed by
 * its name in lower case, an operator's override (config.exchangeSignup, from `<NAME>_SIGNUP_URL`) first.
 */
export function signupLinks(overrides: Readonly<Record<string, string>> = {}): Record<string, string> {
  return Object.fromEntries(exchangeAccounts().map((a) => [a.exchange.toLowerCase(), overrides[a.exchange.toLowerCase()] ?? a.signupUrl]));
}

/** The exchange a user or a CLI typed ('binance', 'KUCOIN'…), or undefined. */
export function exchangeNamed(value: string): ExchangeName | undefined {
  const v = value.trim().toLowerCase();
  return VENUE_REGISTRY.find((x) => x.account.aliases.includes(v) || x.exchange.toLowerCase() === v)?.exchange;
}

/** ccxt's class id of an exchange's market. */
export function ccxtIdOf(exchange: ExchangeName, market: MarketType): CcxtId {
  return venueOf(exchange, market).ccxt.id;
}

/** ccxt's id of the venue and market (binance, binanceusdm, kucoin, kucoinfutures): the registry's. */
export const ccxtExchangeId = ccxtIdOf;

/** Accepts 'Binance', 'binance', 'KUCOIN'…; undefined for anything else. */
export function parseExchangeName(value: string): ExchangeName | undefined {
  return exchangeNamed(String(value));
}

export type { CapacityLimit, CcxtId, CcxtInstanceLike, ExchangeAccount, OrderWindowLimit, Venue, VenueCapacity } from './venue';
