/**
 * Uploaded CSVs of candles, kept in the candle cache under the uploader (market = user id), so that a
 * backtest request can name one by id, another user's id is never found, and a re-run after a restart
 * reads the same candles.
 */
import type { CandleSeries } from '../domain/candle';
import type { CandleCache, CacheKey } from './candle-cache';
import type { UploadLimits, UploadSession, UploadStore, UploadSummary } from './upload-store';
export type { UploadLimits, UploadSummary } from './upload-store';

/** Largest CSV upload (a year of 1-minute candles is about 30 MB; 30 days about 2.5 MB). */
export const MAX_UPLOAD_BYTES = 8 * 1024 * 1024;

export const uploadKey = (userId: string, uploadId: string): CacheKey => ({ exchange: 'upload', market: userId, symbol: uploadId, timeframe: 'csv' });

/** What one user's uploads hold: files, and the bytes of the CSVs they came from. */
export interface UploadUsage {
  files: number;
  bytes: number;
}

/** Which limit a new upload of `bytes` would pass (files first), or null when it fits. */
export function uploadQuotaProblem(usage: UploadUsage, limits: UploadLimits, bytes: number): 'uploads' | 'uploadBytes' | null {
  if (usage.files + 1 > limits.maxFiles) return 'uploads';
  if (usage.bytes + bytes > limits.maxBytes) return 'uploadBytes';
  return null;
}

export class CandleUploads {
  constructor(
    private readonly cache: CandleCache,
    private readonly store: UploadStore,
  ) {}

  usage(userId: string): UploadUsage {
    const { keys, bytes } = this.cache.usage('upload', userId);
    return { files: keys, bytes };
  }

  /**
   * An upload on its way in: its chunks are parsed in the upload store's worker as they arrive
   * (`CandleCsvParser`: errors name the line), and `end` stores them there with the CSV's size; the
   * quota (`limits`) is checked in the same write transaction, so no other upload passes it meanwhile.
   */
  begin(userId: string, name: string | null = null): UploadSession {
    return this.store.begin(userId, name);
  }

  /** The user's uploads, newest first, with the size of the CSV each came from. */
  list(userId: string): Array<UploadSummary & { bytes: number }> {
    return this.cache.uploadList('upload', userId).map((u) => ({
      candlesId: u.symbol,
      candles: u.rows ?? this.cache.count(uploadKey(userId, u.symbol)),
      from: u.from,
      to: u.to - 1, // stored as [from, last + 1)
      name: u.name,
      bytes: u.bytes,
    }));
  }

  /** Deletes the user's upload (frees its room in the quota at once; its rows in steps); false when unknown or another user's. */
  remove(userId: string, candlesId: string): Promise<boolean> {
    return this.store.remove(userId, candlesId);
  }

  /** How many candles the user's upload holds, or null (unknown, or another user's). */
  rows(userId: string, candlesId: string): number | null {
    const k = uploadKey(userId, candlesId);
    return this.cache.ranges(k).length ? this.cache.uploadRows(k) : null;
  }

  /** The user's upload (read in the upload store's worker, shared columns), or null (unknown, or another user's). */
  read(userId: string, candlesId: string): Promise<CandleSeries | null> {
    return this.store.read(userId, candlesId);
  }
}
