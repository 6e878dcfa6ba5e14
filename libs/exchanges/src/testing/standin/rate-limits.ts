/**
 * The venues' rate limits as the stand-ins enforce them (issue 39): what each call weighs, the
 * counters the venue reports on every answer, and its answers past a limit. Every figure with its source:
 *
 * Binance spot (https://developers.binance.com/docs/binance-spot-api-docs/rest-api/limits, and each
 * endpoint's "Weight" line under https://developers.binance.com/docs/binance-spot-api-docs/rest-api/):
 * - REQUEST_WEIGHT 6000 per minute per IP, ORDERS 100 per 10 s and 200 000 per day per account
 *   (GET /api/v3/exchangeInfo `rateLimits`); every answer carries `X-MBX-USED-WEIGHT-1M` and, on orders,
 *   `X-MBX-ORDER-COUNT-10S` / `X-MBX-ORDER-COUNT-1D`; past an ORDERS limit, 429 with -1015 "Too many new
 *   orders; current limit is %s orders per %s." (errors.md), the IP not limited.
 * - Past a limit: HTTP 429 with `Retry-After` (seconds) and -1003 "Too much request weight used ...";
 *   "Repeatedly violating rate limits and/or failing to back off after receiving 429s will result in an
 *   automated IP ban (HTTP status 418)", -1003 "Way too much request weight used; IP banned until ...",
 *   "scale in duration for repeat offenders, from 2 minutes to 3 days" (the same page).
 * - Weights: exchangeInfo 20; ticker/24hr 2 for a symbol (80 for all); ticker/price 2 (4); order POST 1,
 *   DELETE 1, GET 4; openOrders 6 for a symbol, 80 without; myTrades 20 (5 with orderId); account 20;
 *   time/ping 1; klines 2. WebSocket API: a connection 2, userDataStream.subscribe.signature 2, in the same pool.
 * Binance USDⓈ-M (https://developers.binance.com/docs/derivatives/usds-margined-futures/general-info,
 * each endpoint's "Request Weight"):
 * - REQUEST_WEIGHT 2400 per minute per IP, ORDERS 1200 per minute and 300 per 10 s per account;
 *   headers `X-MBX-USED-WEIGHT-1M`, `X-MBX-ORDER-COUNT-1M`, `X-MBX-ORDER-COUNT-10S`; 429 then 418 as on spot.
 * - Weights: exchangeInfo 1; ticker/24hr 1 (40 for all); ticker/price 1 (2); order POST 0 on the IP
 *   limit (1 on each order count), DELETE 1, GET 1; openOrders 1 for a symbol, 40 without; userTrades 5;
 *   account (v2, v3) 5; positionRisk (v2, v3) 5; leverage 1; marginType 1; symbolConfig 5;
 *   leverageBracket 1; positionSide/dual 30; listenKey (POST, PUT, DELETE) 1; klines by limit ([1, 100) 1,
 *   [100, 500) 2, [500, 1000] 5, above 1000 10: binance-klines.ts).
 *
 * The counters are fixed windows aligned to the clock (the minute, the 10 s, the day), as the venue's
 * headers reset; the stand-in's clock is the wall clock. A test may lower the limits (`limits`) to reach
 * them quickly; the answers stay the venue's.
 */
import type { StubRequest } from '../exchange-stub.server';

type Weigh = number | ((req: StubRequest) => number);

/** Klines (binance-klines.ts): spot 2 whatever the limit; USDⓈ-M by limit. */
export const binanceKlinesWeight = (futures: boolean) => (req: StubRequest) => {
  if (!futures) return 2;
  const limit = Number(req.query.get('limit') ?? 500);
  return limit < 100 ? 1 : limit < 500 ? 2 : limit <= 1000 ? 5 : 10;
};

/** A weight for one symbol, another without one (for all symbols). */
const bySymbol = (one: number, all: number): Weigh => (r) => (r.query.has('symbol') ? one : all);

/** The routes both Binance APIs have under their prefix: `[one symbol, all]` where the weight depends on it. */
const binanceCommonWeights = (prefix: string, w: { exchangeInfo: number; ticker24hr: [number, number]; tickerPrice: [number, number]; order: { post: number; cancel: number; get: number }; openOrders: [number, number] }): Record<string, Weigh> => ({
  [`GET ${prefix}/exchangeInfo`]: w.exchangeInfo,
  [`GET ${prefix}/ticker/24hr`]: bySymbol(...w.ticker24hr),
  [`GET ${prefix}/ticker/price`]: bySymbol(...w.tickerPrice),
  [`POST ${prefix}/order`]: w.order.post,
  [`DELETE ${prefix}/order`]: w.order.cancel,
  [`GET ${prefix}/order`]: w.order.get,
  [`GET ${prefix}/openOrders`]: bySymbol(...w.openOrders),
});

