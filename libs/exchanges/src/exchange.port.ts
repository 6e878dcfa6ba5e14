/**
 * The exchange port: what HTTP routes and the bot runner use to talk to an exchange.
 * Adapters: the paper exchange (default, simulated) and ccxt (binance, binanceusdm, kucoin,
 * kucoinfutures; live or testnet). No code outside an adapter knows which one runs.
 *
 * Units: symbols are the spec's pairs ('BTCUSDT'); prices are in the quote currency (USDT/USDC);
 * amounts are always in BASE units (for contract markets the ccxt adapter converts to contracts).
 */

export type ExchangeName = 'Binance' | 'Kucoin';
export type MarketType = 'spot' | 'futures';
export type OrderSide = 'buy' | 'sell';
export type OrderStatus = 'open' | 'filled' | 'cancelled';
export type ExchangeMode = 'paper' | 'live' | 'testnet';

export const EXCHANGES: readonly ExchangeName[] = ['Binance', 'Kucoin'];
export const MARKETS: readonly MarketType[] = ['spot', 'futures'];

/** One record per asset, as the spec's balance routes return them. */
export interface BalanceRecord {
  symbol: string;
  exchange: ExchangeName;
  balance: number;
  available: number;
}

export interface PositionRisk {
  symbol: string;
  leverage: number;
}

export interface MarketRules {
  /** Price increment (tick size), quote currency. */
  priceStep: number;
  /** Amount increment, base units. */
  amountStep: number;
  /** Minimum order value (price × amount), quote currency. */
  minNotional: number;
  /** Minimum amount, base units. */
  minAmount: number;
  /**
   * The account's fee rates for this symbol as fractions (0.001 = 0.1 %), from the venue rules
   * (libs/exchanges/src/venues) or the market the venue reports.
   */
  makerFee: number;
  takerFee: number;
  /**
   * Issue 39, the venue's maximums (absent: the venue states none, or it was not known). Sources and the
   * rule names per venue: docs/exchanges.md "Any pair the venue lists".
   * Largest amount of one order, base units (Binance LOT_SIZE maxQty; KuCoin spot baseMaxSize, futures maxOrderQty × multiplier).
   */
  maxAmount?: number;
  /** Largest value of one order, quote (Binance spot NOTIONAL maxNotional; KuCoin spot quoteMaxSize). */
  maxNotional?: number;
  /** Most open orders the account may have on the symbol (Binance MAX_NUM_ORDERS). */
  maxNumOrders?: number;
  /**
   * How far from the current price an order's price may be, as multipliers of it (Binance spot
   * PERCENT_PRICE_BY_SIDE, USDⓈ-M PERCENT_PRICE): a buy within [bidDown, bidUp] × price, a sell within
   * [askDown, askUp] × price; a missing bound is not checked.
   */
  percentPrice?: PercentPrice;
  /** The venue's own name of each maximum above, for a refusal that names the rule ('LOT_SIZE maxQty'). */
  ruleNames?: Partial<Record<'maxAmount' | 'maxNotional' | 'maxNumOrders' | 'percentPrice', string>>;
}

/** MarketRules.percentPrice: multipliers of the current price (absent: that side's bound is not checked). */
export interface PercentPrice {
  bidUp?: number;
  bidDown?: number;
  askUp?: number;
  askDown?: number;
}

/** Binance USDⓈ-M position mode: one-way ('oneway', positionSide BOTH) or hedge (LONG/SHORT sides). */
export type PositionMode = 'oneway' | 'hedge';
export type MarginMode = 'isolated' | 'cross';

/** A futures position as the venue reports it (amount in base units, > 0 long, < 0 short). */
export interface Position {
  symbol: string;
  amount: number;
  entryPrice: number;
  leverage: number;
  marginMode: MarginMode;
  /** Hedge mode only: which side this is. */
  positionSide?: 'LONG' | 'SHORT';
}

export interface MarketOrderRequest {
  symbol: string;
  side: OrderSide;
  /** Base units. */
  amount: number;
  clientOrderId: string;
  reduceOnly?: boolean;
  positionSide?: 'LONG' | 'SHORT';
}

export interface LimitOrderRequest {
  symbol: string;
  side: OrderSide;
  price: number;
  amount: number;
  /** Our deterministic id; [A-Za-z0-9_-]{1,36} so that every exchange accepts it (venues/*.rules.ts). */
  clientOrderId: string;
  /** Futures only: the order may only reduce the position. */
  reduceOnly?: boolean;
  /** Futures in hedge mode: the side of the position this order opens or closes (issue 10). */
  positionSide?: 'LONG' | 'SHORT';
}

/** What an order and each of its fills both carry: the order's two ids, its market and side, a price and an amount. */
export interface OrderTerms {
  clientOrderId: string;
  exchangeOrderId: string;
  symbol: string;
  side: OrderSide;
  /** An order's limit price; a fill's price. */
  price: number;
  /** An order's size; a fill's amount (base units or contracts). */
  amount: number;
}

