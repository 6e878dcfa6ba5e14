/**
 * Issue 42, "a venue is one folder": what one venue and market (venues/<venue>-<market>/) brings, behind
 * one interface, listed once in venues/registry.ts. The ccxt adapter (ccxt.exchange.ts, ccxt-streams.ts,
 * ccxt-provider.ts, venue-budget.ts) asks the venue object; it never branches on a venue's name. Adding a
 * venue is a new folder with its `venue.ts` (and rules, with sources) plus a line in the registry.
 *
 * Pure data and functions: no ccxt import (the ccxt instance is seen through `CcxtInstanceLike`), no I/O
 * of its own, so that domain code may read the venue's facts through '@gridrocket/exchanges/venues'.
 * Modelled on Hummingbot's connector folders (constants, auth, user-stream source per venue).
 */
import type { ExchangeName, MarketType } from '../exchange.port';
import type { KeyPermissions } from './key-permissions.types';
import type { CcxtMarketLike, Maximums } from './ccxt-market';
import type { MarginTierTable } from './margin-tier-tables';
import type { CatalogueSpec, MarketSpec, Row } from './market-spec';
import type { VenueId, VenueRules } from './venue.types';

/** ccxt's class ids of the venues the registry lists (ccxt.pro[id] / ccxt[id]). */
export type CcxtId = 'binance' | 'binanceusdm' | 'kucoin' | 'kucoinfutures';

/** The part of a ccxt instance a venue's functions touch (the adapter passes its instance). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CcxtInstanceLike = { options: Record<string, any>; apiKey?: string; [key: string]: any };

/** What one read of an account's balances costs on the venue (balance-reads.ts). */
export interface BalanceRead {
  /** The venue call one read makes. */
  call: string;
  /** Its weight in the pool it is counted in. */
  weight: number;
  /** The pool and its size, in the venue's words. */
  pool: string;
  source: string;
}

/** The account on an exchange (what its key is and how it is made): shared by the exchange's markets. */
export interface ExchangeAccount {
  exchange: ExchangeName;
  /** The exchange's own spelling in texts shown to a user ("KuCoin"). */
  displayName: string;
  /** The key comes with a passphrase (KuCoin). */
  passphrase: boolean;
  /** Aliases a user or a CLI may type, lowercase ("binance"). */
  aliases: readonly string[];
  /** The venue's names of the key permissions GridRocket needs (what a refusal names). */
  permissionNames: { read: string; spot: string; futures: string };
  /** How to make a trading-only key on the venue (a refusal's and a warning's advice). */
  tradingOnlyHowTo: string;
  /** How to restrict a key to IP addresses, as a phrase that ends with the addresses ("… and add"). */
  ipRestrictionHowTo: string;
  /**
   * What the key may do (issue 30): the venue's call (through ccxt's implicit API, on the spot host) and the
   * parser of its answer (null: an answer without the documented fields). Sources in docs/exchanges.md.
   */
  keyPermissions: { call: string; ask(ex: CcxtInstanceLike): Promise<unknown>; parse(body: unknown): KeyPermissions | null };
  /**
   * Where a trader opens an account (the home page's "Sign up at …" link, the client config's `exchangeSignup`,
   * keyed by the exchange's name in lower case as the spec spells it; `<NAME>_SIGNUP_URL` overrides it).
   */
  signupUrl: string;
}

/** One of a venue's limits that a start is checked against (issue 39), with where it is documented. */
export interface CapacityLimit {
  /** The venue's name for the rule (MAX_NUM_ORDERS, ORDERS, REQUEST_WEIGHT, …). */
  rule: string;
  limit: number;
  /** Where the figure is documented. */
  source: string;
}

export interface OrderWindowLimit extends CapacityLimit {
  windowMs: number;
  /** "10 s", "1 min", "1 day". */
  label: string;
}

