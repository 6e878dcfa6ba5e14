/**
 * Uploaded CSVs of candles, kept in the candle cache under the uploader (market = user id), so that a
 * backtest request can name one by id, another user's id is never found, and a re-run after a restart
 * reads the same candles.
 */
import { randomUUID } from 'node:crypto';
import { toSeries, type CandleSeries } from '../domain/candle';
import type { CandleCache, CacheKey } from './candle-cache';
import { parseCandleCsv } from './csv.candles';

/** Largest CSV upload (a year of 1-minute candles is about 30 MB; 30 days about 2.5 MB). */
export const MAX_UPLOAD_BYTES = 8 * 1024 * 1024;

const key = (userId: string, uploadId: string): CacheKey => ({ exchange: 'upload', market: userId, symbol: uploadId, timeframe: 'csv' });

export interface UploadSummary {
  candlesId: string;
  candles: number;
  from: number;
  to: number;
}

export class CandleUploads {
  constructor(private readonly cache: CandleCache) {}

  /** Parses (errors name the line) and stores a CSV; returns its id and range. */
  store(userId: string, csv: string): UploadSummary {
    const series = toSeries(parseCandleCsv(csv));
    const candlesId = randomUUID();
    const rows = Array.from({ length: series.length }, (_, i) => ({ time: series.time[i], open: series.open[i], high: series.high[i], low: series.low[i], close: series.close[i] }));
    const from = series.time[0];
    const to = series.time[series.length - 1];
    this.cache.store(key(userId, candlesId), from, to + 1, rows);
    return { candlesId, candles: series.length, from, to };
  }

  /** The user's upload, or null (unknown, or another user's). */
  read(userId: string, candlesId: string): CandleSeries | null {
    const k = key(userId, candlesId);
    const [range] = this.cache.ranges(k);
    if (!range) return null;
    return toSeries(this.cache.read(k, range[0], range[1]));
  }
}
