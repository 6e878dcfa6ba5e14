/**
 * Maintenance margin tiers of the futures venues (issue 14: the liquidation price of a grid before it
 * starts; issue 40: the paper exchange liquidates at it, the stand-ins refuse a leverage above a tier's).
 * Pure data, each futures venue's tables in its folder (venues/<venue>/margin-tiers.ts), the shape and the
 * default in margin-tier-tables.ts; sources in docs/exchanges.md ("Maintenance margin tiers"):
 *  - Binance USDⓈ-M BTCUSDT: the venue's own answer of GET /fapi/v1/leverageBracket ("Notional and
 *    Leverage Brackets", https://developers.binance.com/docs/derivatives/usds-margined-futures/account/rest-api/Notional-and-Leverage-Brackets)
 *    as recorded in github.com/boolean404/heikin-ashi-trading-bot `json/fapiPrivate_get_leverage_bracket.py`
 *    (commit f4c6c76f2b465421681cded5f60c2f3cf29c256d): notionalCap, maintMarginRatio, initialLeverage and
 *    cum of each bracket (the cum it lists, 0 / 50 / 1,300 / 46,300 …, is what `maintenanceAmounts` derives);
 *  - Kucoin futures XBTUSDTM and ETHUSDTM: the first risk limit level of the contract as GET
 *    /api/v1/contracts/active lists it (maintainMargin, initialMargin = 1 ÷ max leverage, maxRiskLimit: the
 *    level's upper notional), recorded in github.com/ccxt/ccxt ts/src/test/static/markets/kucoinfutures.json
 *    (commit 23dc7b5a4544e4b2fd19ab33b3576a1296f345e5); the levels above it (GET /api/v1/contracts/risk-limit/{symbol},
 *    "Obtain Futures Risk Limit Level", github.com/Kucoin/kucoin-futures-api-docs) were not found recorded for
 *    these contracts, so beyond the first level the conservative table below applies;
 *  - every other symbol: the 50x table of "Updates to Leverage and Margin Tiers of Binance Futures
 *    Contracts (2021-03-18)" (binance.com/en/support/announcement/86cf9aa472574b8cb2e05bb751c2a9a6), whose
 *    rates are higher than BTCUSDT's, so the liquidation price computed from it comes earlier (conservative:
 *    a risky grid is refused rather than let through).
 * The maintenance amount of each tier is not guessed: it follows from the tiers (Binance: "Maintenance
 * Margin = Notional Position Value × Maintenance Margin Rate − Maintenance Amount", continuous at
 * each tier's floor), see `maintenanceAmounts`.
 */
import type { ExchangeName } from '../exchange.port';
import { DEFAULT_TABLE, type MarginTier, type MarginTierTable } from './margin-tier-tables';
import { venueOf } from './registry';

export { maintenanceAmounts, type MarginTier, type MarginTierTable } from './margin-tier-tables';

/** The maintenance margin tiers of a futures symbol on a venue. */
export function marginTiers(exchange: ExchangeName, symbol: string): MarginTierTable {
  return venueOf(exchange, 'futures').marginTiers?.[symbol.toUpperCase()] ?? DEFAULT_TABLE;
}

/**
 * The highest leverage a position of `notional` may have on the symbol (its tier's), or null when the
 * table does not say: the venue answers such a leverage with -4028 "Leverage %s is not valid" (Binance,
 * https://developers.binance.com/docs/derivatives/usds-margined-futures/error-code) or 300016 "The leverage
 * cannot be greater than xxx." (Kucoin, kucoin-futures-api-docs `_errors.md`).
 */
export function maxLeverageOf(table: MarginTierTable, notional = 0): number | null {
  return tierFor(table, notional).maxLeverage ?? null;
}

/** The tier of a position's notional (the last tier beyond every cap). */
export function tierFor(table: MarginTierTable, notional: number): MarginTier {
  for (const t of table.tiers) if (notional <= t.notionalCap) return t;
  return table.tiers[table.tiers.length - 1];
}