export const BINANCE_SPOT_WEIGHTS: Record<string, Weigh> = {
  ...binanceCommonWeights('/api/v3', { exchangeInfo: 20, ticker24hr: [2, 80], tickerPrice: [2, 4], order: { post: 1, cancel: 1, get: 4 }, openOrders: [6, 80] }),
  'GET /api/v3/myTrades': (r) => (r.query.has('orderId') ? 5 : 20),
  'GET /api/v3/account': 20,
  'GET /api/v3/time': 1,
  'GET /api/v3/ping': 1,
  'GET /api/v3/klines': binanceKlinesWeight(false),
};

export const BINANCE_USDM_WEIGHTS: Record<string, Weigh> = {
  ...binanceCommonWeights('/fapi/v1', { exchangeInfo: 1, ticker24hr: [1, 40], tickerPrice: [1, 2], order: { post: 0, cancel: 1, get: 1 }, openOrders: [1, 40] }),
  'GET /fapi/v1/userTrades': 5,
  'GET /fapi/v2/account': 5,
  'GET /fapi/v3/account': 5,
  'GET /fapi/v2/positionRisk': 5,
  'GET /fapi/v3/positionRisk': 5,
  'POST /fapi/v1/leverage': 1,
  'POST /fapi/v1/marginType': 1,
  'GET /fapi/v1/symbolConfig': 5,
  'GET /fapi/v1/leverageBracket': 1,
  'GET /fapi/v1/positionSide/dual': 30,
  'POST /fapi/v1/listenKey': 1,
  'PUT /fapi/v1/listenKey': 1,
  'DELETE /fapi/v1/listenKey': 1,
  'GET /fapi/v1/time': 1,
  'GET /fapi/v1/klines': binanceKlinesWeight(true),
};

export interface BinanceLimits {
  /** REQUEST_WEIGHT per minute (spot 6000, USDⓈ-M 2400). */
  weightPerMinute: number;
  /** ORDERS per 10 s (spot 100, USDⓈ-M 300). */
  ordersPer10s: number;
  /** ORDERS per day (spot 200,000); absent: no daily window (USDⓈ-M). */
  ordersPerDay?: number;
  /** ORDERS per minute (USDⓈ-M 1,200); absent: no minute window (spot). */
  ordersPerMinute?: number;
  /** The 418 ban's length the first time (2 minutes; the venue lengthens it for repeat offenders). */
  banMs: number;
  /**
   * The weight window: the venue's minute (60,000 ms). A test may shorten it to reach the end of a 429's
   * Retry-After quickly; the provider is then told the same window (CcxtExchangeProviderOptions.venueLimits).
   */
  minuteMs?: number;
}

export const BINANCE_LIMITS = {
  spot: { weightPerMinute: 6000, ordersPer10s: 100, ordersPerDay: 200_000, banMs: 120_000 },
  futures: { weightPerMinute: 2400, ordersPer10s: 300, ordersPerMinute: 1200, banMs: 120_000 },
} as const satisfies Record<string, BinanceLimits>;

/**
 * What tests and benchmarks read from a stand-in's counters, whatever the venue: the weight spent (in a
 * pool: Binance's one REQUEST_WEIGHT, KuCoin's resource pools), by route, and each pool's limit a minute.
 */
export interface WeightMeter {
  /** Each pool's limit per minute (Binance: REQUEST_WEIGHT; KuCoin: its 30 s quotas × 2). */
  readonly poolsPerMinute: Record<string, number>;
  readonly refusals: ReadonlyArray<{ at: number; status: number }>;
  /** Weight spent in [from, to) (ms), in `pool` or in all. */
  weightBetween(from: number, to: number, pool?: string): number;
  /** Weight per route in [from, to). */
  byRoute(from: number, to: number): Record<string, number>;
}

/** What a refused call gets: the status, Retry-After seconds and the venue's words. */
export interface RateRefusal {
  status: 429 | 418;
  retryAfterS: number;
  code: number;
  msg: string;
}

/** One IP's weight and one account's orders, in the venue's fixed windows; 429 then 418 past a limit. */
export class BinanceRateMeter implements WeightMeter {
  private minute = { start: 0, used: 0 };
  private tenSeconds = { start: 0, orders: 0 };
  private day = { start: 0, orders: 0 };
  private orderMinute = { start: 0, orders: 0 };
  /** Until when the IP is told 429 (the rest of the minute) and until when it is banned (418). */
  private limitedUntil = 0;
  private bannedUntil = 0;
  /** Every weight spent, with its time: tests and benchmarks measure a period from it. */
  readonly spent: Array<{ at: number; weight: number; route: string }> = [];
  /** Every refusal given (429, 418). */
  readonly refusals: Array<{ at: number; status: number; route: string }> = [];

  constructor(
    readonly limits: BinanceLimits,
    private readonly weights: Record<string, Weigh>,
    private readonly now: () => number = Date.now,
  ) {}

  get poolsPerMinute(): Record<string, number> {
    return { REQUEST_WEIGHT: this.limits.weightPerMinute };
  }

