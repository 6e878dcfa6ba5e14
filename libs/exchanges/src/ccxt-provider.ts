/**
 * The live/testnet provider of ccxt ports: one adapter per user, exchange and market (built with the
 * user's decrypted key just before use), one key-less instance per exchange and market for markets and
 * prices, one price poller per symbol shared by every listener.
 */
import {
  type ExchangeMode,
  type ExchangeName,
  type ExchangeCredential,
  type ExchangeProvider,
  type ExchangeRef,
  type KeyPermissions,
  type MarketType,
  type PriceSubscriptions,
  type ResolveCredential,
} from './exchange.port';
import { MissingCredentialError, type ExchangeError } from './exchange.errors';
import { CcxtExchange, type RetryPolicy } from './ccxt.exchange';
import { mapCcxtError } from './ccxt-errors';
import { PriceHub } from './price-hub';
import { mergeOrderCounts, type AccountOrderCounts, type OrderCountWindow } from './order-counts';
import { VENUE_LIMITS, VenueBudget, type VenueBudgetStore, type VenuePause } from './venue-budget';
import { ccxtExchangeId, venueOf } from './venues/registry';

export interface CcxtExchangeProviderOptions {
  mode: Exclude<ExchangeMode, 'paper'>;
  resolveCredential: ResolveCredential;
  apiOrigin?: string | ((ccxtId: string) => string);
  retry?: Partial<RetryPolicy>;
  timeoutMs?: number;
  enableRateLimit?: boolean;
  /** The share of each venue limit the install may use (issue 39, default 0.5). */
  budgetShare?: number;
  /** The install's shared figure per venue (every runner's; read store `venue_budgets`); absent: this process's. */
  budgetStore?: VenueBudgetStore;
  /** The shared figure is away: the budget goes on with this process's. */
  onBudgetStoreError?: (err: Error) => void;
  /**
   * Each account's order counts (Binance X-MBX-ORDER-COUNT-*, order-counts.ts) for every runner and the API's
   * capacity answer: the read store's figures under `orders:<venue>:<userId>`; absent: this process's.
   */
  orderCountStore?: OrderCountFigures;
  /** How often an idle process reads the shared figure, to hear another runner's pause (default 1 s). */
  budgetSyncMs?: number;
  /** A venue's limit other than its published one (tests: a stand-in with a smaller limit). */
  venueLimits?: Partial<Record<keyof typeof VENUE_LIMITS, { limit: number; windowMs: number }>>;
  /** Venue streams (issue 39): prices and user data pushed; false: REST polling only (default true). */
  streams?: boolean;
  /** Price polling period of the shared price subscriptions while their stream is down (default 2 s). */
  pricePollMs?: number;
  onPriceError?: (error: ExchangeError) => void;
  /** Clock bounding fill recovery (tests: the stand-in's time). */
  clock?: () => number;
}

/** Figures kept by key with an atomic read-modify-write, and read (the read store's VenueFigureStore). */
export interface OrderCountFigures {
  update<T>(key: string, fn: (current: T | undefined) => T): Promise<T>;
  get<T>(key: string): Promise<T | undefined>;
}

/** What a testnet key counts as (keyPermissions): trading-only, IP restriction not applicable. */
export const TESTNET_KEY_PERMISSIONS: KeyPermissions = Object.freeze({ withdraw: false, read: true, spot: true, futures: true, ipRestricted: null });

/** Live/testnet provider: one ccxt instance per user, exchange and market; one price stream per symbol. */
export class CcxtExchangeProvider implements ExchangeProvider {
  readonly mode: ExchangeMode;
  readonly prices: PriceSubscriptions;
  private readonly ports = new Map<string, CcxtExchange>();
  private readonly publics = new Map<string, CcxtExchange>();
  /** One request budget per venue (issue 39): every instance of this provider spends from it. */
  private readonly budgets = new Map<string, VenueBudget>();

  private readonly pauseListeners = new Set<(p: VenuePause & { exchange: ExchangeName; market: MarketType }) => void>();
  private syncTimer: NodeJS.Timeout | undefined;
  /** Each account's order counts as this process heard them (the store's, when there is one, is the install's). */
  private readonly orderCountsHeard = new Map<string, AccountOrderCounts>();

