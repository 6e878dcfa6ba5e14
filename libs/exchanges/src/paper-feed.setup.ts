/**
 * The paper exchange as configuration chooses it (issue 39): its venue in `<dataDir>/paper-exchange.sqlite`
 * and the feed that prices it, driven by a timer.
 *   PAPER_FEED         walk (default) | csv (PAPER_PRICES: default when it is set) | venue
 *   PAPER_FEED_VENUES  venue feed: the ccxt ids whose public ticker streams price the paper exchange, at
 *                      most one per exchange (its spot and futures paper markets share one price):
 *                      binance | binanceusdm, kucoin | kucoinfutures (default `binance,kucoin`)
 *   PAPER_FEED_ORIGIN  venue feed: send the streams (and the one markets read) to this origin instead of
 *                      the venues (tests: a stand-in; a gateway), or per id: `binance=http://…,kucoin=http://…`
 */
import { join } from 'node:path';
import { lockPaperExchange } from './paper-lock';
import type { ExchangeName, MarketType } from './exchange.port';
import { CsvReplayFeed, RandomWalkFeed, type PaperPriceFeed } from './paper-price-feed';
import { PaperFeedDriver } from './paper-feed-driver';
import { PaperVenue } from './paper-venue';
import { VenueStreamFeed, type PaperFeedKind, type PaperFeedStatus } from './paper-venue-feed';
import { startVenueFeedStreams } from './paper-venue-feed.streams';
import type { PaperSymbolSpec } from './paper.constants';
import { VENUE_REGISTRY, venueByCcxtId } from './venues/registry';

/** How long the venue feed gathers the prices heard before it advances the paper venue with them. */
export const VENUE_FEED_BATCH_MS = 50;

export interface PaperFeedConfig {
  paperFeed?: string;
  /** CSV path (PAPER_PRICES). */
  paperPrices?: string;
  paperSeed?: string;
  paperFeedVenues?: string;
  paperFeedOrigin?: string;
}

/** Which feed the configuration asks for; throws a sentence naming the setting when it is wrong. */
export function paperFeedKind(config: PaperFeedConfig): PaperFeedKind {
  const raw = (config.paperFeed ?? '').trim().toLowerCase();
  if (raw === '') return config.paperPrices ? 'csv' : 'walk';
  if (raw !== 'walk' && raw !== 'csv' && raw !== 'venue') throw new Error(`PAPER_FEED must be walk, csv or venue (got ${JSON.stringify(raw.slice(0, 20))})`);
  if (raw === 'csv' && !config.paperPrices) throw new Error('PAPER_FEED=csv needs PAPER_PRICES (the CSV to replay)');
  return raw;
}

/** PAPER_FEED_VENUES: the venue markets whose tickers price each exchange. */
export function paperFeedVenues(raw: string | undefined): Array<{ exchange: ExchangeName; market: MarketType }> {
  const ids = (raw ?? 'binance,kucoin').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  const out: Array<{ exchange: ExchangeName; market: MarketType }> = [];
  for (const id of ids) {
    const found = venueByCcxtId(id);
    if (!found) throw new Error(`PAPER_FEED_VENUES: ${JSON.stringify(id.slice(0, 20))} is not one of ${VENUE_REGISTRY.map((x) => x.ccxt.id).join(', ')}`);
    const v = { exchange: found.exchange, market: found.market };
    if (out.some((o) => o.exchange === v.exchange)) throw new Error(`PAPER_FEED_VENUES: one stream per exchange (${v.exchange} twice): its paper spot and futures markets share one price`);
    out.push(v);
  }
  return out;
}

/** PAPER_FEED_ORIGIN: one origin for every venue, or `id=origin` pairs. */
export function paperFeedOrigin(raw: string | undefined): ((ccxtId: string) => string | undefined) | undefined {
  const text = (raw ?? '').trim();
  if (!text) return undefined;
  if (!text.includes('=')) return () => text.replace(/\/$/, '');
  const map = new Map<string, string>();
  for (const pair of text.split(',')) {
    const [id, origin] = pair.split('=').map((s) => s.trim());
    if (!venueByCcxtId(id?.toLowerCase() ?? '') || !/^https?:\/\//.test(origin ?? '')) throw new Error(`PAPER_FEED_ORIGIN: expected id=http(s)://origin pairs (got ${JSON.stringify(pair.slice(0, 40))})`);
    map.set(id.toLowerCase(), origin.replace(/\/$/, ''));
  }
  return (id) => map.get(id);
}

export interface PaperExchangeSetup {
  venue: PaperVenue;
  driver: PaperFeedDriver;
  kind: PaperFeedKind;
  /** Which feed prices the paper exchange, and for the venue feed each stream's state. */
  status(): PaperFeedStatus;
  /** Starts the driver's timer and, for the venue feed, the streams. */
  start(): void;
  /** Stops the timer and the streams (the venue stays open: its provider closes it). */
  stop(): Promise<void>;
}

export interface OpenPaperExchangeOptions extends PaperFeedConfig {
  dataDir?: string;
  dbPath?: string;
  clock?: () => number;
  feedIntervalMs?: number;
  symbols?: readonly PaperSymbolSpec[];
  onFeedError?: (exchange: ExchangeName, reason: string) => void;
}

export function openPaperExchange(options: OpenPaperExchangeOptions): PaperExchangeSetup {
  const kind = paperFeedKind(options);
  const venues = kind === 'venue' ? paperFeedVenues(options.paperFeedVenues) : [];
  const origin = kind === 'venue' ? paperFeedOrigin(options.paperFeedOrigin) : undefined;
  const venueFeed = kind === 'venue' ? new VenueStreamFeed({ venues, symbols: options.symbols, clock: options.clock }) : null;
  const feed: PaperPriceFeed =
    venueFeed ?? (kind === 'csv' ? CsvReplayFeed.fromFile(options.paperPrices!, options.symbols) : new RandomWalkFeed({ seed: options.paperSeed ?? 1, symbols: options.symbols }));
  // one process on the folder (paper-lock.ts): a second is refused here, before it touches the store
  const dbPath = options.dbPath ?? join(options.dataDir ?? 'data', 'paper-exchange.sqlite');
  const release = lockPaperExchange(`${dbPath}.lock`);
  let venue: PaperVenue;
  try {
    venue = PaperVenue.open({ dataDir: options.dataDir, dbPath, feed });
  } catch (e) {
    release();
    throw e;
  }
  const driver = new PaperFeedDriver(venue, { clock: options.clock, intervalMs: options.feedIntervalMs });
  let stopStreams: (() => Promise<void>) | null = null;
  let scheduled = false;
  let offHeard: (() => void) | null = null;
  return {
    venue,
    driver,
    kind,
    status: () => venueFeed?.status() ?? { kind, streams: [] },
    start() {
      driver.start();
      if (!venueFeed || stopStreams) return;
      // a price heard is matched within VENUE_FEED_BATCH_MS, not at the timer's next tick; the prices heard
      // meanwhile (a venue pushes each symbol's ticker every second) go in one advance, one commit
      offHeard = venueFeed.onHeard(() => {
        if (scheduled) return;
        scheduled = true;
        setTimeout(() => {
          scheduled = false;
          if (stopStreams) driver.tick();
        }, VENUE_FEED_BATCH_MS).unref?.();
      });
      stopStreams = startVenueFeedStreams(venueFeed, { origin, symbols: options.symbols, onError: options.onFeedError });
    },
    async stop() {
      release();
      driver.stop();
      offHeard?.();
      const s = stopStreams;
      stopStreams = null;
      await s?.();
    },
  };
}