export interface Order extends OrderTerms {
  filled: number;
  status: OrderStatus;
  avgFillPrice?: number;
  /** Fee paid so far, in the quote currency. */
  fee?: number;
  reduceOnly?: boolean;
  /** Milliseconds since the epoch (paper: the feed's time). */
  updatedAt: number;
}

export interface Fill extends OrderTerms {
  /** Unique per exchange account (trade id). */
  fillId: string;
  /** Fee converted to the quote currency at the fill's price (a BNB fee at the BNB price). */
  fee: number;
  /**
   * The asset the venue charged the fee in and how much of it ('BTC' on a Binance spot buy, 'BNB'
   * with the BNB discount, 'USDT' otherwise). A buy whose fee is paid in the base coin leaves the
   * account holding `amount − feeCost`.
   */
  feeAsset: string;
  feeCost: number;
  /** Futures: realised profit of the closed part, before fees. */
  realizedPnl?: number;
  timestamp: number;
}

export interface PriceTick {
  exchange: ExchangeName;
  market: MarketType;
  symbol: string;
  price: number;
  ms: number;
}

export type PriceListener = (tick: PriceTick) => void;
export type Unsubscribe = () => void;

/** An update of one of the account's orders (paper pushes these; ccxt callers poll). */
export interface OrderUpdate {
  order: Order;
  fill?: Fill;
}

/** The state of a venue stream (issue 39): live, or down since `at` for `reason`. */
export interface StreamState {
  live: boolean;
  /** When it became so (wall-clock ms). */
  at: number;
  reason?: string;
}

/** One user's account on one exchange and market. All methods are async. */
export interface ExchangePort {
  readonly exchange: ExchangeName;
  readonly market: MarketType;
  /** Per-asset balances; `market` defaults to this port's market. */
  balances(market?: MarketType): Promise<BalanceRecord[]>;
  price(symbol: string): Promise<number>;
  /** Futures leverage per symbol; [] on spot. */
  positionRisk(): Promise<PositionRisk[]>;
  /**
   * Futures: sets leverage (and margin mode, default isolated) for the symbol; the adapter carries
   * them on every order where the venue requires it (Kucoin futures). Call it on every start AND resume.
   */
  setLeverage(symbol: string, leverage: number, marginMode?: MarginMode): Promise<void>;
  /** Futures: 'oneway' or 'hedge' for the account ('oneway' on spot). In hedge mode every order carries positionSide. */
  positionMode(): Promise<PositionMode>;
  /** Futures: open positions ([] on spot). */
  positions(symbol?: string): Promise<Position[]>;
  /** Market order (closing a futures position at stop, stop-loss): fills at the market as a taker. */
  createMarketOrder(request: MarketOrderRequest): Promise<Order>;
  marketRules(symbol: string): Promise<MarketRules>;
  createLimitOrder(request: LimitOrderRequest): Promise<Order>;
  /**
   * Cancels by our client order id and returns the order's final state. Idempotent: an order that
   * is already filled or cancelled is returned as it is. Unknown id → OrderNotFoundError.
   */
  cancelOrder(symbol: string, clientOrderId: string): Promise<Order>;
  openOrders(symbol: string): Promise<Order[]>;
  /**
   * The open orders of these symbols in as few and as light calls as the venue allows (issue 39): one
   * all-symbols read where it weighs less than one read per symbol (Binance spot 80 against 6 each,
   * USDⓈ-M 40 against 1 each; docs/exchanges.md "Rate limits"). Optional: callers ask per symbol.
   */
  openOrdersOf?(symbols: readonly string[]): Promise<Order[]>;
  orderByClientId(symbol: string, clientOrderId: string): Promise<Order | null>;
  /**
   * Fills with timestamp >= sinceMs, oldest first, up to now: the adapter walks the venue's time
   * windows and pages (Binance futures 7 days, Kucoin 7 days, ...) itself. sinceMs is a real time
   * (the run's start), never 0.
   */
  recentFills(symbol: string, sinceMs: number): Promise<Fill[]>;
  /**
   * Optional push of order changes and fills: the paper exchange's in-process push, or a venue's
   * user-data stream (ccxt pro, issue 39). `onState` hears when a network stream goes down and comes
   * back (it may have missed events meanwhile: the caller reconciles over REST then).
   */
  watchOrders?(listener: (update: OrderUpdate) => void, onState?: (state: StreamState) => void): Unsubscribe;
  /**
   * True when watchOrders is a network stream that can miss events while it is down (the ccxt
   * adapter): the caller keeps a REST reconciliation beside it. Absent: the push is complete (paper).
   */
  readonly streamCanMiss?: boolean;
}

export interface ExchangeRef {
  userId: string;
  exchange: ExchangeName;
  market: MarketType;
}

export interface PriceSubscriptionKey {
  exchange: ExchangeName;
  market: MarketType;
  symbol: string;
}

