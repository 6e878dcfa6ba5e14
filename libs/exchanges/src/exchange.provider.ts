/**
 * Chooses the exchange adapter from configuration. Nothing outside this lib knows which one runs.
 *   EXCHANGE_MODE   paper (default) | live | testnet
 *   PAPER_PRICES    path of a CSV `ms,exchange,symbol,price` to replay (paper; default: seeded random walk)
 *   PAPER_SEED      seed of the random walk (paper; default 1)
 *   PAPER_FEED, PAPER_FEED_VENUES, PAPER_FEED_ORIGIN   the paper exchange's prices from the venues'
 *                   public streams (issue 39): paper-feed.setup.ts
 * The paper exchange keeps its state in `<dataDir>/paper-exchange.sqlite`.
 */
import { type RetryPolicy } from './ccxt.exchange';
import { CcxtExchangeProvider } from './ccxt-provider';
import type { ExchangeMode, ExchangeProvider, ResolveCredential } from './exchange.port';
import { PaperExchangeProvider, PaperFeedDriver, PaperVenue } from './paper.exchange';
import { openPaperExchange, type PaperFeedConfig } from './paper-feed.setup';
import type { PaperFeedStatus } from './paper-venue-feed';

export interface ExchangeConfig extends PaperFeedConfig {
  mode: ExchangeMode;
}

export function exchangeConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ExchangeConfig {
  const raw = (env.EXCHANGE_MODE ?? 'paper').trim().toLowerCase();
  if (raw !== 'paper' && raw !== 'live' && raw !== 'testnet') {
    throw new Error(`EXCHANGE_MODE must be paper, live or testnet (got ${JSON.stringify(raw.slice(0, 20))})`);
  }
  const config: ExchangeConfig = { mode: raw, paperPrices: env.PAPER_PRICES || undefined, paperSeed: env.PAPER_SEED || undefined };
  if (env.PAPER_FEED) config.paperFeed = env.PAPER_FEED;
  if (env.PAPER_FEED_VENUES) config.paperFeedVenues = env.PAPER_FEED_VENUES;
  if (env.PAPER_FEED_ORIGIN) config.paperFeedOrigin = env.PAPER_FEED_ORIGIN;
  return config;
}

export interface CreateExchangeProviderOptions extends ExchangeConfig {
  /** The data folder (paper state). */
  dataDir: string;
  /** Decrypts and returns a user's key just before use (live/testnet). */
  resolveCredential: ResolveCredential;
  /** Paper: injected clock of the feed driver (default Date.now). */
  clock?: () => number;
  /** Paper: start the timer that advances the feed (default true). Tests pass false and drive it. */
  startFeed?: boolean;
  feedIntervalMs?: number;
  retry?: Partial<RetryPolicy>;
}

export interface CreatedExchangeProvider {
  provider: ExchangeProvider;
  /** Paper only: the simulated exchange and its feed driver. */
  paper?: { venue: PaperVenue; driver: PaperFeedDriver; status: () => PaperFeedStatus };
}

export function createExchangeProvider(options: CreateExchangeProviderOptions): CreatedExchangeProvider {
  if (options.mode === 'paper') {
    const paper = openPaperExchange({ ...options, feedIntervalMs: options.feedIntervalMs });
    const provider = new PaperExchangeProvider(paper.venue);
    if (options.startFeed !== false) paper.start();
    const close = provider.close.bind(provider);
    provider.close = async () => {
      await paper.stop();
      await close();
    };
    return { provider, paper: { venue: paper.venue, driver: paper.driver, status: paper.status } };
  }
  return { provider: new CcxtExchangeProvider({ mode: options.mode, resolveCredential: options.resolveCredential, retry: options.retry }) };
}
