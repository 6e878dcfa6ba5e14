/** What a venue dialect of the stand-ins needs from the venue core (venue-standin.ts). */
import type { ExchangeName, MarketType } from '../../exchange.port';
import type { PaperVenue } from '../../paper.exchange';
import type { FillRow } from '../../paper.store';
import type { VenueAnswer, VenueRules } from '../../venues/venue-rules';
import type { KeyPermissions } from '../../venues/key-permissions';
import type { StubHandler, StubRequest, StubResponse } from '../exchange-stub.server';
import type { StreamRoute } from './stream-server';
import type { BinanceRateMeter } from './rate-limits';

export interface StandInKey {
  apiKey: string;
  secret: string;
  passphrase?: string;
  userId: string;
  /**
   * What the venue reports this key may do (issue 30), default STANDIN_KEY_PERMISSIONS: trading-only and
   * IP-restricted, what GridRocket asks for, so tests that do not care see no refusal and no warning.
   */
  permissions?: Partial<KeyPermissions>;
}

/** A stand-in key's default answer: trades spot and futures, reads, cannot withdraw, IP-restricted. */
export const STANDIN_KEY_PERMISSIONS: KeyPermissions = Object.freeze({ withdraw: false, read: true, spot: true, futures: true, ipRestricted: true });

/** One candle of the venue's past at an open time (binance-klines.ts). */
export interface KlineCandle {
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** The venue's past, given by the test: the candle of `symbol` opening at `openTime` (null: no trading then). */
export type KlineHistory = (symbol: string, openTime: number, intervalMs: number) => KlineCandle | null;

/** What a dialect needs from the core. */
export interface StandInCore {
  venue: PaperVenue;
  rules: VenueRules;
  exchange: ExchangeName;
  market: MarketType;
  /** The venue's rate limits (Binance; rate-limits.ts): stream requests are charged here too. */
  rate?: BinanceRateMeter;
  /** The stand-in's key with this API key (stream logins carry the key in a message, not a header). */
  keyOf(apiKey: string): StandInKey | undefined;
  /** The account of the request's API key, or null (→ the venue's bad-key answer). */
  account(req: StubRequest): ReturnType<PaperVenue['account']> | null;
  /** What the request's API key may do, or null for an unknown key (→ the venue's bad-key answer). */
  keyPermissions(req: StubRequest): { apiKey: string; permissions: KeyPermissions } | null;
  now(): number;
  /** The venue's past for its candles route (issue 40, binance-klines.ts); absent: flat at the current price. */
  klines?: KlineHistory;
  /** Our error → the venue's answer. */
  answer(e: unknown): StubResponse;
  venueAnswer(a: VenueAnswer): StubResponse;
  units(n: number): string;
  /** Trades of [from, to] (inclusive) of the account and symbol, oldest first. */
  fillsBetween(account: ReturnType<PaperVenue['account']>, symbol: string, from: number, to: number): FillRow[];
  /** The window a trade-history request covers, or the venue's refusal. */
  window(start: number | undefined, end: number | undefined): { from: number; to: number; newest: boolean } | { refused: StubResponse };
}

export type Dialect = (core: StandInCore) => Record<string, StubHandler>;


/**
 * The streams of a venue (issue 39): the REST calls that open them (listenKey, bullet tokens) and the
 * websocket routes, by path, that serve them; `expire()` ends every stream credential now (Binance's
 * listenKeyExpired, KuCoin's token end) so that a test can play it.
 */
export interface StreamDialect {
  rest: Record<string, StubHandler>;
  streams: Record<string, StreamRoute>;
  expire?(): void;
  /** The key was deleted on the venue: its streams end (the venue's own words for it). */
  revoke?(apiKey: string): void;
  /** Live subscriptions now: user-data (per account) and market ones (per symbol and channel). */
  subscriptions?(): { user: number; market: number };
}

export type StreamDialectFactory = (core: StandInCore) => StreamDialect;