/** What a key can carry before a start (issue 39): the figures libs/bots domain/capacity.ts checks a start against. */
export interface VenueCapacity {
  maxOpenPerSymbol: CapacityLimit;
  /** The venue's order-count windows per account (none: KuCoin counts orders in its resource pool). */
  orderWindows: readonly OrderWindowLimit[];
  /** The weight (or resource) limit the install's budget is a share of. */
  weight: CapacityLimit & { windowMs: number; label: string };
  /** What one watchdog round reads per account (docs/runner.md "Venue streams and what they cost"). */
  reads: { openOrdersPerSymbol: number; openOrdersAll: number | null; accountReads: number; source: string };
}

export interface Venue {
  id: VenueId;
  exchange: ExchangeName;
  market: MarketType;
  /** The venue and market in texts ("Binance USDⓈ-M"). */
  name: string;
  account: ExchangeAccount;
  /** The documented rules a bot depends on, with sources (fees, client ids, history windows, answers). */
  rules: VenueRules;
  ccxt: {
    id: CcxtId;
    /** Options set on a fresh instance (only the market type traded: fewer and smaller calls). */
    configure(ex: CcxtInstanceLike): void;
    /** The params of loadMarkets. */
    loadMarketsParams: Record<string, unknown>;
    /** An instance given another's markets still needs this account's own status (KuCoin's HF flag). */
    sharedMarkets?: { needed(ex: CcxtInstanceLike): boolean; load(ex: CcxtInstanceLike): Promise<unknown> };
    /**
     * Issue 39: a market's maximums beyond its largest amount (read for every venue from limits.amount.max or
     * LOT_SIZE), with the venue's name of each rule (./<venue>/maximums.ts; market-maximums.ts).
     */
    maximums: { ruleNames: NonNullable<Maximums['ruleNames']>; read(m: CcxtMarketLike): Maximums };
  };
  /** The REST calls the adapter makes and what they weigh (docs/exchanges.md "Rate limits"). */
  rest: {
    /** The venue's request counter (venue-budget.ts): its limit and window, a call's weight, per account or per IP. */
    limits: { limit: number; windowMs: number; callWeight?: number; perAccount?: boolean };
    /** An open-orders read for one symbol and for all (Infinity: no all-symbols read). */
    openOrdersWeight: { one: number; all: number };
    /** Open orders are listed in pages of this size (asked for the largest); absent: one answer. */
    openOrdersPage?: number;
    /** Trade history paged by page number within a window ('pages'), or by moving the start time ('time'). */
    tradePaging: 'pages' | 'time';
    /** The params of fetchBalance. */
    balanceParams: Record<string, unknown>;
    /** What one balances read costs (balance-reads.ts). */
    balanceRead: BalanceRead;
    /** Futures: where the leverages come from: a listing of every symbol's, or the open positions'. */
    leverages?: 'listing' | 'positions';
    /** Futures: setLeverage is a call of its own ('always') or only for cross margin ('cross': isolated travels on orders). */
    setLeverage?: 'always' | 'cross';
    /** Futures hedge mode: reduceOnly may be sent along with positionSide. */
    reduceOnlyWithPositionSide?: boolean;
  };
  /** The limits a start is checked against, with sources (./<venue>/capacity.ts; docs/exchanges.md "Streams and rate limits"). */
  capacity: VenueCapacity;
  /** The user-data stream under ccxt pro (docs/exchanges.md "Streams"). */
  streams: {
    /** How the venue's user data arrives, in its words. */
    userData: string;
    /** The subscription itself is up (not only a socket); absent: any open socket of the instance. */
    userDataOpen?(ex: CcxtInstanceLike): boolean;
    /** Before subscribing again after a failure: renew what the subscription rode on (a listenKey). */
    renew?(ex: CcxtInstanceLike): void;
  };
  /** The venue's markets as it reports them (issue 32, ./<venue>/markets.ts), and a symbol without a row shaped from the catalogue. */
  markets: { rows: Readonly<Record<string, Row>>; fromCatalogue(c: CatalogueSpec): MarketSpec };
  /** Futures: the symbols with maintenance margin tiers of their own (margin-tiers.ts; others: the conservative default). */
  marginTiers?: Readonly<Record<string, MarginTierTable>>;
  /** Which local stand-in speaks this venue's dialect in tests (paths from libs/exchanges/src). */
  standin: { dialect: string; suites: readonly string[] };
}
