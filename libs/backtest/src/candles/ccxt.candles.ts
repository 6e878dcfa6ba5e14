/**
 * Candles from the exchange itself through ccxt's public `fetchOHLCV` (no API key): paginated
 * (`since` + `limit`), ccxt's rate limiter on, every fetched range cached in SQLite (CandleCache) so a
 * second run over the same range reads no network. Market rules come from the exchange adapter
 * (CcxtExchange.marketRules); the fee is ccxt's base-tier maker fee of the venue (`fees.trading.maker`):
 * Binance spot 0.1 %, Binance USDⓈ-M futures 0.02 %, Kucoin spot 0.1 %, Kucoin futures 0.02 % — grid
 * orders are resting limit orders, i.e. makers.
 */
import nodeModule from 'node:module';
import type * as CcxtModule from 'ccxt';
import { CcxtExchange, mapCcxtError, toCcxtSymbol, type ExchangeName, type MarketType } from '@gridrocket/exchanges';
import { venueOf } from '@gridrocket/exchanges/venues';
import { TIMEFRAMES, toSeries, type Candle, type CandleSeries } from '../domain/candle';
import { CandleCache } from './candle-cache';
import { MAX_CANDLES, type CandleQuery, type CandleSource, type VenueTerms } from './candle-source.port';

// Loaded with Node's own require, as libs/exchanges/src/ccxt.exchange.ts explains (Jest and ESM deps).
const nativeModule: typeof nodeModule = (process as any).getBuiltinModule?.('node:module') ?? nodeModule;
const ccxt: typeof CcxtModule = nativeModule.createRequire(__filename)('ccxt');

export interface CcxtCandleOptions {
  cache: CandleCache;
  /** Tests: an origin (http://127.0.0.1:port) every API URL is pointed at. */
  apiOrigin?: (exchange: ExchangeName, market: MarketType) => string | undefined;
  pageLimit?: number;
  now?: () => number;
  timeoutMs?: number;
}

function rewriteOrigin(urls: any, origin: string): any {
  if (typeof urls === 'string') return urls.replace(/^https?:\/\/[^/]+/, origin);
  if (urls && typeof urls === 'object') {
    const out: any = Array.isArray(urls) ? [] : {};
    for (const k of Object.keys(urls)) out[k] = rewriteOrigin(urls[k], origin);
    return out;
  }
  return urls;
}

export class CcxtCandleSource implements CandleSource {
  readonly name = 'exchange';
  private readonly instances = new Map<string, CcxtModule.Exchange>();
  private readonly adapters = new Map<string, CcxtExchange>();

  constructor(private readonly options: CcxtCandleOptions) {}

  private instance(exchange: ExchangeName, market: MarketType): CcxtModule.Exchange {
    const venue = venueOf(exchange, market);
    const id = venue.ccxt.id;
    let ex = this.instances.get(id);
    if (!ex) {
      const Ctor = (ccxt as any)[id] as new (config: object) => CcxtModule.Exchange;
      ex = new Ctor({ enableRateLimit: true, timeout: this.options.timeoutMs ?? 15_000 });
      const origin = this.options.apiOrigin?.(exchange, market);
      if (origin) ex.urls.api = rewriteOrigin(ex.urls.api, origin.replace(/\/$/, ''));
      // the venue's own options (only the market type traded), as the exchange adapter sets them
      venue.ccxt.configure(ex);
      ex.has.fetchCurrencies = false;
      this.instances.set(id, ex);
    }
    return ex;
  }

  async terms(q: Pick<CandleQuery, 'exchange' | 'market' | 'symbol'>): Promise<VenueTerms> {
    const key = `${q.exchange}|${q.market}`;
    let adapter = this.adapters.get(key);
    if (!adapter) {
      adapter = new CcxtExchange({ exchange: q.exchange, market: q.market, mode: 'live', apiOrigin: this.options.apiOrigin?.(q.exchange, q.market), timeoutMs: this.options.timeoutMs });
      this.adapters.set(key, adapter);
    }
    const rules = await adapter.marketRules(q.symbol);
    const maker = Number((this.instance(q.exchange, q.market) as any).fees?.trading?.maker ?? 0.001);
    return { rules, feeBps: Math.round(maker * 10_000 * 1000) / 1000, feeSource: `${q.exchange} ${q.market} base-tier maker fee ${Number((maker * 100).toPrecision(6))} %` };
  }

  async candles(q: CandleQuery, onProgress?: (fraction: number) => void): Promise<CandleSeries> {
    const tf = TIMEFRAMES[q.timeframe];
    const now = (this.options.now ?? Date.now)();
    // Only closed candles: the one still forming is never cached.
    const to = Math.min(q.to, Math.floor(now / tf) * tf);
    const from = Math.ceil(q.from / tf) * tf;
    if ((to - from) / tf > MAX_CANDLES) throw new Error(`At most ${MAX_CANDLES} candles per backtest`);
    const key = { exchange: q.exchange, market: q.market, symbol: q.symbol.toUpperCase(), timeframe: q.timeframe };
    const gaps = to > from ? this.options.cache.missing(key, from, to) : [];
    const totalMs = gaps.reduce((s, [f, t]) => s + (t - f), 0);
    let doneMs = 0;
    for (const [gf, gt] of gaps) {
      const fetched = await this.fetchRange(q, gf, gt, tf, (ms) => onProgress?.(totalMs ? (doneMs + ms) / totalMs : 1));
      this.options.cache.store(key, gf, gt, fetched);
      doneMs += gt - gf;
    }
    onProgress?.(1);
    return toSeries(to > from ? this.options.cache.read(key, from, to) : []);
  }

  private async fetchRange(q: CandleQuery, from: number, to: number, tf: number, progress: (ms: number) => void): Promise<Candle[]> {
    const ex = this.instance(q.exchange, q.market);
    const symbol = toCcxtSymbol(q.symbol, q.market);
    const limit = this.options.pageLimit ?? 1000;
    const out: Candle[] = [];
    let since = from;
    while (since < to) {
      // the venue's answers as our errors (issue 40: not reached, rate-limited and unknown pair are told
      // apart from the rest: backtest-history.ts falls back to the simulated history on those)
      const page = await ex.fetchOHLCV(symbol, q.timeframe, since, limit).catch((e: unknown) => {
        throw mapCcxtError(e);
      });
      if (!page.length) break;
      let last = since - tf;
      for (const [time, open, high, low, close, volume] of page) {
        if (time === undefined || time < since || time >= to) continue;
        out.push({ time: Number(time), open: Number(open), high: Number(high), low: Number(low), close: Number(close), volume: volume === undefined ? undefined : Number(volume) });
        last = Number(time);
      }
      if (last < since) break; // nothing new in range
      since = last + tf;
      progress(since - from);
    }
    return out;
  }

  close(): void {
    this.options.cache.close();
  }
}
