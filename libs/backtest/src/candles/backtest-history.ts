/**
 * The history a backtest runs over (issue 40: "the same request gives the same result", and the result
 * names its history's source):
 * - `venue`: the exchange's own candles, through ccxt's public OHLCV (no key), kept in the candle store
 *   (candle-cache.ts): the first run fetches them, every later run over the same period reads them from
 *   disk, whether or not the venue is reachable then;
 * - `simulated`: where the server does not reach the venue (not reached, its rate limit, a pair it does not
 *   list, no candles in the period) or is set to simulated histories only: the fixed, seeded history of
 *   paper.candles.ts, whose seed holds no time, labelled simulated with the reason;
 * - `upload`: the user's CSV.
 * The words are made here, once, for the API's answer and the dashboard (which adds a "Simulated" badge).
 */
import { ExchangeDownError, PAPER_SYMBOLS, RateLimitedError, UnknownSymbolError } from '@gridrocket/exchanges';
import type { CandleSeries } from '../domain/candle';
import type { BacktestHistory } from '../domain/backtest.events';
import type { CandleQuery, CandleSource } from './candle-source.port';
import { simulatedSeed } from './paper.candles';

/** The server's setting (BACKTEST_HISTORY): the venue's candles where it is reached (default), or simulated only. */
export type HistoryMode = 'venue' | 'simulated';

export const SIMULATED_ONLY = 'This server backtests on simulated histories only';

const utc = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')}`;
const period = (from: number, to: number) => `${utc(from)} → ${utc(to)} UTC`;

/**
 * Why the venue's candles could not be had, in words, when the venue was not reached or could not give
 * them (the fallback to the simulated history); null for any other error, which fails the backtest.
 */
export function venueProblem(err: unknown, q: Pick<CandleQuery, 'exchange' | 'market' | 'symbol'>): string | null {
  if (err instanceof ExchangeDownError) return `${q.exchange} could not be reached`;
  if (err instanceof RateLimitedError) return `${q.exchange} turned the request away for now (its rate limit)`;
  if (err instanceof UnknownSymbolError) return `${q.exchange} ${q.market} does not list ${q.symbol.toUpperCase()}`;
  return null;
}

/** What was asked for, as every history says it (the symbol upper-case), and how many candles came. */
const asked = (q: CandleQuery, candles: number) => ({ exchange: q.exchange, market: q.market, symbol: q.symbol.toUpperCase(), timeframe: q.timeframe, from: q.from, to: q.to, candles });

export function venueHistory(q: CandleQuery, candles: number): BacktestHistory {
  return {
    source: 'venue',
    simulated: false,
    ...asked(q, candles),
    label: `${q.exchange} ${q.market} ${q.symbol.toUpperCase()}, ${q.timeframe} candles from ${q.exchange}'s market data, ${period(q.from, q.to)}`,
  };
}

export function simulatedHistory(q: CandleQuery, candles: number, seed: string | number, reason: string): BacktestHistory {
  const start = PAPER_SYMBOLS.find((s) => s.symbol === q.symbol.toUpperCase())?.startPrice;
  return {
    source: 'simulated',
    simulated: true,
    ...asked(q, candles),
    seed: simulatedSeed(seed, q),
    reason,
    label:
      `Simulated history, not market prices: a fixed, seeded random walk from ${q.symbol.toUpperCase()}'s catalogue price` +
      `${start ? ` (${Number(start).toLocaleString('en-US')})` : ''}, ${q.timeframe} candles, ${period(q.from, q.to)}. ${reason}.`,
  };
}

export function uploadHistory(q: CandleQuery, series: CandleSeries): BacktestHistory {
  const from = series.length ? series.time[0] : q.from;
  const to = series.length ? series.time[series.length - 1] : q.to;
  return {
    source: 'upload',
    simulated: false,
    exchange: q.exchange,
    market: q.market,
    symbol: q.symbol.toUpperCase(),
    timeframe: q.timeframe,
    from,
    to,
    candles: series.length,
    label: `Your uploaded CSV of candles, ${series.length.toLocaleString('en-US')} candles, ${period(from, to)}`,
  };
}

export interface HistorySources {
  mode: HistoryMode;
  /** The venue's candles (ccxt.candles.ts: fetched once, then from the candle store). */
  venue: () => CandleSource;
  /** The simulated history of a query (made in the job pool, off the request thread). */
  simulated: (query: CandleQuery) => Promise<CandleSeries>;
  /** The simulated history's seed (the same seed, the same candles). */
  seed: string | number;
}

/**
 * The candles of a period and where they came from: the venue's where it gives them, else the simulated
 * history with the reason. An error that is not the venue's absence (a bug, a refused request) is thrown.
 */
export async function readHistory(q: CandleQuery, sources: HistorySources, onProgress?: (fraction: number) => void): Promise<{ series: CandleSeries; history: BacktestHistory }> {
  let reason = SIMULATED_ONLY;
  if (sources.mode === 'venue') {
    try {
      const series = await sources.venue().candles(q, onProgress);
      if (series.length > 0) return { series, history: venueHistory(q, series.length) };
      reason = `${q.exchange} has no ${q.symbol.toUpperCase()} candles in this period`;
    } catch (err) {
      const problem = venueProblem(err, q);
      if (problem === null) throw err;
      reason = problem;
    }
  }
  const series = await sources.simulated(q);
  onProgress?.(1);
  return { series, history: simulatedHistory(q, series.length, sources.seed, reason) };
}
