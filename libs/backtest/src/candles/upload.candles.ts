/**
 * Uploaded CSVs of candles, kept in the candle cache under the uploader (market = user id), so that a
 * backtest request can name one by id, another user's id is never found, and a re-run after a restart
 * reads the same candles.
 */
import { randomUUID } from 'node:crypto';
import { toSeries, type Candle, type CandleSeries } from '../domain/candle';
import type { CandleCache, CacheKey } from './candle-cache';

/** Largest CSV upload (a year of 1-minute candles is about 30 MB; 30 days about 2.5 MB). */
export const MAX_UPLOAD_BYTES = 8 * 1024 * 1024;

const key = (userId: string, uploadId: string): CacheKey => ({ exchange: 'upload', market: userId, symbol: uploadId, timeframe: 'csv' });

export interface UploadSummary {
  candlesId: string;
  candles: number;
  from: number;
  to: number;
}

/** What one user's uploads hold: files, and the bytes of the CSVs they came from. */
export interface UploadUsage {
  files: number;
  bytes: number;
}

/** A user's upload quota (UPLOAD_MAX_FILES, UPLOAD_MAX_BYTES). */
export interface UploadLimits {
  maxFiles: number;
  maxBytes: number;
}

/** Which limit a new upload of `bytes` would pass (files first), or null when it fits. */
export function uploadQuotaProblem(usage: UploadUsage, limits: UploadLimits, bytes: number): 'uploads' | 'uploadBytes' | null {
  if (usage.files + 1 > limits.maxFiles) return 'uploads';
  if (usage.bytes + bytes > limits.maxBytes) return 'uploadBytes';
  return null;
}

export class CandleUploads {
  constructor(private readonly cache: CandleCache) {}

  usage(userId: string): UploadUsage {
    const { keys, bytes } = this.cache.usage('upload', userId);
    return { files: keys, bytes };
  }

  /**
   * Stores parsed candles (`CandleCsvParser`: errors name the line) and the size of their CSV; returns
   * the upload's id and range. `check` runs just before the write, with the user's usage, in the same
   * synchronous step (a quota check there cannot be raced by another upload of this process).
   */
  store(userId: string, candles: readonly Candle[], bytes: number, check?: (usage: UploadUsage) => void): UploadSummary {
    const series = toSeries(candles);
    const candlesId = randomUUID();
    const rows = Array.from({ length: series.length }, (_, i) => ({ time: series.time[i], open: series.open[i], high: series.high[i], low: series.low[i], close: series.close[i] }));
    const from = series.time[0];
    const to = series.time[series.length - 1];
    check?.(this.usage(userId));
    this.cache.storeSized(key(userId, candlesId), from, to + 1, rows, bytes);
    return { candlesId, candles: series.length, from, to };
  }

  /** Deletes the user's upload (frees its room in the quota); false when unknown or another user's. */
  remove(userId: string, candlesId: string): boolean {
    return this.cache.remove(key(userId, candlesId));
  }

  /** How many candles the user's upload holds, or null (unknown, or another user's). */
  rows(userId: string, candlesId: string): number | null {
    const k = key(userId, candlesId);
    return this.cache.ranges(k).length ? this.cache.count(k) : null;
  }

  /** The user's upload, or null (unknown, or another user's). */
  read(userId: string, candlesId: string): CandleSeries | null {
    const k = key(userId, candlesId);
    const [range] = this.cache.ranges(k);
    if (!range) return null;
    return toSeries(this.cache.read(k, range[0], range[1]));
  }
}
