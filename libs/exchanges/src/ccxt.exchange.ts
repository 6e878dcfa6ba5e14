// Over 400 lines: one class, the port's fourteen calls each with its error handling and retries (what differs by venue is asked from venues/<venue>/venue.ts).
/**
 * The ccxt adapter of the exchange port: binance (spot), binanceusdm (USDT-M futures), kucoin (spot)
 * and kucoinfutures (USDT-M perpetuals), live or testnet (ccxt's sandbox mode), rate limiter on.
 *
 * - Amounts cross the port in base units; contract markets (kucoinfutures) are converted to and
 *   from contracts with the market's contractSize.
 * - Client order ids go through ccxt's unified `clientOrderId` param (binance newClientOrderId /
 *   origClientOrderId, kucoin clientOid).
 * - ccxt errors become ours (exchange.errors.ts) with fixed messages: the exchange's payload, URLs
 *   and keys never reach a message. Rate limits are retried with exponential backoff, a bounded
 *   number of times.
 * - A createLimitOrder whose outcome is unknown (timeout, network) is resolved by looking the
 *   order up by client order id before any retry, so it never places a duplicate.
 * - The decrypted key lives only inside the ccxt instance (a private field), never in a message.
 * Parts: ccxt-module.ts (loading), ccxt-errors.ts (error mapping), ccxt-provider.ts (the provider).
 */
import {
  fromCcxtSymbol,
  toCcxtSymbol,
  type BalanceRecord,
  type ExchangeCredential,
  type ExchangeMode,
  type ExchangeName,
  type ExchangePort,
  type Fill,
  type LimitOrderRequest,
  type MarginMode,
  type MarketOrderRequest,
  type MarketRules,
  type MarketType,
  type Order,
  type OrderStatus,
  type OrderUpdate,
  type StreamState,
  type Unsubscribe,
  type Position,
  type PositionMode,
  type PositionRisk,
} from './exchange.port';
import {
  DuplicateOrderError,
  ExchangeDownError,
  ExchangeNotSupportedError,
  FuturesSettingRefusedError,
  InvalidOrderError,
  OrderNotFoundError,
  RateLimitedError,
  UnknownSymbolError,
} from './exchange.errors';
import { ccxt, observeStreamFutures, rewriteOrigin, TICK_SIZE, type CcxtExchangeInstance, type CcxtMarket } from './ccxt-module';
import { anyStreamOpen, prepareStreams, watchLoop } from './ccxt-streams';
import type { VenueBudget } from './venue-budget';
import { orderCountsOf, type OrderCountWindow } from './order-counts';
import { isDuplicate, isUncertain, mapCcxtError } from './ccxt-errors';
import { tradeWindows, type VenueRules } from './venues/venue-rules';
import type { KeyPermissions } from './venues/key-permissions';
import { venueOf, type CcxtId, type Venue } from './venues/registry';
import { ccxtMaximums, type CcxtMarketLike } from './venues/market-maximums';

export interface RetryPolicy {
  /** Total attempts including the first (default 4). */
  attempts: number;
  /** First backoff delay; doubles on every retry (default 500 ms). */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseDelayMs: 500, maxDelayMs: 8000 };

export interface CcxtExchangeOptions {
  exchange: ExchangeName;
  market: MarketType;
  mode: Exclude<ExchangeMode, 'paper'>;
  /** The user's decrypted key; null/undefined for a public (prices and rules only) instance. */
  credential?: ExchangeCredential | null;
  /** Tests: send every API call to this origin (e.g. http://127.0.0.1:port) instead of the exchange. */
  apiOrigin?: string;
  retry?: Partial<RetryPolicy>;
  /** Request timeout (ccxt `timeout`), ms. */
  timeoutMs?: number;
  enableRateLimit?: boolean;
  /** Reuse the markets an instance of the same exchange id already loaded. */
  marketsFrom?: CcxtExchange;
  sleep?: (ms: number) => Promise<void>;
  /** The clock that bounds fill recovery ("now"); tests pin it to the stand-in's time. */
  clock?: () => number;
  /** The venue's request budget shared by every instance of the provider (issue 39, venue-budget.ts). */
  budget?: VenueBudget;
  /** Markets older than this are reloaded (issue 39; default MARKETS_MAX_AGE_MS, a day). */
  marketsMaxAgeMs?: number;
  /** The account's order counts an answer carried (Binance X-MBX-ORDER-COUNT-*, order-counts.ts). */
  onOrderCounts?: (windows: OrderCountWindow[]) => void;
}

/** Issue 39: the venue's markets (pairs, steps, minimums, maximums) are reloaded when a day old. */
export const MARKETS_MAX_AGE_MS = 24 * 3_600_000;
/** A daily reload the venue did not answer is tried again this much later; the markets held serve meanwhile. */
const MARKETS_RETRY_MS = 5 * 60_000;

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const STATUS: Record<string, OrderStatus> = { open: 'open', closed: 'filled', canceled: 'cancelled', cancelled: 'cancelled', expired: 'cancelled', rejected: 'cancelled' };

export class CcxtExchange implements ExchangePort {
  readonly exchange: ExchangeName;
  readonly market: MarketType;
  readonly ccxtId: CcxtId;
  /** Everything that differs by venue (venues/<venue>/venue.ts): asked, never branched on by name. */
  readonly venueDef: Venue;
  #ex: CcxtExchangeInstance;
  #sibling: CcxtExchange | undefined;
  private readonly retry: RetryPolicy;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly clock: () => number;
  private marketsLoading: Promise<void> | undefined;
  private marketsReloading: Promise<void> | undefined;
  /** When this instance's markets were loaded (wall clock), or those it was given were (marketsFrom). */
  private marketsLoadedAt: number | undefined;
  private readonly marketsMaxAgeMs: number;
  /** exchange order id → our client order id (trades do not carry the client id). */
  private readonly clientIds = new Map<string, string>();
  /** Leverage and margin mode set per symbol (Kucoin futures carries them on every order). */
  private readonly leverages = new Map<string, { leverage: number; marginMode: MarginMode }>();
  readonly venue: VenueRules;

