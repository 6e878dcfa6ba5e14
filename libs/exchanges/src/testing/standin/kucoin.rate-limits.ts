/**
 * KuCoin's REST rate limits as the KuCoin stand-ins enforce them (issue 39), every figure with its source.
 *
 * "Rate Limit", https://www.kucoin.com/docs-new/rate-limit ("Rest Rate Limit"):
 * - Resource pools, each with a quota per 30 s by VIP level; VIP 0 (the stand-in's): Spot (include Margin)
 *   4000/30s, Futures 2000/30s, Management 2000/30s, Public 2000/30s (Earn and CopyTrading 2000/30s too,
 *   unused here).
 * - "When a user requests any API, the weight of this interface will be deducted and updated every 30s
 *   (starting from the arrival time of the user's first request)": a pool's window opens with its first
 *   request and lasts 30 s; the next request after it opens a new one with the full quota.
 * - "If the quota of any resource pool is used up within 30s ... an error message of http code:429, error
 *   code:429000 will be returned, and the request can be re-requested after the length of time displayed in
 *   the request header": 429 `{"code":"429000","msg":"Too Many Requests"}` (the body KuCoin's earlier docs
 *   give for 429000, https://github.com/Kucoin/kucoin-api-docs source/localizable/index.cn.html.md, and that
 *   freqtrade's KuCoin tests record), `gw-ratelimit-reset` the wait.
 *   The venue does not ban: a refused request costs nothing and the quota comes back at the window's end.
 * - "Request Header": every answer carries the pool's "Total resource pool quota, resource pool remaining
 *   quota, resource pool quota reset countdown (milliseconds)": `gw-ratelimit-limit`, `gw-ratelimit-remaining`,
 *   `gw-ratelimit-reset`.
 * - "Public Endpoint Rate Limit": the Public pool "is based on IP"; "all other resource pools are based on
 *   UID" ("Private Endpoint Rate Limit"). The stand-in is one IP: one Public pool; a private pool per key's user.
 * - Each endpoint's pool and weight: its page's "API-RATE-LIMIT-POOL" and "API-RATE-LIMIT-WEIGHT", as KuCoin's
 *   own SDK declares them (`x-api-rate-limit-pool`, `x-api-rate-limit-weight` in
 *   https://github.com/Kucoin/kucoin-universal-sdk spec/rest/api/openapi-spot-*.json, openapi-futures-*.json,
 *   openapi-account-account.json; each line below names its docs-new page id, https://www.kucoin.com/docs-new/api-<id>).
 *   Routes KuCoin documents no weight for (the classic/unified account-mode probes ccxt sends once) are not charged.
 */
import type { StubRequest } from '../exchange-stub.server';
import type { MarketType } from '../../exchange.port';
import type { WeightMeter } from './rate-limits';

export type KucoinPool = 'Spot' | 'Futures' | 'Management' | 'Public';

/** VIP 0's quota per 30 s (docs-new/rate-limit, "Resource Pool"). */
export const KUCOIN_POOLS_VIP0: Record<KucoinPool, number> = { Spot: 4000, Futures: 2000, Management: 2000, Public: 2000 };
export const KUCOIN_WINDOW_MS = 30_000;

interface Cost {
  pool: KucoinPool;
  weight: number;
}
const c = (pool: KucoinPool, weight: number): Cost => ({ pool, weight });

/** Spot (classic account) routes the stand-in serves: `METHOD path`, `*` for one path segment. */
export const KUCOIN_SPOT_WEIGHTS: Record<string, Cost> = {
  'GET /api/v1/hf/accounts/opened': c('Spot', 30), // 3470120 Get Account Type - Spot
  'POST /api/v1/orders': c('Spot', 2), // 3470333 Add Order - Old
  'GET /api/v1/orders': c('Spot', 2), // 3470346 Get Orders List - Old
  'GET /api/v1/orders/*': c('Spot', 2), // 3470348 Get Order By OrderId - Old
  'GET /api/v1/fills': c('Spot', 10), // 3470350 Get Trade History - Old
  'DELETE /api/v1/order/client-order/*': c('Spot', 3), // 3470344 Cancel Order By ClientOid - Old
  'GET /api/v1/order/client-order/*': c('Spot', 3), // 3470349 Get Order By ClientOid - Old
  'GET /api/v1/accounts': c('Management', 5), // 3470125 Get Account List - Spot
  'GET /api/v1/user/api-key': c('Management', 20), // 3470130 Get Apikey Info
  'GET /api/v2/symbols': c('Public', 4), // 3470154 Get All Symbols
  'GET /api/v1/market/stats': c('Public', 15), // 3470161 Get 24hr Stats
  'GET /api/v1/market/orderbook/level1': c('Public', 2), // 3470160 Get Ticker
  'GET /api/v1/market/allTickers': c('Public', 15), // 3470167 Get All Tickers
  'GET /api/v1/timestamp': c('Public', 3), // 3470156 Get Server Time
  'POST /api/v1/bullet-public': c('Public', 10), // 3470294 Get Public Token - Spot/Margin
  'POST /api/v1/bullet-private': c('Spot', 10), // 3470295 Get Private Token - Spot/Margin
};

