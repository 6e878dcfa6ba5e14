/** What a KuCoin API key may do, as the venue answers it (issue 30); the interface: ../key-permissions.ts. */
import type { KeyPermissions } from '../key-permissions.types';

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