/** Prices shared by many bots: one upstream subscription per (exchange, market, symbol). */
export interface PriceSubscriptions {
  subscribe(key: PriceSubscriptionKey, listener: PriceListener): Unsubscribe;
  /** Number of upstream subscriptions currently open (for metrics and tests). */
  activeCount(): number;
}

export interface ExchangeCredential {
  apiKey: string;
  secret: string;
  passphrase?: string;
}

/** Injected: returns the user's decrypted credential just before use, or null when none. */
export type ResolveCredential = (userId: string, exchange: ExchangeName) => Promise<ExchangeCredential | null>;

export type { KeyPermissions } from './venues/key-permissions';
import type { KeyPermissions } from './venues/key-permissions';
import type { OrderCountWindow } from './order-counts';

/** What the runner and the routes hold: a factory of ports plus the shared price subscriptions. */
export interface ExchangeProvider {
  readonly mode: ExchangeMode;
  /**
   * Asks the venue what this key may do (issue 30), with the key itself, before it is stored and daily
   * after: Binance's API-key restrictions, KuCoin's API-key information (docs/exchanges.md). A key the venue
   * refuses → BadApiKeyError; unreachable → ExchangeDownError; an answer we cannot read → ExchangeNotSupportedError.
   * Optional: providers that only serve a runner (test doubles, the remote paper venue) need not answer;
   * adding a key through a provider without it is refused (the key could not be checked).
   */
  keyPermissions?(exchange: ExchangeName, credential: ExchangeCredential): Promise<KeyPermissions>;
  /** Live/testnet without a credential → MissingCredentialError. */
  for(ref: ExchangeRef): Promise<ExchangePort>;
  readonly prices: PriceSubscriptions;
  /** Drop cached ports of a user (e.g. after a credential was removed). */
  forget(userId: string, exchange?: ExchangeName): void;
  /**
   * Hears every rate-limit pause of a venue (issue 39, venue-budget.ts): a 429 or 418 met by this process
   * or by another runner of the install. Optional: the paper venue has no limits.
   */
  onVenuePause?(listener: (p: VenueRateLimitPause) => void): () => void;
  /** The install's use of each venue's budget (health, metrics; issue 39). Optional as above. */
  budgetSnapshots?(): VenueBudgetFigure[];
  /**
   * The orders the account of `ref` has placed in each of the venue's order-count windows, as the venue's
   * last order answer said (Binance X-MBX-ORDER-COUNT-*, order-counts.ts; issue 39's capacity answer).
   * Empty: none seen (or a venue without such counts). Optional as above.
   */
  orderCounts?(ref: ExchangeRef): Promise<OrderCountWindow[]>;
  close(): Promise<void>;
}

/** A venue's rate-limit pause: every call of the install to it waits until `until` (issue 39). */
export interface VenueRateLimitPause {
  exchange: ExchangeName;
  market: MarketType;
  /** ccxt's id of the venue and market (binance, binanceusdm, kucoin, kucoinfutures). */
  venue: string;
  /** The venue's answer: 429 (too much weight) or 418 (the IP banned). */
  status: number;
  at: number;
  until: number;
}

/** One venue's budget as the install uses it (issue 39). */
export interface VenueBudgetFigure {
  venue: string;
  /** The share of the limit the install allows itself (0.5). */
  share: number;
  limit: number;
  used: number;
  usedShare: number;
  resetAt: number;
  pausedUntil: number;
  pauseStatus: number;
}

/** 'BTCUSDT' → { base: 'BTC', quote: 'USDT' }. */
export function splitSymbol(symbol: string): { base: string; quote: string } {
  const s = symbol.toUpperCase();
  for (const quote of ['USDT', 'USDC']) {
    if (s.length > quote.length && s.endsWith(quote)) return { base: s.slice(0, -quote.length), quote };
  }
  throw new Error(`Unsupported symbol ${JSON.stringify(symbol)}`);
}

/** The ccxt unified symbol: spot 'BTC/USDT', futures (linear perpetual) 'BTC/USDT:USDT'. */
export function toCcxtSymbol(symbol: string, market: MarketType): string {
  const { base, quote } = splitSymbol(symbol);
  return market === 'spot' ? `${base}/${quote}` : `${base}/${quote}:${quote}`;
}

/** 'BTC/USDT' or 'BTC/USDT:USDT' → 'BTCUSDT'. */
export function fromCcxtSymbol(ccxtSymbol: string): string {
  const [pair] = ccxtSymbol.split(':');
  return pair.replace('/', '');
}

// ccxtExchangeId and parseExchangeName: venues/registry.ts (the venues are listed there, once).

/**
 * Binance's client order id format (^[.A-Z:/a-z0-9_-]{1,36}$). Kucoin allows only [A-Za-z0-9_-], up
 * to 40: the ids every venue accepts are the intersection (the runner's are [a-z0-9-], ≤ 32). Each
 * venue's own rule: venues/<venue>/rules.ts.
 */
export const CLIENT_ORDER_ID_PATTERN = /^[.A-Z:/a-z0-9_-]{1,36}$/;
