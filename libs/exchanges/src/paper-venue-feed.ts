/**
 * The paper exchange's prices from the venues' public ticker streams (issue 39: "paper trading on the
 * market as it is"). Pure, as the other feeds (paper-price-feed.ts): the streams (paper-venue-feed
 * .streams.ts) hand it each last price they hear (`receive`) and their state (`streamState`); whoever
 * drives the venue calls `advanceTo(ms)` as for the random walk, and gets the prices heard since, as
 * ticks: the paper venue matches them exactly as it matches the walk's (a resting order fills when the
 * venue's price crosses it). Nothing is invented: between two prices heard, and while a stream is down,
 * a symbol keeps its last price. Its snapshot is the last prices, so a restart resumes on them until
 * the streams speak again; before a symbol's first price ever, its catalogue start price stands in
 * (and the feed's status says it has not heard from the venue yet).
 */
import type { ExchangeName, MarketType } from './exchange.port';
import { parseUnits } from './fixed-point';
import { PAPER_SYMBOLS, type PaperSymbolSpec } from './paper.constants';
import type { FeedTick, PaperPriceFeed } from './paper-price-feed';

/** Where a paper exchange's prices come from (PAPER_FEED): the seeded walk, a CSV replay, or the venues. */
export type PaperFeedKind = 'walk' | 'csv' | 'venue';

/** One venue stream's state as the paper exchange reports it (GET /api/exchange-mode, the badge). */
export interface VenueFeedStream {
  exchange: ExchangeName;
  /** The venue market whose ticker stream prices this exchange's paper spot and futures markets. */
  market: MarketType;
  /** True while the stream delivers; false while it is down (the last prices are kept meanwhile). */
  live: boolean;
  /** Since when (ms) it is in its current state; null before its first answer. */
  since: number | null;
  /** The last price heard (ms), null before the first. */
  lastPriceAt: number | null;
  /** A short, key-free reason while down. */
  reason?: string;
}

/** What the dashboard and health say about the paper exchange's prices. */
export interface PaperFeedStatus {
  kind: PaperFeedKind;
  /** Venue feed only: one entry per subscribed venue. */
  streams: VenueFeedStream[];
}

const key = (exchange: ExchangeName, symbol: string) => `${exchange}:${symbol}`;

/** A ccxt last price (a float) in fixed-point units; undefined when it is no price. */
export function priceToUnits(price: number): number | undefined {
  if (typeof price !== 'number' || !Number.isFinite(price) || price <= 0) return undefined;
  try {
    const units = parseUnits(price.toFixed(8));
    return units > 0 ? units : undefined;
  } catch {
    return undefined;
  }
}

export interface VenueStreamFeedOptions {
  /** Which venue market prices each exchange (one per exchange: the paper venue has one price per exchange and symbol). */
  venues: ReadonlyArray<{ exchange: ExchangeName; market: MarketType }>;
  symbols?: readonly PaperSymbolSpec[];
  /** Stamps the prices heard (default Date.now); the driver's clock. */
  clock?: () => number;
}

export class VenueStreamFeed implements PaperPriceFeed {
  /** Snapshots of any venue feed restore into any other: the prices are the market's, not the configuration's. */
  readonly source = 'venue';
  private readonly prices = new Map<string, number>();
  private readonly defaults: Map<string, number>;
  private pending: FeedTick[] = [];
  private now = 0;
  private readonly clock: () => number;
  private readonly streams = new Map<ExchangeName, VenueFeedStream>();
  private readonly heardListeners = new Set<() => void>();

  constructor(options: VenueStreamFeedOptions) {
    this.clock = options.clock ?? Date.now;
    this.defaults = new Map((options.symbols ?? PAPER_SYMBOLS).map((s) => [s.symbol, parseUnits(s.startPrice)]));
    for (const v of options.venues) this.streams.set(v.exchange, { exchange: v.exchange, market: v.market, live: false, since: null, lastPriceAt: null });
  }

  /** The venues subscribed, with the market of each. */
  venues(): Array<{ exchange: ExchangeName; market: MarketType }> {
    return [...this.streams.values()].map((s) => ({ exchange: s.exchange, market: s.market }));
  }

  /** Called when a price arrives (the driver advances the venue at once, so a fill does not wait for its timer). */
  onHeard(listener: () => void): () => void {
    this.heardListeners.add(listener);
    return () => this.heardListeners.delete(listener);
  }

  /** A last price the venue's stream pushed for a catalogue symbol (a float, as ccxt gives it). */
  receive(exchange: ExchangeName, symbol: string, price: number): void {
    const units = priceToUnits(price);
    const stream = this.streams.get(exchange);
    if (units === undefined || !stream || !this.defaults.has(symbol)) return;
    const ms = Math.max(this.clock(), this.now);
    stream.lastPriceAt = ms;
    this.pending.push({ ms, exchange, symbol, price: units });
    for (const l of this.heardListeners) l();
  }

  /** The stream of `exchange` went live or down (ccxt-streams.ts watchLoop states). */
  streamState(exchange: ExchangeName, state: { live: boolean; at: number; reason?: string }): void {
    const s = this.streams.get(exchange);
    if (!s || (s.live === state.live && s.since !== null)) return;
    s.live = state.live;
    s.since = state.at;
    if (state.live) delete s.reason;
    else s.reason = state.reason ?? 'the stream ended';
  }

  status(): PaperFeedStatus {
    return { kind: 'venue', streams: [...this.streams.values()].map((s) => ({ ...s })) };
  }

  nowMs(): number {
    return this.now;
  }

  priceUnits(exchange: ExchangeName, symbol: string): number | undefined {
    return this.prices.get(key(exchange, symbol)) ?? this.defaults.get(symbol);
  }

  /** The prices heard up to now, oldest first, each stamped no later than `ms`. */
  advanceTo(ms: number): FeedTick[] {
    if (!Number.isFinite(ms) || ms < this.now) return [];
    this.now = ms;
    const ticks = this.pending.map((t) => ({ ...t, ms: Math.min(t.ms, ms) }));
    this.pending = [];
    for (const t of ticks) this.prices.set(key(t.exchange, t.symbol), t.price);
    return ticks;
  }

  snapshot(): string {
    return JSON.stringify({ source: this.source, now: this.now, prices: [...this.prices] });
  }

  restore(snapshot: string): boolean {
    const s = JSON.parse(snapshot);
    if (s.source !== this.source) return false;
    this.now = Number(s.now) || 0;
    this.prices.clear();
    for (const [k, p] of s.prices as Array<[string, number]>) if (Number.isSafeInteger(p) && p > 0) this.prices.set(k, p);
    return true;
  }
}