/** Futures routes the stand-in serves. */
export const KUCOIN_FUTURES_WEIGHTS: Record<string, Cost> = {
  'POST /api/v1/orders': c('Futures', 2), // 3470235 Add Order
  'GET /api/v1/orders': c('Futures', 2), // 3470244 Get Order List
  'GET /api/v1/orders/byClientOid': c('Futures', 5), // 3470352 Get Order By ClientOid
  'GET /api/v1/orders/*': c('Futures', 5), // 3470245 Get Order By OrderId
  'DELETE /api/v1/orders/client-order/*': c('Futures', 1), // 3470240 Cancel Order By ClientOid
  'GET /api/v1/fills': c('Futures', 5), // 3470248 Get Trade History
  'GET /api/v1/account-overview': c('Futures', 5), // 3470129 Get Account - Futures
  'GET /api/v1/positions': c('Futures', 2), // 3470253 Get Position List
  'GET /api/v1/position': c('Futures', 2), // 3470252 Get Position Details
  'POST /api/v2/position/changeMarginMode': c('Futures', 2), // 3470262 Switch Margin Mode
  'POST /api/v2/changeCrossUserLeverage': c('Futures', 2), // 3470261 Modify Cross Margin Leverage
  'GET /api/v1/user/api-key': c('Management', 20), // 3470130 Get Apikey Info
  'GET /api/v1/contracts/active': c('Public', 3), // 3470220 Get All Symbols
  'GET /api/v1/ticker': c('Public', 2), // 3470222 Get Ticker
  'GET /api/v1/allTickers': c('Public', 5), // 3470223 Get All Tickers
  'GET /api/v1/timestamp': c('Public', 2), // 3470229 Get Server Time
  'POST /api/v1/bullet-public': c('Public', 10), // 3470297 Get Public Token - Futures
  'POST /api/v1/bullet-private': c('Futures', 10), // 3470296 Get Private Token - Futures
};

/** The pool and weight of a request, or null where KuCoin documents none. */
export function kucoinCostOf(table: Record<string, Cost>, method: string, path: string): Cost | null {
  const exact = table[`${method} ${path}`];
  if (exact) return exact;
  for (const [k, cost] of Object.entries(table)) {
    if (!k.endsWith('/*')) continue;
    const [m, p] = k.split(' ');
    const prefix = p.slice(0, -1);
    if (m === method && path.startsWith(prefix) && !path.slice(prefix.length).includes('/') && path.length > prefix.length) return cost;
  }
  return null;
}

export interface KucoinRefusal {
  status: 429;
  body: { code: '429000'; msg: string };
  headers: Record<string, string>;
}

/**
 * One stand-in's KuCoin pools: the Public pool of its one IP and the private pools of each user, in
 * windows opened by their first request (30 s); 429 / 429000 past a quota.
 */
export class KucoinRateMeter implements WeightMeter {
  private readonly windows = new Map<string, { start: number; used: number }>();
  readonly spent: Array<{ at: number; weight: number; route: string; pool: string }> = [];
  readonly refusals: Array<{ at: number; status: number; pool: string }> = [];
  readonly poolsPerMinute: Record<string, number>;

  constructor(
    readonly market: MarketType,
    readonly quotas: Record<KucoinPool, number> = KUCOIN_POOLS_VIP0,
    private readonly now: () => number = Date.now,
  ) {
    this.poolsPerMinute = Object.fromEntries(Object.entries(quotas).map(([p, q]) => [p, (q * 60_000) / KUCOIN_WINDOW_MS]));
  }

  costOf(req: Pick<StubRequest, 'method' | 'path'>): Cost | null {
    return kucoinCostOf(this.market === 'spot' ? KUCOIN_SPOT_WEIGHTS : KUCOIN_FUTURES_WEIGHTS, req.method, req.path);
  }

  /** The window of `pool` for `subject` (the user; the IP for Public) now, opened if none is running. */
  private window(pool: KucoinPool, subject: string, t: number) {
    const key = pool === 'Public' ? 'Public' : `${pool}:${subject}`;
    let w = this.windows.get(key);
    if (!w || t >= w.start + KUCOIN_WINDOW_MS) {
      w = { start: t, used: 0 };
      this.windows.set(key, w);
    }
    return w;
  }

  /**
   * Charges the request of `subject` (its key's user; '' when unsigned), or gives the venue's refusal.
   * Returns the counters to send (none for a route without a documented weight).
   */
  charge(req: Pick<StubRequest, 'method' | 'path'>, subject: string): { refused: KucoinRefusal | null; headers: Record<string, string> } {
    const cost = this.costOf(req);
    if (!cost) return { refused: null, headers: {} };
    const t = this.now();
    const w = this.window(cost.pool, subject, t);
    const quota = this.quotas[cost.pool];
    const headers = () => ({
      'gw-ratelimit-limit': String(quota),
      'gw-ratelimit-remaining': String(Math.max(0, quota - w.used)),
      'gw-ratelimit-reset': String(Math.max(0, w.start + KUCOIN_WINDOW_MS - t)),
    });
    if (w.used + cost.weight > quota) {
      this.refusals.push({ at: t, status: 429, pool: cost.pool });
      return { refused: { status: 429, body: { code: '429000', msg: 'Too Many Requests' }, headers: headers() }, headers: headers() };
    }
    w.used += cost.weight;
    if (cost.weight > 0) this.spent.push({ at: t, weight: cost.weight, route: `${req.method} ${req.path.replace(/\/(client-order\/)?[^/]*\d[^/]*$/, '/$1{id}')}`, pool: cost.pool });
    return { refused: null, headers: headers() };
  }

  weightBetween(from: number, to: number, pool?: string): number {
    return this.spent.filter((s) => s.at >= from && s.at < to && (pool === undefined || s.pool === pool)).reduce((sum, s) => sum + s.weight, 0);
  }

  byRoute(from: number, to: number): Record<string, number> {
    const out: Record<string, number> = {};
    for (const s of this.spent) if (s.at >= from && s.at < to) out[`${s.pool}: ${s.route}`] = (out[`${s.pool}: ${s.route}`] ?? 0) + s.weight;
    return out;
  }
}
