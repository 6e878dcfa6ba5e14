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

/**
 * One upload's work on the request thread at a time, process-wide (issue 28): parsing and writing an
 * 8 MB upload, reading one for a backtest or deleting one each take 0.4–0.8 s of the request thread,
 * in steps; four users' uploads at once made /api/health wait over a second. The others wait in turn
 * (first come, first served); their sockets are not read meanwhile.
 */
export class UploadTurns {
  private tail: Promise<void> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.tail.then(work);
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
export const uploadTurns = new UploadTurns();

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
  store(userId: string, candles: readonly Candle[], bytes: number, check?: (usage: UploadUsage) => void): Promise<UploadSummary> {
    // the parser refuses a time given twice, so the rows are the candles as parsed (any order: the
    // table's key sorts them); no sorted copy here, it held the request thread ~0.1 s (issue 28)
    let from = Infinity;
    let to = -Infinity;
    for (const c of candles) {
      if (c.time < from) from = c.time;
      if (c.time > to) to = c.time;
    }
    const candlesId = randomUUID();
    // written in steps (the request thread keeps answering); the quota checked in the first, synchronous one
    return uploadTurns.run(() => this.cache.storeSizedInSteps(key(userId, candlesId), from, to + 1, candles, bytes, () => check?.(this.usage(userId)))).then(() => ({ candlesId, candles: candles.length, from, to }));
  }

  /** Deletes the user's upload (frees its room in the quota at once; its rows in steps); false when unknown or another user's. */
  remove(userId: string, candlesId: string): Promise<boolean> {
    return uploadTurns.run(() => this.cache.removeInSteps(key(userId, candlesId)));
  }

  /** How many candles the user's upload holds, or null (unknown, or another user's). */
  rows(userId: string, candlesId: string): number | null {
    const k = key(userId, candlesId);
    return this.cache.ranges(k).length ? this.cache.count(k) : null;
  }

  /** The user's upload, or null (unknown, or another user's). */
  async read(userId: string, candlesId: string): Promise<CandleSeries | null> {
    const k = key(userId, candlesId);
    const [range] = this.cache.ranges(k);
    if (!range) return null;
    const rows = await uploadTurns.run(() => this.cache.readInSteps(k, range[0], range[1])); // in steps, in turn: the request thread keeps answering
    return this.cache.ranges(k).length ? toSeries(rows) : null; // deleted while it was read: gone, not a part of it
  }
}