  /** An order answer's counts of `userId`'s account on `venue`, kept here and in the install's store. */
  private recordOrderCounts(venue: string, userId: string, windows: OrderCountWindow[]): void {
    const key = `orders:${venue}:${userId}`;
    const t = Date.now();
    this.orderCountsHeard.set(key, mergeOrderCounts(this.orderCountsHeard.get(key), windows, t));
    this.options.orderCountStore?.update<AccountOrderCounts>(key, (held) => mergeOrderCounts(held, windows, t)).catch((e: Error) => this.options.onBudgetStoreError?.(e));
  }

  /** The account's order counts in the venue's current windows (issue 39, the capacity answer). */
  async orderCounts(ref: ExchangeRef): Promise<OrderCountWindow[]> {
    const key = `orders:${ccxtExchangeId(ref.exchange, ref.market)}:${ref.userId}`;
    let held = this.orderCountsHeard.get(key);
    if (this.options.orderCountStore) {
      try {
        held = (await this.options.orderCountStore.get<AccountOrderCounts>(key)) ?? held;
      } catch (e) {
        this.options.onBudgetStoreError?.(e as Error);
      }
    }
    const t = Date.now();
    return (held?.windows ?? []).filter((w) => w.resetAt > t);
  }

  budgetFor(exchange: ExchangeName, market: MarketType): VenueBudget {
    const venue = venueOf(exchange, market);
    const id = venue.ccxt.id;
    let b = this.budgets.get(id);
    if (!b) {
      const limits = venue.rest.limits;
      const { limit, windowMs } = this.options.venueLimits?.[id] ?? limits;
      b = new VenueBudget(id, limit, windowMs, this.options.budgetShare ?? 0.5, Date.now, undefined, this.options.budgetStore, this.options.onBudgetStoreError, limits.callWeight, !limits.perAccount);
      b.onPause((p) => {
        for (const l of this.pauseListeners) l({ ...p, exchange, market });
      });
      this.budgets.set(id, b);
    }
    return b;
  }

  /** Every venue's budget now (metrics, health): the install's figure where a shared store holds it. */
  budgetSnapshots() {
    return [...this.budgets.values()].map((b) => ({ venue: b.venue, share: b.share, ...b.snapshot() }));
  }

  /**
   * Hears every rate-limit pause of a venue this install trades on (issue 39): one met by this process, or
   * one another runner recorded in the shared store (read every `budgetSyncMs`). The runner shows it on
   * the venue's bots.
   */
  onVenuePause(listener: (p: VenuePause & { exchange: ExchangeName; market: MarketType }) => void): () => void {
    this.pauseListeners.add(listener);
    if (this.options.budgetStore && !this.syncTimer) {
      this.syncTimer = setInterval(() => {
        for (const b of this.budgets.values()) void b.sync();
      }, this.options.budgetSyncMs ?? 1000);
      this.syncTimer.unref?.();
    }
    return () => this.pauseListeners.delete(listener);
  }

  constructor(private readonly options: CcxtExchangeProviderOptions) {
    this.mode = options.mode;
    // One public ticker stream per symbol (issue 39); one REST read at the start, so that a bot has a
    // price at once, and REST polling only while the stream is down.
    this.prices = new PriceHub((key, emit) => {
      const pub = this.publicFor(key.exchange, key.market);
      let stopped = false;
      let live = false;
      let timer: NodeJS.Timeout | undefined;
      let polling = false;
      const poll = async () => {
        timer = undefined;
        if (stopped || live) {
          polling = false;
          return;
        }
        polling = true;
        try {
          const price = await pub.price(key.symbol);
          if (!stopped && !live) emit({ ...key, price, ms: Date.now() });
        } catch (e) {
          this.options.onPriceError?.(mapCcxtError(e));
        }
        if (!stopped && !live) {
          timer = setTimeout(poll, this.options.pricePollMs ?? 2000);
          timer.unref?.();
        } else polling = false;
      };
      void poll();
      const stopStream =
        this.options.streams === false
          ? () => undefined
          : pub.watchPrice(
              key.symbol,
              (price, ms) => {
                if (!stopped) emit({ ...key, price, ms });
              },
              (state) => {
                live = state.live;
                if (!live && !polling && !stopped) void poll();
              },
            );
      return () => {
        stopped = true;
        stopStream();
        if (timer) clearTimeout(timer);
      };
    });
  }