  private roll(t: number) {
    const minuteMs = this.limits.minuteMs ?? 60_000;
    const m = t - (t % minuteMs);
    if (this.minute.start !== m) this.minute = { start: m, used: 0 };
    const s = t - (t % 10_000);
    if (this.tenSeconds.start !== s) this.tenSeconds = { start: s, orders: 0 };
    if (this.orderMinute.start !== m) this.orderMinute = { start: m, orders: 0 };
    const d = t - (t % 86_400_000);
    if (this.day.start !== d) this.day = { start: d, orders: 0 };
  }

  /** The weight of a REST call (0 for a route without one). */
  weightOf(req: StubRequest): number {
    const w = this.weights[`${req.method} ${req.path}`];
    return typeof w === 'function' ? w(req) : (w ?? 0);
  }

  /** Charges `weight` (and an order) now, or says why the venue refuses the call. */
  charge(weight: number, route: string, order = false): RateRefusal | null {
    const t = this.now();
    this.roll(t);
    if (t < this.bannedUntil) return this.refuse(418, this.bannedUntil - t, t, route);
    if (t < this.limitedUntil) {
      // a call within a 429's Retry-After: the venue bans the IP
      this.bannedUntil = t + this.limits.banMs;
      return this.refuse(418, this.limits.banMs, t, route);
    }
    if (this.minute.used + weight > this.limits.weightPerMinute) {
      this.limitedUntil = this.minute.start + (this.limits.minuteMs ?? 60_000);
      return this.refuse(429, this.limitedUntil - t, t, route);
    }
    if (order) {
      // the account's ORDERS windows: -1015 with the window's end as Retry-After (the IP is not limited)
      const windows = [
        { count: this.tenSeconds.orders, limit: this.limits.ordersPer10s, end: this.tenSeconds.start + 10_000, name: '10 SECOND' },
        { count: this.orderMinute.orders, limit: this.limits.ordersPerMinute, end: this.orderMinute.start + (this.limits.minuteMs ?? 60_000), name: '1 MINUTE' },
        { count: this.day.orders, limit: this.limits.ordersPerDay, end: this.day.start + 86_400_000, name: '1 DAY' },
      ];
      for (const w of windows) {
        if (w.limit !== undefined && w.count + 1 > w.limit) {
          return { status: 429, retryAfterS: Math.max(1, Math.ceil((w.end - t) / 1000)), code: -1015, msg: `Too many new orders; current limit is ${w.limit} orders per ${w.name}.` };
        }
      }
    }
    this.minute.used += weight;
    if (order) {
      this.tenSeconds.orders++;
      this.orderMinute.orders++;
      this.day.orders++;
    }
    if (weight > 0) this.spent.push({ at: t, weight, route });
    return null;
  }

  /**
   * Tests: the account placed `orders` earlier in the current day (another tool on the same key, say): the
   * venue counts them in its daily window and reports them in `X-MBX-ORDER-COUNT-1D`. (The stand-in counts
   * every new order: the venue gives a filled order's count back, faqs/order_count_decrement, which only
   * makes the stand-in stricter.)
   */
  seedDayOrders(orders: number): void {
    this.roll(this.now());
    this.day.orders = orders;
  }

  private refuse(status: 429 | 418, waitMs: number, t: number, route: string): RateRefusal {
    this.refusals.push({ at: t, status, route });
    const retryAfterS = Math.max(1, Math.ceil(waitMs / 1000));
    return status === 429
      ? { status, retryAfterS, code: -1003, msg: `Too much request weight used; current limit is ${this.limits.weightPerMinute} request weight per 1 MINUTE. Please use WebSocket Streams for live updates to avoid polling the API.` }
      : { status, retryAfterS, code: -1003, msg: `Way too much request weight used; IP banned until ${this.bannedUntil}. Please use WebSocket Streams for live updates to avoid bans.` };
  }

  /** The counters the venue sends on every answer. */
  headers(futures: boolean): Record<string, string> {
    this.roll(this.now());
    return {
      'x-mbx-used-weight-1m': String(this.minute.used),
      'x-mbx-order-count-10s': String(this.tenSeconds.orders),
      ...(futures ? { 'x-mbx-order-count-1m': String(this.orderMinute.orders) } : { 'x-mbx-order-count-1d': String(this.day.orders) }),
    };
  }

  /** Weight spent in [from, to) (ms); one pool, REQUEST_WEIGHT. */
  weightBetween(from: number, to: number, pool?: string): number {
    if (pool !== undefined && pool !== 'REQUEST_WEIGHT') return 0;
    return this.spent.filter((s) => s.at >= from && s.at < to).reduce((sum, s) => sum + s.weight, 0);
  }

  /** Weight per route in [from, to): what a benchmark shows. */
  byRoute(from: number, to: number): Record<string, number> {
    const out: Record<string, number> = {};
    for (const s of this.spent) if (s.at >= from && s.at < to) out[s.route] = (out[s.route] ?? 0) + s.weight;
    return out;
  }
}
