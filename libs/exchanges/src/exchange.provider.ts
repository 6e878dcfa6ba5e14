/**
 * Chooses the exchange adapter from configuration. Nothing outside this lib knows which one runs.
 *   EXCHANGE_MODE   paper (default) | live | testnet
 *   PAPER_PRICES    path of a CSV `ms,exchange,symbol,price` to replay (paper; default: seeded random walk)
 *   PAPER_SEED      seed of the random walk (paper; default 1)
 * The paper exchange keeps its state in `<dataDir>/paper-exchange.sqlite`.
 */
import { type RetryPolicy } from './ccxt.exchange';
import { CcxtExchangeProvider } from './ccxt-provider';
import type { ExchangeMode, ExchangeProvider, ResolveCredential } from './exchange.port';
import { PaperExchangeProvider, PaperFeedDriver, PaperVenue } from './paper.exchange';

export interface ExchangeConfig {
  mode: ExchangeMode;
  paperPrices?: string;
  paperSeed?: string;
}

export function exchangeConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ExchangeConfig {
  const raw = (env.EXCHANGE_MODE ?? 'paper').trim().toLowerCase();
  if (raw !== 'paper' && raw !== 'live' && raw !== 'testnet') {
    throw new Error(`EXCHANGE_MODE must be paper, live or testnet (got ${JSON.stringify(raw.slice(0, 20))})`);
  }
  return { mode: raw, paperPrices: env.PAPER_PRICES || undefined, paperSeed: env.PAPER_SEED || undefined };
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
  paper?: { venue: PaperVenue; driver: PaperFeedDriver };
}

export function createExchangeProvider(options: CreateExchangeProviderOptions): CreatedExchangeProvider {
  if (options.mode === 'paper') {
    const venue = PaperVenue.open({ dataDir: options.dataDir, pricesCsv: options.paperPrices, seed: options.paperSeed });
    const driver = new PaperFeedDriver(venue, { clock: options.clock, intervalMs: options.feedIntervalMs });
    const provider = new PaperExchangeProvider(venue);
    if (options.startFeed !== false) driver.start();
    const close = provider.close.bind(provider);
    provider.close = async () => {
      driver.stop();
      await close();
    };
    return { provider, paper: { venue, driver } };
  }
  return { provider: new CcxtExchangeProvider({ mode: options.mode, resolveCredential: options.resolveCredential, retry: options.retry }) };
}
