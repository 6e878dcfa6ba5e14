/**
 * What one read of an account's balances costs on each venue (issue 40, the balances page), as the
 * adapter makes it (ccxt 4.5.84 `fetchBalance`), with the venue's words for it. Pure data.
 *
 * - Binance spot: `GET /api/v3/account` (Account information, USER_DATA), request weight 20 of the IP's
 *   REQUEST_WEIGHT 6,000 a minute:
 *   https://developers.binance.com/docs/binance-spot-api-docs/rest-api/account-endpoints#account-information-user_data
 * - Binance USDⓈ-M: ccxt's `fetchBalance` reads `GET /fapi/v3/account` (Account Information V3), request
 *   weight 5 of 2,400 a minute, as `GET /fapi/v3/balance` (Futures Account Balance V3) also weighs 5:
 *   https://developers.binance.com/docs/derivatives/usds-margined-futures/account/rest-api/Account-Information-V3,
 *   https://developers.binance.com/docs/derivatives/usds-margined-futures/account/rest-api/Futures-Account-Balance-V3
 * - KuCoin spot: `GET /api/v1/accounts`, weight 5 of the Management pool (2,000 per 30 s per account at VIP 0);
 *   KuCoin futures: `GET /api/v1/account-overview`, weight 5 of the Futures pool (2,000 per 30 s): each
 *   endpoint's `x-api-rate-limit-pool` / `-weight` in https://github.com/Kucoin/kucoin-universal-sdk
 *   spec/rest/api, pools at https://www.kucoin.com/docs-new/rate-limit (docs/exchanges.md "Rate limits").
 * The stand-ins count the same weights (testing/standin/rate-limits.ts, kucoin.rate-limits.ts).
 */
import type { ExchangeName, MarketType } from '../exchange.port';
import { venueOf } from './registry';
import type { BalanceRead } from './venue';

export type { BalanceRead } from './venue';

/** The balances read of a venue: its folder's `rest.balanceRead` (venues/<venue>/venue.ts). */
export function balanceRead(exchange: ExchangeName, market: MarketType): BalanceRead {
  return venueOf(exchange, market).rest.balanceRead;
}

/**
 * How long a read of one account's balances is served again before the venue is asked anew: a page
 * opened in several tabs, reloaded, or polled, spends one read per account in that time (Binance spot:
 * at most 20 × 6 = 120 weight a minute per account, 2 % of the IP's minute).
 */
export const BALANCES_CACHE_MS = 10_000;
