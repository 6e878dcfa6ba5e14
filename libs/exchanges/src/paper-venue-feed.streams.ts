/**
 * The venue feed's subscriptions (issue 39): for each venue the paper exchange is priced from, one
 * key-less ccxt pro instance and, for each catalogue symbol the venue lists, its public ticker stream
 * (`watchTicker` through CcxtExchange.watchPrice: Binance spot `<symbol>@ticker`, USDⓈ-M the same on the
 * futures host, KuCoin `/market/ticker:<symbol>` / `/contractMarket/ticker:<symbol>` over a bullet-public
 * token; docs/exchanges.md "Paper on the venues' prices"). No key is needed. Each stream reconnects by
 * itself with back-off (ccxt-streams.ts watchLoop); the exchange counts as down while any of its
 * symbols' streams is, and the feed then keeps its last prices. The markets are read once over REST
 * (retried with the same back-off), to skip a catalogue symbol the venue does not list.
 */
import type { ExchangeName } from './exchange.port';
import { ccxtExchangeId } from './venues/registry';
import { UnknownSymbolError } from './exchange.errors';
import { CcxtExchange } from './ccxt.exchange';
import { streamBackoffMs, streamReason } from './ccxt-streams';
import { PAPER_SYMBOLS, type PaperSymbolSpec } from './paper.constants';
import type { VenueStreamFeed } from './paper-venue-feed';

export interface VenueFeedStreamsOptions {
  /** Sends a venue's calls and streams to another origin (tests: a stand-in; a private gateway), by ccxt id. */
  origin?: (ccxtId: string) => string | undefined;
  symbols?: readonly PaperSymbolSpec[];
  timeoutMs?: number;
  /** Hears why a venue's markets could not be read (logs). */
  onError?: (exchange: ExchangeName, reason: string) => void;
}

/** Subscribes `feed` to its venues' ticker streams; returns the stop (closes every socket). */
export function startVenueFeedStreams(feed: VenueStreamFeed, options: VenueFeedStreamsOptions = {}): () => Promise<void> {
  const stops: Array<() => void> = [];
  const instances: CcxtExchange[] = [];
  const signal = { stopped: false };
  for (const { exchange, market } of feed.venues()) {
    const ex = new CcxtExchange({ exchange, market, mode: 'live', apiOrigin: options.origin?.(ccxtExchangeId(exchange, market)), timeoutMs: options.timeoutMs ?? 10_000, retry: { attempts: 1 } });
    instances.push(ex);
    void subscribeVenue(feed, ex, exchange, options, signal, stops);
  }
  return async () => {
    signal.stopped = true;
    for (const stop of stops.splice(0)) stop();
    await Promise.all(instances.map((i) => i.closeStreams()));
  };
}

async function subscribeVenue(
  feed: VenueStreamFeed,
  ex: CcxtExchange,
  exchange: ExchangeName,
  options: VenueFeedStreamsOptions,
  signal: { stopped: boolean },
  stops: Array<() => void>,
): Promise<void> {
  // the venue's markets, once: which catalogue symbols it lists
  for (let attempt = 1; !signal.stopped; attempt++) {
    try {
      await ex.loadMarkets();
      break;
    } catch (e) {
      const reason = `the venue's markets could not be read (${streamReason(e)})`;
      feed.streamState(exchange, { live: false, at: Date.now(), reason });
      options.onError?.(exchange, reason);
      await new Promise((r) => setTimeout(r, streamBackoffMs(attempt)).unref?.());
    }
  }
  const listed: string[] = [];
  for (const spec of options.symbols ?? PAPER_SYMBOLS) {
    try {
      await ex.marketRules(spec.symbol);
      listed.push(spec.symbol);
    } catch (e) {
      if (!(e instanceof UnknownSymbolError)) listed.push(spec.symbol); // not known to be unlisted: try its stream
    }
  }
  if (signal.stopped) return;
  const down = new Set<string>(listed); // a symbol counts as down until its stream first answers
  const report = (at: number, reason?: string) => feed.streamState(exchange, down.size === 0 ? { live: true, at } : { live: false, at, reason: reason ?? 'subscribing' });
  for (const symbol of listed) {
    stops.push(
      ex.watchPrice(
        symbol,
        (price) => feed.receive(exchange, symbol, price),
        (state) => {
          if (state.live) down.delete(symbol);
          else down.add(symbol);
          report(state.at, state.reason);
        },
      ),
    );
  }
}