  private origin(exchange: ExchangeName, market: MarketType): string | undefined {
    const o = this.options.apiOrigin;
    return typeof o === 'function' ? o(ccxtExchangeId(exchange, market)) : o;
  }

  /** A key-less instance per exchange and market: markets, rules, prices. */
  publicFor(exchange: ExchangeName, market: MarketType): CcxtExchange {
    const k = `${exchange}|${market}`;
    let p = this.publics.get(k);
    if (!p) {
      p = new CcxtExchange({ exchange, market, mode: this.options.mode, apiOrigin: this.origin(exchange, market), retry: this.options.retry, timeoutMs: this.options.timeoutMs, enableRateLimit: this.options.enableRateLimit, budget: this.budgetFor(exchange, market) });
      this.publics.set(k, p);
    }
    return p;
  }

  async for(ref: ExchangeRef): Promise<CcxtExchange> {
    const cred = await this.options.resolveCredential(ref.userId, ref.exchange);
    if (!cred) throw new MissingCredentialError(ref.exchange);
    const k = `${ref.userId}\u0001${ref.exchange}\u0001${ref.market}`;
    const cached = this.ports.get(k);
    if (cached && cached.hasCredential(cred)) return cached;
    const pub = this.publicFor(ref.exchange, ref.market);
    await pub.loadMarkets();
    // bots of one account starting together share one instance (and so one user-data stream): the
    // first to get here after the markets built it
    const built = this.ports.get(k);
    if (built && built.hasCredential(cred)) return built;
    const port = new CcxtExchange({
      exchange: ref.exchange,
      market: ref.market,
      mode: this.options.mode,
      credential: cred,
      apiOrigin: this.origin(ref.exchange, ref.market),
      retry: this.options.retry,
      timeoutMs: this.options.timeoutMs,
      enableRateLimit: this.options.enableRateLimit,
      marketsFrom: pub,
      clock: this.options.clock,
      budget: this.budgetFor(ref.exchange, ref.market),
      onOrderCounts: (windows) => this.recordOrderCounts(ccxtExchangeId(ref.exchange, ref.market), ref.userId, windows),
    });
    this.ports.set(k, port);
    return port;
  }

  /**
   * A one-off instance with the key to be checked (not cached: the key may not be stored yet). Testnet:
   * Binance's spot testnet has no /sapi (ccxt's sandbox URLs have none) and Kucoin has no testnet in ccxt,
   * so a testnet key cannot be asked; its funds are not real, so it counts as trading-only with the IP
   * question not applicable (TESTNET_KEY_PERMISSIONS), as a paper key does.
   */
  async keyPermissions(exchange: ExchangeName, credential: ExchangeCredential): Promise<KeyPermissions> {
    if (this.options.mode === 'testnet') return { ...TESTNET_KEY_PERMISSIONS };
    const port = new CcxtExchange({
      exchange,
      market: 'spot',
      mode: this.options.mode,
      credential,
      apiOrigin: this.origin(exchange, 'spot'),
      retry: this.options.retry,
      timeoutMs: this.options.timeoutMs,
      enableRateLimit: this.options.enableRateLimit,
    });
    return port.keyPermissions();
  }

  forget(userId: string, exchange?: ExchangeName): void {
    for (const k of [...this.ports.keys()]) {
      const [u, e] = k.split('\u0001');
      if (u === userId && (!exchange || e === exchange)) this.ports.delete(k);
    }
  }

  async close(): Promise<void> {
    if (this.syncTimer) clearInterval(this.syncTimer);
    this.syncTimer = undefined;
    (this.prices as PriceHub).closeAll();
    await Promise.all([...this.ports.values(), ...this.publics.values()].map((p) => p.closeStreams()));
    this.ports.clear();
    this.publics.clear();
  }
}
