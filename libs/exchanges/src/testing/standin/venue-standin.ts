/**
 * Venue-faithful stand-ins: each venue's REST dialect (binance, binanceusdm, kucoin, kucoinfutures)
 * served on 127.0.0.1 over ONE venue core, the paper exchange (matching, accounts, held funds, fees
 * and the venue rules of libs/exchanges/src/venues). The ccxt adapter talks to them exactly as to the
 * venue, and they answer as the venue documents it: trade-history windows, client id format,
 * duplicate and unknown-order answers, oversells after base-coin fees (docs/exchanges.md).
 */
import type { ExchangeName, MarketType } from '../../exchange.port';
import { ExchangeError, DuplicateOrderError, FuturesSettingRefusedError, InsufficientFundsError, InvalidOrderError, OrderNotFoundError, UnknownSymbolError } from '../../exchange.errors';
import { fromUnits } from '../../fixed-point';
import type { PaperVenue } from '../../paper.exchange';
import type { OrderRow } from '../../paper.store';
import { venueRules, type VenueAnswer } from '../../venues/venue-rules';
import { ExchangeStub, type StubHandler } from '../exchange-stub.server';
import type { CcxtId } from '../ccxt.fixtures';
import { binanceDialect } from './binance.dialect';
import { kucoinDialect } from './kucoin.dialect';
import { binanceSpotStreams } from './binance-spot.streams';
import { binanceUsdmStreams } from './binance-usdm.streams';
import { kucoinStreams } from './kucoin.streams';
import type { StreamServer } from './stream-server';
import { BINANCE_LIMITS, BINANCE_SPOT_WEIGHTS, BINANCE_USDM_WEIGHTS, BinanceRateMeter, type BinanceLimits, type WeightMeter } from './rate-limits';
import { KUCOIN_POOLS_VIP0, KucoinRateMeter, type KucoinPool } from './kucoin.rate-limits';

export type { StandInKey, StandInCore, Dialect } from './standin.types';
export { STANDIN_KEY_PERMISSIONS } from './standin.types';
import { STANDIN_KEY_PERMISSIONS, type KlineHistory, type StandInKey, type StandInCore } from './standin.types';
import type { KeyPermissions } from '../../venues/key-permissions';

export function ccxtIdOf(exchange: ExchangeName, market: MarketType): CcxtId {
  if (exchange === 'Binance') return market === 'spot' ? 'binance' : 'binanceusdm';
  return market === 'spot' ? 'kucoin' : 'kucoinfutures';
}

export interface VenueStandIn {
  id: CcxtId;
  stub: ExchangeStub;
  origin: string;
  /**
   * The key stops working, as when its owner deletes it on the venue or its IP whitelist no longer
   * matches (issue 29): every signed call with it gets the venue's bad-key answer from now on.
   */
  revokeKey(apiKey: string): void;
  /** A key created on the venue from now on (its owner made it in API Management). */
  addKey(key: StandInKey): void;
  /** The venue reports these permissions for the key from now on (as when its owner edits it on the venue). */
  setKeyPermissions(apiKey: string, permissions: Partial<KeyPermissions>): void;
  /** The venue's streams (issue 39): cut, refuse and accept connections; see stream-server.ts. */
  streams: StreamServer;
  /** Binance's rate limits as the venue counts them (weight, orders; 429 and 418): rate-limits.ts. */
  rate?: BinanceRateMeter;
  /** KuCoin's resource pools as the venue counts them (429000 past a quota): kucoin.rate-limits.ts. */
  kucoinRate?: KucoinRateMeter;
  /** The venue's own counters, whichever venue: what weight tests and benchmarks read. */
  meter: WeightMeter;
  /** Ends every stream credential now (Binance listenKeyExpired, a KuCoin token's end). */
  expireStreams(): void;
  /** Live stream subscriptions now (tests wait for a watch to be in place before they move the market). */
  subscriptions(): { user: number; market: number };
  close(): Promise<void>;
}