  /** Settings without the credential and without references to other instances. */
  readonly #settings: Omit<CcxtExchangeOptions, 'credential' | 'marketsFrom'>;
  private readonly budget: VenueBudget | undefined;
  private readonly onOrderCounts: ((windows: OrderCountWindow[]) => void) | undefined;

  constructor(options: CcxtExchangeOptions) {
    const { credential: _credential, marketsFrom: _from, ...settings } = options;
    this.#settings = settings;
    this.exchange = options.exchange;
    this.market = options.market;
    this.venueDef = venueOf(options.exchange, options.market);
    this.ccxtId = this.venueDef.ccxt.id;
    this.venue = this.venueDef.rules;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.sleep = options.sleep ?? defaultSleep;
    this.clock = options.clock ?? Date.now;
    this.budget = options.budget;
    this.onOrderCounts = options.onOrderCounts;
    this.marketsMaxAgeMs = options.marketsMaxAgeMs ?? MARKETS_MAX_AGE_MS;
    // ccxt pro's class: the REST calls of the plain one, and the venue's streams (issue 39)
    const Ctor = ((ccxt as any).pro?.[this.ccxtId] ?? (ccxt as any)[this.ccxtId]) as new (config: object) => CcxtExchangeInstance;
    const cred = options.credential;
    const ex = new Ctor({
      apiKey: cred?.apiKey,
      secret: cred?.secret,
      password: cred?.passphrase || undefined,
      enableRateLimit: options.enableRateLimit ?? true,
      timeout: options.timeoutMs ?? 10_000,
    });
    if (options.mode === 'testnet') {
      if (!ex.urls || !(ex.urls as any).test) {
        throw new ExchangeNotSupportedError(`${options.exchange} has no testnet in ccxt; use EXCHANGE_MODE=live or paper`);
      }
      ex.setSandboxMode(true);
    }
    if (options.apiOrigin) ex.urls.api = rewriteOrigin(ex.urls.api, options.apiOrigin.replace(/\/$/, ''));
    // Only the market type we trade: fewer and smaller calls when loading markets (the venue's options).
    this.venueDef.ccxt.configure(ex);
    // Currencies are not needed (and binance's endpoint needs a key): skip them when loading markets.
    ex.has.fetchCurrencies = false;
    observeStreamFutures(ex);
    this.#ex = ex;
    if (options.marketsFrom) {
      const src = options.marketsFrom.#ex;
      if (src.markets) {
        ex.setMarketsFromExchange(src);
        this.marketsLoadedAt = options.marketsFrom.marketsLoadedAt ?? Date.now();
      }
    }
  }

  /** True when this instance was built with exactly this credential (provider cache check). */
  hasCredential(cred: ExchangeCredential | null): boolean {
    const ex = this.#ex;
    return (ex.apiKey || null) === (cred?.apiKey || null) && (ex.secret || null) === (cred?.secret || null) && (ex.password || null) === (cred?.passphrase || null);
  }

  // ---------------------------------------------------------------------------------------------

