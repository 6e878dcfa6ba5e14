/**
 * Each venue's markets as the venue reports them (issue 32): price step, amount step, minimum amount
 * and minimum order value per symbol, for Binance spot, Binance USDⓈ-M futures, Kucoin spot and Kucoin
 * futures, the same symbol differing by market (Binance's SOLUSDT perpetual trades whole coins where
 * its spot market takes 0.001 SOL). Pure data and one lookup; the paper exchange checks orders against
 * it and reports it as the market's rules (paper-order-rules.ts, paper.exchange.ts marketRules), so the
 * bot's create-time check (libs/bots market-check.ts) refuses what the venue's market would refuse.
 *
 * Each venue's rows are in its folder (venues/<venue>/markets.ts, with how a symbol without a row is
 * shaped); the shape and MARKET_SOURCES in market-spec.ts. Every row names its source (MARKET_SOURCES, also
 * in docs/exchanges.md "Markets"). The venues publish
 * a symbol's current values only through their APIs (Binance GET /api/v3/exchangeInfo and
 * /fapi/v1/exchangeInfo, Kucoin GET /api/v2/symbols and /api/v1/contracts/active), not in their
 * documentation; the rows below are the venues' own answers as recorded in public snapshots (with the
 * commit), announced changes, and one value only the issue states (ISSUE-32: re-check it). A symbol without a row here was NOT found in any source: the paper
 * catalogue's values (paper.constants.ts) are used for it and `source` says 'catalogue' — not the venue's
 * word (docs/exchanges.md lists which). Values change on the venues without notice ("Binance Futures will
 * adjust the minimum order threshold from time to time without prior announcement", BF-MIN5).
 *
 * Fees are per venue and market, not per symbol: the venue rules' `fees` (binance-spot/rules.ts …),
 * sources in docs/exchanges.md.
 */
import type { ExchangeName, MarketType } from '../exchange.port';
import type { VenueId } from './venue.types';
import type { CatalogueSpec, MarketSpec, Row } from './market-spec';
import { VENUE_REGISTRY, venueOf } from './registry';

export { MARKET_SOURCES, type CatalogueSpec, type MarketSourceKey, type MarketSpec } from './market-spec';

/** Every venue's rows, by venue id (each from its folder). */
export const MARKETS: Readonly<Record<VenueId, Readonly<Record<string, Row>>>> = Object.fromEntries(VENUE_REGISTRY.map((v) => [v.id, v.markets.rows])) as Record<VenueId, Readonly<Record<string, Row>>>;

export function venueIdOf(exchange: ExchangeName, market: MarketType): VenueId {
  return venueOf(exchange, market).id;
}

/**
 * The rules of `symbol` on `exchange`'s `market`: the venue's row, else the catalogue's values
 * (source 'catalogue'), shaped by what the venue's market documents (its folder's `fromCatalogue`): Kucoin
 * futures trades in lots (the catalogue's amount step as the multiplier) with no minimum value; Binance
 * USDⓈ-M has the 5 USDT default minimum (BF-MIN5).
 */
export function marketSpec(exchange: ExchangeName, market: MarketType, symbol: string, catalogue: CatalogueSpec): MarketSpec {
  const { markets } = venueOf(exchange, market);
  const row = markets.rows[symbol.toUpperCase()];
  if (row) return { ...row };
  return markets.fromCatalogue(catalogue);
}