/** Starts the stand-in of one venue (exchange + market) over `venue`, for these API keys. */
export async function startVenueStandIn(
  venue: PaperVenue,
  exchange: ExchangeName,
  market: MarketType,
  keys: readonly StandInKey[],
  options: { now?: () => number; limits?: Partial<BinanceLimits>; kucoinQuotas?: Partial<Record<KucoinPool, number>>; klines?: KlineHistory } = {},
): Promise<VenueStandIn> {
  const rules = venueRules(exchange, market);
  const now = options.now ?? Date.now;
  const byKey = new Map(keys.map((k) => [k.apiKey, { ...k }]));
  const keyOf = (req: Parameters<StandInCore['account']>[0]) => byKey.get(String(req.headers['x-mbx-apikey'] ?? req.headers['kc-api-key'] ?? ''));
  const rate =
    exchange === 'Binance'
      ? new BinanceRateMeter({ ...BINANCE_LIMITS[market], ...options.limits }, market === 'spot' ? BINANCE_SPOT_WEIGHTS : BINANCE_USDM_WEIGHTS)
      : undefined;
  const kucoinRate = exchange === 'Kucoin' ? new KucoinRateMeter(market, { ...KUCOIN_POOLS_VIP0, ...options.kucoinQuotas }) : undefined;
  const core: StandInCore = {
    rate,
    venue,
    rules,
    exchange,
    market,
    now,
    klines: options.klines,
    keyOf: (apiKey) => byKey.get(apiKey),
    account(req) {
      const k = keyOf(req);
      return k ? venue.account(k.userId, exchange, market) : null;
    },
    keyPermissions(req) {
      const k = keyOf(req);
      return k ? { apiKey: k.apiKey, permissions: { ...STANDIN_KEY_PERMISSIONS, ...k.permissions } } : null;
    },
    venueAnswer: (a) => ({ status: a.status, body: { code: a.code, msg: a.msg } }),
    answer(e) {
      const a = rules.answers;
      const v = (x: VenueAnswer) => core.venueAnswer(x);
      if (e instanceof DuplicateOrderError) return v(a.duplicateClientOrderId);
      if (e instanceof InsufficientFundsError) return v(a.insufficientFunds);
      if (e instanceof OrderNotFoundError) return v(a.lookupUnknownOrder);
      if (e instanceof UnknownSymbolError) return v({ status: 400, code: exchange === 'Binance' ? -1121 : '400100', msg: 'Invalid symbol.' });
      // issue 40: the venue's answer to a leverage or margin mode it refuses (venue rules answers.futuresSettings)
      if (e instanceof FuturesSettingRefusedError) return v({ ...a.futuresSettings![e.setting]!, msg: e.venueText });
      if (e instanceof InvalidOrderError) {
        const r = e.reason ?? '';
        if (/client order id/.test(r)) return v(a.badClientOrderId);
        if (/price must be a multiple/.test(r)) return v(a.priceStep);
        if (/amount must be/.test(r)) return v(a.amountStep);
        if (/order value/.test(r)) return v(a.minNotional);
        if (/position side/.test(r) && a.positionSideMismatch) return v(a.positionSideMismatch);
        // a reduce-only order that would open or grow a position (the paper core refuses it): Binance
        // -2022; Kucoin documents the rule ("only the orders reducing the position size will be
        // executed", POST /api/v1/orders `reduceOnly`) but no answer code, so its generic refusal below
        if (/reduce-only order would not reduce/.test(r) && a.reduceOnlyRejected) return v(a.reduceOnlyRejected);
        return v({ status: 400, code: exchange === 'Binance' ? -2010 : '400100', msg: r || 'Order rejected.' });
      }
      if (e instanceof ExchangeError) return v({ status: 400, code: exchange === 'Binance' ? -1000 : '400100', msg: e.message });
      return { status: 500, body: { code: -1000, msg: 'An unknown error occurred while processing the request.' } };
    },
    units: (n) => String(fromUnits(n)),
    fillsBetween(account, symbol, from, to) {
      return venue.fills(account, symbol, Math.max(0, from)).filter((f) => f.ts <= to);
    },
    window(start, end) {
      const { maxWindowMs, startOnlyMs, noRange } = rules.tradeHistory;
      if (start !== undefined && end !== undefined) {
        return end - start > maxWindowMs ? { refused: core.venueAnswer(rules.answers.tradeWindowTooLong) } : { from: start, to: end, newest: false };
      }
      if (start !== undefined) return { from: start, to: start + startOnlyMs, newest: false };
      if (end !== undefined) return { from: end - startOnlyMs, to: end, newest: false };
      if (noRange === 'newest') return { from: 0, to: Infinity, newest: true };
      return { from: now() - noRange, to: now(), newest: false };
    },
  };
  const routes = (exchange === 'Binance' ? binanceDialect : kucoinDialect)(core);
  const streamDialect = (exchange === 'Kucoin' ? kucoinStreams : market === 'spot' ? binanceSpotStreams : binanceUsdmStreams)(core);
  Object.assign(routes, streamDialect.rest);
  const guarded: Record<string, StubHandler> = {};
  for (const [k, h] of Object.entries(routes)) {
    const handle = (req: Parameters<StubHandler>[0]) => {
      try {
        return h(req);
      } catch (e) {
        return core.answer(e);
      }
    };
    guarded[k] = kucoinRate
      ? (req) => {
          // KuCoin counts the pool of the route (the key's user's, or the IP's for Public) before it answers
          const { refused, headers } = kucoinRate.charge(req, keyOf(req)?.userId ?? '');
          if (refused) return refused;
          const r = handle(req);
          return { ...r, headers: { ...headers, ...(r.headers ?? {}) } };
        }
      : !rate
      ? handle
      : (req) => {
          // the venue counts the IP's weight and the account's orders before it answers (rate-limits.ts)
          const isOrder = req.method === 'POST' && /\/(api\/v3|fapi\/v1)\/order$/.test(req.path);
          const refused = rate.charge(rate.weightOf(req), `${req.method} ${req.path}`, isOrder);
          const counters = rate.headers(market === 'futures');
          if (refused) return { status: refused.status, body: { code: refused.code, msg: refused.msg }, headers: { ...counters, 'retry-after': String(refused.retryAfterS) } };
          const r = handle(req);
          return { ...r, headers: { ...counters, ...(r.headers ?? {}) } };
        };
  }
  const stub = await ExchangeStub.start(guarded);
  const streams = stub.streams(streamDialect.streams);
  return { id: ccxtIdOf(exchange, market), stub, origin: stub.origin, revokeKey: (apiKey) => {
      streamDialect.revoke?.(apiKey); // (it reads whose key it was)
      byKey.delete(apiKey);
    },
    addKey: (key) => void byKey.set(key.apiKey, { ...key }),
    setKeyPermissions: (apiKey, permissions) => {
      const k = byKey.get(apiKey);
      if (k) k.permissions = { ...k.permissions, ...permissions };
    },
    streams,
    rate,
    kucoinRate,
    meter: (rate ?? kucoinRate)!,
    expireStreams: () => streamDialect.expire?.(),
    subscriptions: () => streamDialect.subscriptions?.() ?? { user: 0, market: 0 },
    close: async () => {
      streams.close();
      await stub.close();
    } };
}

/** Binance-style order status of a paper order. */
export function isDone(o: OrderRow): boolean {
  return o.status !== 'open';
}