  /**
   * Runs a venue call; a rate limit (Binance 429, or 418 = banned; Kucoin 429000) is retried with
   * exponential backoff, never sooner than the venue's Retry-After; a wait longer than our longest
   * backoff (a ban) is not waited out here: the error carries it to the caller.
   */
  private async call<T>(fn: (ex: CcxtExchangeInstance) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.spend(fn);
      } catch (e) {
        const mapped = mapCcxtError(e);
        if (mapped instanceof RateLimitedError) {
          const retryAfterMs = this.retryAfterMs();
          if (retryAfterMs !== undefined) mapped.retryAfterMs = retryAfterMs;
          const wait = Math.max(this.backoff(attempt), retryAfterMs ?? 0);
          if (attempt < this.retry.attempts && wait <= this.retry.maxDelayMs) {
            await this.sleep(wait);
            continue;
          }
        }
        throw mapped;
      }
    }
  }

  /**
   * One venue call within the venue's budget (issue 39): it waits while the venue's counter is at the
   * install's share of the limit or a 429/418 pause lasts, and reads the counter from the answer; a
   * 429/418 pauses every call to the venue for its Retry-After.
   */
  private async spend<T>(fn: (ex: CcxtExchangeInstance) => Promise<T>): Promise<T> {
    const done = await this.budget?.take();
    try {
      const out = await fn(this.#ex);
      this.heard(this.#ex.last_response_headers as Record<string, unknown>);
      return out;
    } catch (e) {
      this.heard(this.#ex.last_response_headers as Record<string, unknown>);
      // an account's order count past its limit (-1015) is the account's alone: the IP's calls go on
      if (this.budget && mapCcxtError(e) instanceof RateLimitedError && !isOrderCountRefusal(e)) this.budget.pause(this.retryAfterMs() ?? 60_000, rateLimitStatus(e));
      throw e;
    } finally {
      done?.();
    }
  }

  /** An answer's counters: the install's weight (the venue budget) and the account's order counts. */
  private heard(headers: Record<string, unknown> | undefined): void {
    this.budget?.observe(headers);
    if (!this.onOrderCounts || !headers) return;
    const counts = orderCountsOf(headers, Date.now());
    if (counts.length) this.onOrderCounts(counts);
  }

  /**
   * How long the venue's last answer says to wait, in ms: Binance's Retry-After (seconds); KuCoin's
   * `gw-ratelimit-reset` (ms until the pool refills: "the request can be re-requested after the length of time
   * displayed in the request header", https://www.kucoin.com/docs-new/rate-limit).
   */
  private retryAfterMs(): number | undefined {
    const h = Object.fromEntries(Object.entries((this.#ex.last_response_headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]));
    const v = Number(h['retry-after']);
    if (h['retry-after'] !== undefined && Number.isFinite(v) && v >= 0) return v * 1000;
    const reset = Number(h['gw-ratelimit-reset']);
    return h['gw-ratelimit-reset'] !== undefined && Number.isFinite(reset) && reset >= 0 ? reset : undefined;
  }

  private backoff(attempt: number): number {
    return Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1));
  }

  /**
   * The venue's markets, loaded once and again when older than MARKETS_MAX_AGE_MS (issue 39: the venue
   * lists and delists pairs and changes their filters; a day-old copy is reloaded on the next call that
   * needs it, the old one serving until the new one is in).
   */
  async loadMarkets(): Promise<void> {
    const ex = this.#ex;
    if (ex.markets && this.marketsLoadedAt !== undefined && Date.now() - this.marketsLoadedAt >= this.marketsMaxAgeMs) {
      this.marketsReloading ??= this.call((ex) => ex.loadMarkets(true, { ...this.venueDef.ccxt.loadMarketsParams }))
        .then(() => void (this.marketsLoadedAt = Date.now()))
        // the venue not answering: the markets held serve on, asked again in MARKETS_RETRY_MS
        .catch(() => void (this.marketsLoadedAt = Date.now() - this.marketsMaxAgeMs + MARKETS_RETRY_MS))
        .finally(() => (this.marketsReloading = undefined));
      await this.marketsReloading;
    }
    if (ex.markets) {
      // Markets shared from the public instance: the account's own status may still be needed (KuCoin's HF flag).
      const shared = this.venueDef.ccxt.sharedMarkets;
      if (shared?.needed(ex)) await this.call((k) => shared.load(k));
      return;
    }
    this.marketsLoading ??= this.call(async (ex) => {
      await ex.loadMarkets(false, { ...this.venueDef.ccxt.loadMarketsParams });
      this.marketsLoadedAt = Date.now();
    }).catch((e) => {
      this.marketsLoading = undefined;
      throw e;
    });
    await this.marketsLoading;
  }

  private async ccxtMarket(symbol: string): Promise<CcxtMarket> {
    await this.loadMarkets();
    let unified: string;
    try {
      unified = toCcxtSymbol(symbol, this.market);
    } catch {
      throw new UnknownSymbolError(symbol);
    }
    const m = this.#ex.markets?.[unified];
    if (!m) throw new UnknownSymbolError(symbol);
    return m as CcxtMarket;
  }

  private contractSize(m: CcxtMarket): number {
    return m.contract ? Number(m.contractSize ?? 1) : 1;
  }

  private step(value: number | undefined): number {
    if (value === undefined || value === null) return 0;
    return this.#ex.precisionMode === TICK_SIZE ? value : 10 ** -value;
  }

  private toOrder(o: ccxt.Order, m: CcxtMarket, fallback?: Partial<Order>): Order {
    const cs = this.contractSize(m);
    const clientOrderId = o.clientOrderId ?? (o.id ? this.clientIds.get(String(o.id)) : undefined) ?? fallback?.clientOrderId ?? '';
    if (o.id && clientOrderId) this.clientIds.set(String(o.id), clientOrderId);
    const amount = o.amount !== undefined && o.amount !== null ? o.amount * cs : fallback?.amount ?? 0;
    const filled = o.filled !== undefined && o.filled !== null ? o.filled * cs : fallback?.filled ?? 0;
    const order: Order = {
      clientOrderId,
      exchangeOrderId: String(o.id ?? fallback?.exchangeOrderId ?? ''),
      symbol: fromCcxtSymbol(m.symbol),
      side: (o.side as Order['side']) ?? fallback?.side ?? 'buy',
      price: o.price ?? fallback?.price ?? 0,
      amount,
      filled,
      status: (o.status && STATUS[o.status]) || fallback?.status || 'open',
      updatedAt: o.lastUpdateTimestamp ?? o.lastTradeTimestamp ?? o.timestamp ?? Date.now(),
    };
    if (o.average) order.avgFillPrice = o.average;
    const fee = this.feeInQuoteSync(o.fee, m, o.average ?? o.price);
    if (fee !== undefined) order.fee = fee;
    if (o.reduceOnly) order.reduceOnly = true;
    return order;
  }

  /** The fee in quote when it is in quote or in the base coin; undefined for a third asset. */
  private feeInQuoteSync(fee: ccxt.FeeInterface | undefined, m: CcxtMarket, price: number | undefined): number | undefined {
    if (!fee || fee.cost === undefined || fee.cost === null) return undefined;
    if (!fee.currency || fee.currency === m.quote || fee.currency === m.settle) return fee.cost;
    if (fee.currency === m.base && price) return fee.cost * price;
    return undefined;
  }

  /** A fee paid in a third asset (BNB, KCS) converted to the quote at that asset's current price. */
  private async feeInQuote(fee: ccxt.FeeInterface | undefined, m: CcxtMarket, price: number, prices: Map<string, number>): Promise<number> {
    const sync = this.feeInQuoteSync(fee, m, price);
    if (sync !== undefined || !fee?.currency || !fee.cost) return sync ?? 0;
    let p = prices.get(fee.currency);
    if (p === undefined) {
      const quote = m.quote;
      const candidates = [`${fee.currency}/${quote}`, `${fee.currency}/${quote}:${quote}`];
      const sym = candidates.find((c) => this.#ex.markets?.[c]);
      if (!sym) throw new ExchangeNotSupportedError(`converting a fee paid in ${fee.currency} needs the ${fee.currency}/${quote} market`);
      const t = await this.call((ex) => ex.fetchTicker(sym));
      p = Number(t.last ?? t.close ?? 0);
      prices.set(fee.currency, p);
    }
    return fee.cost * p;
  }

  // ---------------------------------------------------------------------------------------------
  // The port

  async balances(market: MarketType = this.market): Promise<BalanceRecord[]> {
    if (market !== this.market) {
      this.#sibling ??= new CcxtExchange({ ...this.#settings, market, credential: this.credentialCopy() });
      return this.#sibling.balances(market);
    }
    await this.loadMarkets();
    const params = { ...this.venueDef.rest.balanceParams };
    const b = await this.call((ex) => ex.fetchBalance(params));
    const out: BalanceRecord[] = [];
    const total = (b.total ?? {}) as unknown as Record<string, number>;
    const free = (b.free ?? {}) as unknown as Record<string, number>;
    const codes = Object.keys(total).filter((c) => c === 'USDT' || Number(total[c]) > 0);
    if (!codes.includes('USDT')) codes.unshift('USDT');
    codes.sort((a, c) => (a === 'USDT' ? -1 : c === 'USDT' ? 1 : a.localeCompare(c)));
    for (const code of codes) {
      out.push({ symbol: code, exchange: this.exchange, balance: Number(total[code] ?? 0), available: Number(free[code] ?? 0) });
    }
    return out;
  }

  private credentialCopy(): ExchangeCredential | null {
    const ex = this.#ex;
    return ex.apiKey ? { apiKey: ex.apiKey, secret: ex.secret, passphrase: ex.password || undefined } : null;
  }

  /**
   * What this instance's key may do (issue 30), through ccxt's implicit API methods: the account's
   * `keyPermissions` (venues/<venue>/account.ts: binance GET /sapi/v1/account/apiRestrictions, kucoin
   * GET /api/v1/user/api-key). Both live on the venue's spot host, so the provider asks through a spot
   * instance. An answer without the documented fields → ExchangeNotSupportedError.
   */
  async keyPermissions(): Promise<KeyPermissions> {
    const keys = this.venueDef.account.keyPermissions;
    const body = await this.call((ex) => keys.ask(ex));
    const found = keys.parse(body);
    if (!found) throw new ExchangeNotSupportedError(`${this.exchange} answered the API-key permission query in an unknown shape`);
    return found;
  }

  async price(symbol: string): Promise<number> {
    const m = await this.ccxtMarket(symbol);
    const t = await this.call((ex) => ex.fetchTicker(m.symbol));
    const p = t.last ?? t.close ?? t.bid;
    if (p === undefined || p === null) throw new ExchangeDownError('no price in ticker');
    return p;
  }

  async positionRisk(): Promise<PositionRisk[]> {
    if (this.market === 'spot') return [];
    await this.loadMarkets();
    if (this.venueDef.rest.leverages === 'listing') {
      // a listing of every symbol's leverage, with or without a position (Binance /fapi/v1/symbolConfig)
      const leverages = await this.call((ex) => ex.fetchLeverages());
      return Object.values(leverages)
        .filter((l) => typeof l.symbol === 'string' && l.symbol.endsWith(':USDT'))
        .map((l) => ({ symbol: fromCcxtSymbol(l.symbol as string), leverage: Number(l.longLeverage ?? l.shortLeverage ?? 0) }))
        .sort((a, b) => a.symbol.localeCompare(b.symbol));
    }
    // no leverage listing (KuCoin futures): the open positions carry theirs
    const positions = await this.call((ex) => ex.fetchPositions());
    return positions
      .filter((p): p is typeof p & { symbol: string } => typeof p.symbol === 'string' && p.symbol.endsWith(':USDT'))
      // the configured leverage (info.leverage), not ccxt's realised leverage
      .map((p) => ({ symbol: fromCcxtSymbol(p.symbol), leverage: Number(p.info?.leverage ?? p.leverage ?? this.leverages.get(fromCcxtSymbol(p.symbol))?.leverage ?? 0) }));
  }

  /**
   * Sets margin mode and leverage for a symbol. Binance futures: POST /fapi/v1/marginType then
   * /fapi/v1/leverage. Kucoin futures: the margin mode on /api/v2/position/changeMarginMode; an
   * isolated position's leverage travels on every order (the cross endpoint is for cross only).
   * Call it on every start AND resume: a recreated adapter knows nothing.
   */
  async setLeverage(symbol: string, leverage: number, marginMode: MarginMode = 'isolated'): Promise<void> {
    if (this.market === 'spot') throw new InvalidOrderError('leverage applies to futures only');
    if (!Number.isInteger(leverage) || leverage < 1) throw new InvalidOrderError('leverage must be a positive integer');
    if (marginMode !== 'isolated' && marginMode !== 'cross') throw new InvalidOrderError('margin mode must be isolated or cross');
    const m = await this.ccxtMarket(symbol);
    // Binance answers -4046 "No need to change margin type." when the symbol has that mode already, and ccxt
    // 4.5.84 throws it (MarginModeAlreadySet: binance.js options.setMarginMode.throwMarginModeAlreadySet = true):
    // the mode is as asked, so it is done (issue 40: the stand-in answers it as the venue does)
    const setMode = () => this.call((ex) => ex.setMarginMode(marginMode, m.symbol)).catch((e: unknown) => {
      if (e instanceof FuturesSettingRefusedError && e.setting === 'marginModeUnchanged') return undefined;
      throw e;
    });
    if (this.venueDef.rest.setLeverage === 'cross') {
      await setMode();
      if (marginMode === 'cross') await this.call((ex) => ex.setLeverage(leverage, m.symbol, { marginMode: 'cross' }));
    } else {
      await setMode();
      await this.call((ex) => ex.setLeverage(leverage, m.symbol));
    }
    this.leverages.set(fromCcxtSymbol(m.symbol), { leverage, marginMode });
  }

  async positionMode(): Promise<PositionMode> {
    if (this.market === 'spot') return 'oneway';
    await this.loadMarkets();
    const mode = await this.call((ex) => ex.fetchPositionMode());
    return mode.hedged ? 'hedge' : 'oneway';
  }

  async positions(symbol?: string): Promise<Position[]> {
    if (this.market === 'spot') return [];
    await this.loadMarkets();
    const m = symbol === undefined ? undefined : await this.ccxtMarket(symbol);
    const list = await this.call((ex) => ex.fetchPositions(m ? [m.symbol] : undefined));
    const out: Position[] = [];
    for (const p of list) {
      if (typeof p.symbol !== 'string' || !p.symbol.endsWith(':USDT')) continue;
      const market = this.#ex.markets?.[p.symbol] as CcxtMarket;
      const contracts = Number(p.contracts ?? 0);
      if (!contracts) continue;
      const amount = contracts * this.contractSize(market) * (p.side === 'short' ? -1 : 1);
      const pos: Position = {
        symbol: fromCcxtSymbol(p.symbol),
        amount,
        entryPrice: Number(p.entryPrice ?? 0),
        leverage: Number(p.info?.leverage ?? p.leverage ?? 0),
        marginMode: p.marginMode === 'cross' ? 'cross' : 'isolated',
      };
      const side = String(p.info?.positionSide ?? '').toUpperCase();
      if (side === 'LONG' || side === 'SHORT') pos.positionSide = side;
      out.push(pos);
    }
    return out.sort((a, b) => a.symbol.localeCompare(b.symbol));
  }

  async marketRules(symbol: string): Promise<MarketRules> {
    const m = await this.ccxtMarket(symbol);
    const cs = this.contractSize(m);
    const amountStep = this.step(m.precision.amount) * cs;
    return {
      priceStep: this.step(m.precision.price),
      amountStep,
      minNotional: Number(m.limits?.cost?.min ?? 0),
      minAmount: m.limits?.amount?.min ? m.limits.amount.min * cs : amountStep,
      makerFee: typeof m.maker === 'number' ? m.maker : this.venue.fees.maker,
      takerFee: typeof m.taker === 'number' ? m.taker : this.venue.fees.taker,
      // issue 39: the venue's maximums (LOT_SIZE maxQty, NOTIONAL maxNotional, MAX_NUM_ORDERS, PERCENT_PRICE…)
      ...ccxtMaximums(this.venue.id, m as CcxtMarketLike, cs),
    };
  }

  /**
   * The venue-specific parameters every order carries: Kucoin futures leverage and margin mode (from
   * setLeverage, else from the open position; never a silent 1×), Binance hedge-mode positionSide
   * (where reduceOnly must not be sent).
   */
  private async orderParams(
    m: CcxtMarket,
    req: { clientOrderId: string; reduceOnly?: boolean; positionSide?: 'LONG' | 'SHORT'; amount: number; price?: number },
  ): Promise<Record<string, unknown>> {
    // ccxt would silently truncate an off-step price or amount; the port refuses it, as the venue
    // and the paper exchange do (the caller rounds, knowing what it holds)
    const onStep = (v: number, step: number) => step <= 0 || Math.abs(v / step - Math.round(v / step)) < 1e-6;
    if (!(req.amount > 0) || !onStep(req.amount, this.step(m.precision.amount) * this.contractSize(m))) {
      throw new InvalidOrderError(`amount must be a multiple of ${this.step(m.precision.amount) * this.contractSize(m)}`);
    }
    if (req.price !== undefined && (!(req.price > 0) || !onStep(req.price, this.step(m.precision.price)))) {
      throw new InvalidOrderError(`price must be a multiple of ${this.step(m.precision.price)}`);
    }
    const params: Record<string, unknown> = { clientOrderId: req.clientOrderId };
    if (req.positionSide) {
      if (this.market === 'spot') throw new InvalidOrderError('position side applies to futures only');
      params.positionSide = req.positionSide;
      if (req.reduceOnly && this.venueDef.rest.reduceOnlyWithPositionSide !== false) params.reduceOnly = true;
    } else if (req.reduceOnly) {
      params.reduceOnly = true;
    }
    if (this.venue.leveragePerOrder) {
      const symbol = fromCcxtSymbol(m.symbol);
      let lev = this.leverages.get(symbol);
      if (!lev) {
        const [pos] = await this.positions(symbol);
        if (!pos || !pos.leverage) throw new InvalidOrderError('set the leverage and margin mode for this symbol first');
        lev = { leverage: pos.leverage, marginMode: pos.marginMode };
        this.leverages.set(symbol, lev);
      }
      params.leverage = lev.leverage;
      params.marginMode = lev.marginMode.toUpperCase();
    }
    return params;
  }

  async createMarketOrder(req: MarketOrderRequest): Promise<Order> {
    const m = await this.ccxtMarket(req.symbol);
    const params = await this.orderParams(m, req);
    const fallback: Partial<Order> = { clientOrderId: req.clientOrderId, side: req.side, price: 0, amount: req.amount, filled: 0, status: 'open' };
    return this.placeOnce(m, 'market', req.side, req.amount, undefined, params, req.symbol, req.clientOrderId, fallback);
  }

  async createLimitOrder(req: LimitOrderRequest): Promise<Order> {
    const m = await this.ccxtMarket(req.symbol);
    const params = await this.orderParams(m, req);
    const fallback: Partial<Order> = {
      clientOrderId: req.clientOrderId,
      side: req.side,
      price: req.price,
      amount: req.amount,
      filled: 0,
      status: 'open',
    };
    return this.placeOnce(m, 'limit', req.side, req.amount, req.price, params, req.symbol, req.clientOrderId, fallback);
  }

  /**
   * Places an order; an uncertain outcome or a duplicate answer is resolved by looking the order up
   * by client order id, so a retry never places it twice.
   */
  private async placeOnce(
    m: CcxtMarket,
    type: 'limit' | 'market',
    side: Order['side'],
    baseAmount: number,
    price: number | undefined,
    params: Record<string, unknown>,
    symbol: string,
    clientOrderId: string,
    fallback: Partial<Order>,
  ): Promise<Order> {
    const amount = baseAmount / this.contractSize(m);
    let uncertainBefore = false;
    for (let attempt = 1; ; attempt++) {
      try {
        const o = await this.spend((ex) => ex.createOrder(m.symbol, type, side, amount, price, { ...params }));
        // kucoin answers with the order id only: fill in what we asked for.
        return this.toOrder({ ...o, clientOrderId: o.clientOrderId ?? clientOrderId }, m, fallback);
      } catch (e) {
        // The contract (docs/exchanges.md): a client id that an open order already has is refused, as
        // every venue refuses it; only when OUR earlier attempt's outcome was unknown is the
        // duplicate answer that attempt's order, found and returned.
        if (isDuplicate(e) && !uncertainBefore) throw new DuplicateOrderError(clientOrderId);
        if (isUncertain(e) || isDuplicate(e)) {
          uncertainBefore = true;
          // The order may exist: find it by our id before anything else.
          const found = await this.lookupAfterUncertainCreate(symbol, clientOrderId);
          if (found) return found;
          if (isDuplicate(e)) throw new DuplicateOrderError(clientOrderId);
          if (attempt < this.retry.attempts) {
            await this.sleep(this.backoff(attempt));
            continue;
          }
          throw mapCcxtError(e);
        }
        const mapped = mapCcxtError(e);
        if (mapped instanceof RateLimitedError && attempt < this.retry.attempts) {
          await this.sleep(this.backoff(attempt));
          continue;
        }
        throw mapped;
      }
    }
  }

  /** After a timeout the lookup itself may fail; retry it a few times before concluding "not placed". */
  private async lookupAfterUncertainCreate(symbol: string, clientOrderId: string): Promise<Order | null> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.orderByClientId(symbol, clientOrderId);
      } catch (e) {
        if (!(e instanceof ExchangeDownError || e instanceof RateLimitedError) || attempt >= this.retry.attempts) throw e;
        await this.sleep(this.backoff(attempt));
      }
    }
  }

  async cancelOrder(symbol: string, clientOrderId: string): Promise<Order> {
    const m = await this.ccxtMarket(symbol);
    try {
      await this.call((ex) => ex.cancelOrder('', m.symbol, { clientOrderId }));
    } catch (e) {
      if (!(e instanceof OrderNotFoundError)) throw e;
      const existing = await this.orderByClientId(symbol, clientOrderId);
      if (existing) return existing; // already filled or cancelled: idempotent
      throw new OrderNotFoundError(clientOrderId);
    }
    const after = await this.orderByClientId(symbol, clientOrderId);
    return after ?? { clientOrderId, exchangeOrderId: '', symbol: fromCcxtSymbol(m.symbol), side: 'buy', price: 0, amount: 0, filled: 0, status: 'cancelled', updatedAt: Date.now() };
  }

  async openOrders(symbol: string): Promise<Order[]> {
    const m = await this.ccxtMarket(symbol);
    const orders = await this.fetchOpen(m.symbol);
    return orders.map((o) => this.toOrder(o, m));
  }

  /** Every open order of a ccxt symbol (or of all), page after page where the venue pages them. */
  private async fetchOpen(ccxtSymbol: string | undefined): Promise<ccxt.Order[]> {
    const pageSize = this.venueDef.rest.openOrdersPage;
    if (!pageSize) return this.call((ex) => ex.fetchOpenOrders(ccxtSymbol));
    const byId = new Map<string, ccxt.Order>();
    for (let currentPage = 1; currentPage <= 100; currentPage++) {
      const batch = await this.call((ex) => ex.fetchOpenOrders(ccxtSymbol, undefined, pageSize, { pageSize, currentPage }));
      const before = byId.size;
      for (const o of batch) byId.set(String(o.id), o);
      // a page not full is the last; so is one that brings nothing new (a listing without pages)
      if (batch.length < pageSize || byId.size === before) break;
    }
    return [...byId.values()];
  }

  /**
   * One all-symbols read where it weighs less than a read per symbol (the venue's rest.openOrdersWeight), else one read
   * per symbol; the orders of other symbols are left out.
   */
  async openOrdersOf(symbols: readonly string[]): Promise<Order[]> {
    const unique = [...new Set(symbols)];
    const w = this.venueDef.rest.openOrdersWeight;
    if (unique.length * w.one <= w.all) return (await Promise.all(unique.map((s) => this.openOrders(s)))).flat();
    await this.loadMarkets();
    const wanted = new Set(unique);
    this.#ex.options.warnOnFetchOpenOrdersWithoutSymbol = false; // we mean all of them: one read, weighed above
    const orders = await this.fetchOpen(undefined);
    const out: Order[] = [];
    for (const o of orders) {
      const m = this.#ex.markets?.[o.symbol as string] as CcxtMarket | undefined;
      if (m && wanted.has(fromCcxtSymbol(m.symbol))) out.push(this.toOrder(o, m));
    }
    return out;
  }

  async orderByClientId(symbol: string, clientOrderId: string): Promise<Order | null> {
    const m = await this.ccxtMarket(symbol);
    try {
      const o = await this.call((ex) => ex.fetchOrder('', m.symbol, { clientOrderId }));
      return this.toOrder(o, m, { clientOrderId });
    } catch (e) {
      if (e instanceof OrderNotFoundError) return null;
      throw e;
    }
  }

  /**
   * Every trade from sinceMs to now: walks the venue's time windows (Binance spot 24 h, Binance
   * futures and Kucoin 7 days; docs/exchanges.md) and pages within each window.
   */
  private async tradesSince(m: CcxtMarket, sinceMs: number): Promise<ccxt.Trade[]> {
    if (!Number.isFinite(sinceMs) || sinceMs <= 0) throw new InvalidOrderError('fills are recovered from a real start time, never from 0');
    const { maxLimit } = this.venue.tradeHistory;
    const byId = new Map<string, ccxt.Trade>();
    // the venue pages by page number within a window (KuCoin), or by moving the start time (Binance)
    const byPage = this.venueDef.rest.tradePaging === 'pages';
    for (const [start, end] of tradeWindows(this.venue, sinceMs, this.clock())) {
      let from = start;
      for (let page = 1; page <= 100; page++) {
        const params: Record<string, unknown> = { until: end };
        if (byPage) Object.assign(params, { currentPage: page, pageSize: maxLimit });
        const batch = await this.call((ex) => ex.fetchMyTrades(m.symbol, byPage ? start : from, maxLimit, params));
        let newest = from;
        for (const t of batch) {
          byId.set(String(t.id), t);
          if (t.timestamp !== undefined && t.timestamp > newest) newest = t.timestamp;
        }
        if (batch.length < maxLimit) break;
        if (!byPage) {
          if (newest === from) break; // a full page within one millisecond: cannot page further by time
          from = newest;
        }
      }
    }
    return [...byId.values()];
  }

  async recentFills(symbol: string, sinceMs: number): Promise<Fill[]> {
    const m = await this.ccxtMarket(symbol);
    const trades = await this.tradesSince(m, sinceMs);
    const fills: Fill[] = [];
    const prices = new Map<string, number>();
    for (const t of trades) {
      const fill = await this.toFill(t, m, prices);
      if (t.timestamp === undefined || t.timestamp >= sinceMs) fills.push(fill);
    }
    return fills.sort((a, b) => a.timestamp - b.timestamp);
  }

  /** A ccxt trade (REST history or stream) as the port's fill: the venue's trade id, our client order id. */
  private async toFill(t: ccxt.Trade, m: CcxtMarket, prices: Map<string, number>): Promise<Fill> {
    const cs = this.contractSize(m);
    const orderId = String(t.order ?? '');
    const info = (t.info ?? {}) as Record<string, any>;
    // the trade's own client id where the venue sends one (Binance streams `c`, KuCoin `clientOid`)
    let clientOrderId: string | undefined = (t as any).clientOrderId ?? info.c ?? info.o?.c ?? info.clientOid ?? this.clientIds.get(orderId);
    if (!clientOrderId && orderId) {
      const o = await this.call((ex) => ex.fetchOrder(orderId, m.symbol));
      clientOrderId = o.clientOrderId ?? '';
    }
    if (clientOrderId && orderId) this.clientIds.set(orderId, clientOrderId);
    const fill: Fill = {
      fillId: String(t.id),
      clientOrderId: clientOrderId ?? '',
      exchangeOrderId: orderId,
      symbol: fromCcxtSymbol(m.symbol),
      side: t.side as Fill['side'],
      price: Number(t.price),
      amount: Number(t.amount) * cs,
      fee: await this.feeInQuote(t.fee as ccxt.FeeInterface, m, Number(t.price), prices),
      feeAsset: (t.fee as ccxt.FeeInterface | undefined)?.currency ?? m.quote,
      feeCost: Number((t.fee as ccxt.FeeInterface | undefined)?.cost ?? 0),
      timestamp: t.timestamp ?? 0,
    };
    const pnl = Number(info.realizedPnl ?? info.rp ?? info.o?.rp);
    if (this.market === 'futures' && Number.isFinite(pnl)) fill.realizedPnl = pnl;
    return fill;
  }

  // ---------------------------------------------------------------------------------------------
  // Streams (issue 39, ccxt-streams.ts)

  /** The symbol's public ticker stream: `onPrice` on every last price the venue pushes. */
  watchPrice(symbol: string, onPrice: (price: number, ms: number) => void, onState: (s: StreamState) => void): () => void {
    const ex = this.#ex;
    let unified = '';
    const prepare = async () => {
      unified = (await this.ccxtMarket(symbol)).symbol;
      await prepareStreams(ex);
    };
    const onBatch = (batch: ccxt.Ticker[]) => {
      for (const t of batch) {
        const p = t.last ?? t.close ?? t.bid;
        if (typeof p === 'number' && p > 0) onPrice(p, t.timestamp ?? Date.now());
      }
    };
    return watchLoop(prepare, async () => [await ex.watchTicker(unified)], onBatch, onState, () => anyStreamOpen(ex));
  }


  readonly streamCanMiss = true;

  /** Ends this instance's streams and their sockets (the provider's close). */
  async closeStreams(): Promise<void> {
    this.stream?.stop();
    this.stream = null;
    await (this.#ex as any).close?.().catch?.(() => undefined);
  }
  private stream: { listeners: Set<(u: OrderUpdate) => void>; states: Set<(s: StreamState) => void>; stop: () => void; state: StreamState | null } | null = null;

  /**
   * One user-data stream for this account and market, shared by every listener: fills from
   * watchMyTrades, orders that leave the book without a fill from watchOrders. The stream closes
   * with its last listener.
   */
  watchOrders(listener: (u: OrderUpdate) => void, onState?: (s: StreamState) => void): Unsubscribe {
    if (!this.stream) this.stream = this.openStream();
    const stream = this.stream;
    stream.listeners.add(listener);
    if (onState) {
      stream.states.add(onState);
      if (stream.state) onState(stream.state);
    }
    return () => {
      stream.listeners.delete(listener);
      if (onState) stream.states.delete(onState);
      if (stream.listeners.size === 0 && this.stream === stream) {
        this.stream = null;
        stream.stop();
      }
    };
  }

  private openStream() {
    const ex = this.#ex;
    const listeners = new Set<(u: OrderUpdate) => void>();
    const states = new Set<(s: StreamState) => void>();
    const stream = { listeners, states, state: null as StreamState | null, stop: () => undefined as void };
    // live when both loops are; down when either is (a loop not heard from yet is neither)
    const loops: { trades: boolean | null; orders: boolean | null } = { trades: null, orders: null };
    const onState = (which: keyof typeof loops) => (s: StreamState) => {
      loops[which] = s.live;
      const live = loops.trades === true && loops.orders === true;
      if (live === false && loops.trades !== false && loops.orders !== false) return;
      if (stream.state && stream.state.live === live) return;
      stream.state = { live, at: s.at, ...(live ? {} : { reason: s.reason }) };
      for (const l of states) l(stream.state);
    };
    const emit = (u: OrderUpdate) => {
      for (const l of listeners) {
        try {
          l(u);
        } catch {
          // a listener's failure never stops the stream
        }
      }
    };
    const prepare = async (again: boolean) => {
      await this.loadMarkets();
      await prepareStreams(ex);
      // after a failure the venue's stream credential may need renewing (Binance USDⓈ-M: a fresh listenKey)
      if (again) this.venueDef.streams.renew?.(ex);
    };
    // fills in the venue's order, converted one after the other (a fee in a third asset needs a price)
    let chain = Promise.resolve();
    const prices = new Map<string, number>();
    const onTrades = (batch: ccxt.Trade[]) => {
      chain = chain.then(async () => {
        for (const t of batch) {
          const m = ex.markets?.[t.symbol as string] as CcxtMarket | undefined;
          if (!m) continue;
          try {
            // a stream trade without its fee (KuCoin's order channels carry none) is read from the
            // trade history, where the venue states it: a fill is never recorded without its fee
            const feeKnown = t.fee && t.fee.cost !== undefined && t.fee.cost !== null && Number.isFinite(Number(t.fee.cost));
            const fill = feeKnown
              ? await this.toFill(t, m, prices)
              : (await this.recentFills(fromCcxtSymbol(m.symbol), Math.max(1, (t.timestamp ?? this.clock()) - 60_000))).find((f) => f.fillId === String(t.id));
            if (!fill) continue; // not in the history yet: the reconciliation finds it
            const order: Order = { clientOrderId: fill.clientOrderId, exchangeOrderId: fill.exchangeOrderId, symbol: fill.symbol, side: fill.side, price: fill.price, amount: fill.amount, filled: fill.amount, status: 'open', updatedAt: fill.timestamp };
            emit({ order, fill });
          } catch {
            // not converted now (a venue call failed): the reconciliation finds the fill
          }
        }
      });
    };
    const onOrders = (batch: ccxt.Order[]) => {
      for (const o of batch) {
        const m = ex.markets?.[o.symbol as string] as CcxtMarket | undefined;
        if (!m) continue;
        const order = this.toOrder(o, m);
        // a fill comes with its trade; an order that leaves the book without one is news of its own
        if (order.status === 'cancelled') emit({ order });
      }
    };
    const userDataOpen = this.venueDef.streams.userDataOpen;
    const open = () => (userDataOpen ? userDataOpen(ex) : anyStreamOpen(ex));
    const stopTrades = watchLoop(prepare, () => ex.watchMyTrades(), onTrades, onState('trades'), open);
    const stopOrders = watchLoop(prepare, () => ex.watchOrders(), onOrders, onState('orders'), open);
    stream.stop = () => {
      stopTrades();
      stopOrders();
      void (ex as any).close?.().catch?.(() => undefined);
    };
    return stream;
  }
}

export { mapCcxtError } from './ccxt-errors';

/**
 * The venue's status for a rate-limit refusal (issue 39): Binance's 418 is the IP ban ("IP banned until",
 * -1003, https://developers.binance.com/docs/binance-spot-api-docs/rest-api/limits), its 429 and KuCoin's
 * 429000 the limit itself. ccxt puts the venue's status and body in the error's message.
 */
/**
 * Binance's -1015 "Too many new orders; current limit is %s orders per %s.": the account's ORDERS count
 * (per account, not per IP: order-counts.ts), so it pauses the account's orders, not the install's calls.
 */
function isOrderCountRefusal(e: unknown): boolean {
  return /-1015\b|too many new orders/i.test(String((e as Error)?.message ?? ''));
}

function rateLimitStatus(e: unknown): number {
  return /\b418\b|banned until/i.test(String((e as Error)?.message ?? '')) ? 418 : 429;
}
