/** What a Binance API key may do, as the venue answers it (issue 30); the interface: ../key-permissions.ts. */
import type { KeyPermissions } from '../key-permissions.types';

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
