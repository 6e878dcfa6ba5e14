/**
 * What an API key may do, as the venue reports it (issue 30: keys that cannot withdraw). Pure parsers of
 * the two venues' answers; the ccxt adapter asks (ccxt.exchange.ts keyPermissions), the paper exchange and
 * the stand-ins answer in the same shapes. Endpoints and fields: docs/exchanges.md, "Key permissions".
 */

/** The facts GridRocket decides on; `ipRestricted` null = not applicable (the paper exchange). */
export interface KeyPermissions {
  /** The key may withdraw funds (Binance enableWithdrawals; KuCoin "Transfer"/"Withdrawal"). */
  withdraw: boolean;
  /** The key may read balances and orders (Binance enableReading; KuCoin "General"). */
  read: boolean;
  /** Spot trading (Binance enableSpotAndMarginTrading; KuCoin "Spot"). */
  spot: boolean;
  /** Futures trading (Binance enableFutures; KuCoin "Futures"). */
  futures: boolean;
  /** The key works only from listed IP addresses; null where the question does not apply (paper). */
  ipRestricted: boolean | null;
}

/**
 * Binance `GET /sapi/v1/account/apiRestrictions` (wallet API, "Get API Key Permission (USER_DATA)"):
 * booleans ipRestrict, enableReading, enableWithdrawals, enableSpotAndMarginTrading, enableFutures, …
 * https://developers.binance.com/docs/wallet/account/api-key-permission
 * A body without the two booleans we decide on (enableWithdrawals, ipRestrict) is not an answer (null):
 * the caller then says it could not check the key, it never guesses. A missing trading flag reads as false.
 */
export function binanceKeyPermissions(body: unknown): KeyPermissions | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const b = body as Record<string, unknown>;
  if (typeof b.enableWithdrawals !== 'boolean' || typeof b.ipRestrict !== 'boolean') return null;
  return {
    withdraw: b.enableWithdrawals,
    read: b.enableReading === true,
    spot: b.enableSpotAndMarginTrading === true,
    futures: b.enableFutures === true,
    ipRestricted: b.ipRestrict,
  };
}

/**
 * KuCoin `GET /api/v1/user/api-key` ("Get Apikey Info"): `{code: '200000', data: {remark, apiKey,
 * apiVersion, permission: 'General,Spot,Futures', ipWhitelist: '203.**.154,…', isMaster, uid, createdAt}}`.
 * Permission names (https://www.kucoin.com/docs-new/introduction, "api-permission"): General (read-only),
 * Spot, Margin, Futures, Earn, Withdrawal ("Transfer" in the key's permission string; it needs an IP
 * restriction), FlexTransfers/InnerTransfer (between the user's own accounts, not out of them).
 * https://www.kucoin.com/docs-new/rest/account-info/account-funding/get-apikey-info
 * `body` is the whole answer or its `data`.
 */
export function kucoinKeyPermissions(body: unknown): KeyPermissions | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const outer = body as Record<string, unknown>;
  const data = (outer.data && typeof outer.data === 'object' ? outer.data : outer) as Record<string, unknown>;
  if (typeof data.permission !== 'string') return null;
  const perms = new Set(
    data.permission
      .split(',')
      .map((p) => p.trim().toLowerCase())
      .filter(Boolean),
  );
  const ips = typeof data.ipWhitelist === 'string' ? data.ipWhitelist.trim() : Array.isArray(data.ipWhitelist) ? data.ipWhitelist.join(',') : '';
  return {
    withdraw: perms.has('transfer') || perms.has('withdrawal') || perms.has('withdraw'),
    read: perms.has('general'),
    spot: perms.has('spot'),
    futures: perms.has('futures'),
    ipRestricted: ips.length > 0,
  };
}
