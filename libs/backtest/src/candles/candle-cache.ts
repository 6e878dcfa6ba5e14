/**
 * Candles fetched from an exchange, kept on disk in SQLite by exchange/market/symbol/timeframe, with
 * the ranges already fetched (so a second run over the same range reads no network). Only closed
 * candles are stored.
 */
import Database from 'better-sqlite3';
import type { Candle, CandleSeries } from '../domain/candle';

export interface CacheKey {
  exchange: string;
  market: string;
  symbol: string;
  timeframe: string;
}

/** Rows per transaction of the stepped upload writes and deletes (the write lock is held about 10 ms at a time). */
const STEP_ROWS = 2_000;
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export class CandleCache {
  private readonly db: Database.Database;

  constructor(path: string) {
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS candles (
        exchange TEXT NOT NULL, market TEXT NOT NULL, symbol TEXT NOT NULL, timeframe TEXT NOT NULL, time INTEGER NOT NULL,
        open REAL NOT NULL, high REAL NOT NULL, low REAL NOT NULL, close REAL NOT NULL, volume REAL,
        PRIMARY KEY (exchange, market, symbol, timeframe, time)) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS candle_ranges (
        exchange TEXT NOT NULL, market TEXT NOT NULL, symbol TEXT NOT NULL, timeframe TEXT NOT NULL,
        range_from INTEGER NOT NULL, range_to INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS upload_sizes (
        exchange TEXT NOT NULL, market TEXT NOT NULL, symbol TEXT NOT NULL, bytes INTEGER NOT NULL, PRIMARY KEY (exchange, market, symbol)) WITHOUT ROWID;
    `);
    // an upload's rows (a sweep's cap does not count them on the request thread), its file's name, when
    // it was stored (the upload list), and `pending` (1 while its rows are written: not listed, and
    // removed if a crash left it so); files stored before these columns: null (rows then counted)
    const columns = (this.db.prepare('PRAGMA table_info(upload_sizes)').all() as Array<{ name: string }>).map((c) => c.name);
    for (const [name, type] of [['rows', 'INTEGER'], ['name', 'TEXT'], ['created', 'INTEGER'], ['pending', 'INTEGER']]) {
      if (columns.includes(name)) continue;
      try {
        this.db.exec(`ALTER TABLE upload_sizes ADD COLUMN ${name} ${type}`);
      } catch (err) {
        if (!/duplicate column/i.test((err as Error).message)) throw err; // another connection added it first
      }
    }
  }

  /** The uploads of a user (exchange 'upload', market = user id), newest first. */
  uploadList(exchange: string, market: string): Array<{ symbol: string; from: number; to: number; bytes: number; rows: number | null; name: string | null; created: number | null }> {
    return this.db
      .prepare(
        `SELECT s.symbol AS symbol, MIN(r.range_from) AS "from", MAX(r.range_to) AS "to", s.bytes AS bytes, s.rows AS rows, s.name AS name, s.created AS created
         FROM upload_sizes s JOIN candle_ranges r ON r.exchange = s.exchange AND r.market = s.market AND r.symbol = s.symbol
         WHERE s.exchange = ? AND s.market = ? AND s.pending IS NULL GROUP BY s.symbol ORDER BY s.created DESC, s.symbol`,
      )
      .all(exchange, market) as ReturnType<CandleCache['uploadList']>;
  }

  /** Fetched ranges [from, to) of a key, merged and sorted. */
  ranges(k: CacheKey): Array<[number, number]> {
    const rows = this.db
      .prepare('SELECT range_from AS f, range_to AS t FROM candle_ranges WHERE exchange=? AND market=? AND symbol=? AND timeframe=? ORDER BY range_from')
      .all(k.exchange, k.market, k.symbol, k.timeframe) as Array<{ f: number; t: number }>;
    const merged: Array<[number, number]> = [];
    for (const r of rows) {
      const last = merged[merged.length - 1];
      if (last && r.f <= last[1]) last[1] = Math.max(last[1], r.t);
      else merged.push([r.f, r.t]);
    }
    return merged;
  }

  /** The parts of [from, to) not fetched yet. */
  missing(k: CacheKey, from: number, to: number): Array<[number, number]> {
    const gaps: Array<[number, number]> = [];
    let cursor = from;
    for (const [f, t] of this.ranges(k)) {
      if (t <= cursor) continue;
      if (f >= to) break;
      if (f > cursor) gaps.push([cursor, Math.min(f, to)]);
      cursor = Math.max(cursor, t);
      if (cursor >= to) break;
    }
    if (cursor < to) gaps.push([cursor, to]);
    return gaps;
  }

  /** Stores candles of a fetched range and records the range, in one transaction. */
  store(k: CacheKey, from: number, to: number, candles: readonly Candle[]): void {
    const insert = this.db.prepare(
      'INSERT OR REPLACE INTO candles (exchange, market, symbol, timeframe, time, open, high, low, close, volume) VALUES (?,?,?,?,?,?,?,?,?,?)',
    );
    this.db.transaction(() => {
      for (const c of candles) insert.run(k.exchange, k.market, k.symbol, k.timeframe, c.time, c.open, c.high, c.low, c.close, c.volume ?? null);
      const merged = [...this.ranges(k), [from, to] as [number, number]].sort((a, b) => a[0] - b[0]);
      this.db.prepare('DELETE FROM candle_ranges WHERE exchange=? AND market=? AND symbol=? AND timeframe=?').run(k.exchange, k.market, k.symbol, k.timeframe);
      const add = this.db.prepare('INSERT INTO candle_ranges VALUES (?,?,?,?,?,?)');
      let cur: [number, number] | null = null;
      for (const r of merged) {
        if (cur && r[0] <= cur[1]) cur[1] = Math.max(cur[1], r[1]);
        else {
          if (cur) add.run(k.exchange, k.market, k.symbol, k.timeframe, cur[0], cur[1]);
          cur = [r[0], r[1]];
        }
      }
      if (cur) add.run(k.exchange, k.market, k.symbol, k.timeframe, cur[0], cur[1]);
    })();
  }

  /** How many candles an upload holds: as recorded with it, else counted. */
  uploadRows(k: CacheKey): number {
    const row = this.db.prepare('SELECT rows FROM upload_sizes WHERE exchange=? AND market=? AND symbol=?').get(k.exchange, k.market, k.symbol) as { rows: number | null } | undefined;
    return row?.rows ?? this.count(k);
  }

  /** How many candles a key holds. */
  count(k: CacheKey): number {
    const row = this.db.prepare('SELECT COUNT(*) AS n FROM candles WHERE exchange=? AND market=? AND symbol=? AND timeframe=?').get(k.exchange, k.market, k.symbol, k.timeframe) as { n: number };
    return row.n;
  }

  /**
   * What the keys of an exchange and market hold (the uploads of one user: exchange 'upload', market =
   * user id): how many keys, and the bytes recorded with them (`storeSized`).
   */
  usage(exchange: string, market: string): { keys: number; bytes: number } {
    const keys = this.db.prepare('SELECT COUNT(DISTINCT symbol) AS n FROM candle_ranges WHERE exchange=? AND market=?').get(exchange, market) as { n: number };
    const bytes = this.db.prepare('SELECT COALESCE(SUM(bytes), 0) AS b FROM upload_sizes WHERE exchange=? AND market=?').get(exchange, market) as { b: number };
    return { keys: keys.n, bytes: bytes.b };
  }

  /** `store`, with the size of the file the candles came from recorded in the same transaction. */
  storeSized(k: CacheKey, from: number, to: number, candles: readonly Candle[], bytes: number): void {
    this.db.transaction(() => {
      this.store(k, from, to, candles);
      this.db.prepare('INSERT OR REPLACE INTO upload_sizes (exchange, market, symbol, bytes) VALUES (?,?,?,?)').run(k.exchange, k.market, k.symbol, bytes);
    })();
  }

  /**
   * `storeSized` in steps, for an upload of up to 8 MB (issue 28: one synchronous write of 310,000 rows
   * held the request thread 0.74 s). The range and the size are recorded first, with `check` (the quota)
   * in the same synchronous step, so no other upload can pass the quota meanwhile; then the rows, `chunk`
   * at a time, one transaction each, yielding to the event loop between. A failed step removes it all.
   * The key is new (an upload's random id), and it is handed to no one before this resolves.
   */
  async storeSizedInSteps(k: CacheKey, from: number, to: number, candles: readonly Candle[], bytes: number, check?: () => void, chunk = STEP_ROWS, name: string | null = null): Promise<void> {
    this.db
      .transaction(() => {
        check?.();
        this.store(k, from, to, []);
        this.db
          .prepare('INSERT OR REPLACE INTO upload_sizes (exchange, market, symbol, bytes, rows, name, created, pending) VALUES (?,?,?,?,?,?,?,1)')
          .run(k.exchange, k.market, k.symbol, bytes, candles.length, name, Date.now());
      })
      .immediate(); // BEGIN IMMEDIATE: the check and the record under one write lock, whichever connection writes
    const insert = this.db.prepare(
      'INSERT OR REPLACE INTO candles (exchange, market, symbol, timeframe, time, open, high, low, close, volume) VALUES (?,?,?,?,?,?,?,?,?,?)',
    );
    try {
      for (let i = 0; i < candles.length; i += chunk) {
        await yieldToEventLoop();
        this.db.transaction(() => {
          for (const c of candles.slice(i, i + chunk)) insert.run(k.exchange, k.market, k.symbol, k.timeframe, c.time, c.open, c.high, c.low, c.close, c.volume ?? null);
        })();
      }
      this.db.prepare('UPDATE upload_sizes SET pending = NULL WHERE exchange=? AND market=? AND symbol=?').run(k.exchange, k.market, k.symbol);
    } catch (err) {
      await this.removeInSteps(k);
      throw err;
    }
  }

  /** `read` straight into columns made by `allocate` (no object per candle), in one read transaction. */
  readSeries(k: CacheKey, from: number, to: number, allocate: (length: number) => CandleSeries): CandleSeries {
    const args = [k.exchange, k.market, k.symbol, k.timeframe, from, to];
    return this.db.transaction(() => {
      const { n } = this.db.prepare('SELECT COUNT(*) AS n FROM candles WHERE exchange=? AND market=? AND symbol=? AND timeframe=? AND time >= ? AND time < ?').get(...args) as { n: number };
      const s = allocate(n);
      let i = 0;
      const rows = this.db.prepare('SELECT time, open, high, low, close FROM candles WHERE exchange=? AND market=? AND symbol=? AND timeframe=? AND time >= ? AND time < ? ORDER BY time').raw();
      for (const r of rows.iterate(...args) as IterableIterator<number[]>) {
        s.time[i] = r[0];
        s.open[i] = r[1];
        s.high[i] = r[2];
        s.low[i] = r[3];
        s.close[i] = r[4];
        i++;
      }
      return s;
    })();
  }

  /**
   * `remove` in steps: the ranges and the recorded size at once (the key is gone and its room in the quota
   * free), then its rows `chunk` at a time, yielding to the event loop between.
   */
  async removeInSteps(k: CacheKey, chunk = STEP_ROWS): Promise<boolean> {
    const args = [k.exchange, k.market, k.symbol, k.timeframe];
    let had = false;
    this.db.transaction(() => {
      had = this.db.prepare('DELETE FROM candle_ranges WHERE exchange=? AND market=? AND symbol=? AND timeframe=?').run(...args).changes > 0;
      this.db.prepare('DELETE FROM upload_sizes WHERE exchange=? AND market=? AND symbol=?').run(k.exchange, k.market, k.symbol);
    })();
    const step = this.db.prepare(
      'DELETE FROM candles WHERE exchange=? AND market=? AND symbol=? AND timeframe=? AND time IN (SELECT time FROM candles WHERE exchange=? AND market=? AND symbol=? AND timeframe=? ORDER BY time LIMIT ?)',
    );
    while (step.run(...args, ...args, chunk).changes > 0) {
      had = true;
      await yieldToEventLoop();
    }
    return had;
  }

  /**
   * Uploads still being written after `olderThanMs` (a crash or kill -9 stopped their writer): their keys,
   * for `removeInSteps`. Younger ones may be another process's upload in progress.
   */
  stalePending(olderThanMs: number, now = Date.now()): CacheKey[] {
    const rows = this.db.prepare('SELECT exchange, market, symbol FROM upload_sizes WHERE pending = 1 AND (created IS NULL OR created < ?)').all(now - olderThanMs) as Array<{ exchange: string; market: string; symbol: string }>;
    return rows.map((r) => ({ ...r, timeframe: 'csv' }));
  }

  /** Removes a key's candles, ranges and recorded size; false when it held nothing. */
  remove(k: CacheKey): boolean {
    let had = false;
    this.db.transaction(() => {
      const args = [k.exchange, k.market, k.symbol, k.timeframe];
      this.db.prepare('DELETE FROM candles WHERE exchange=? AND market=? AND symbol=? AND timeframe=?').run(...args);
      had = this.db.prepare('DELETE FROM candle_ranges WHERE exchange=? AND market=? AND symbol=? AND timeframe=?').run(...args).changes > 0;
      this.db.prepare('DELETE FROM upload_sizes WHERE exchange=? AND market=? AND symbol=?').run(k.exchange, k.market, k.symbol);
    })();
    return had;
  }

  read(k: CacheKey, from: number, to: number): Candle[] {
    return this.db
      .prepare('SELECT time, open, high, low, close, volume FROM candles WHERE exchange=? AND market=? AND symbol=? AND timeframe=? AND time >= ? AND time < ? ORDER BY time')
      .all(k.exchange, k.market, k.symbol, k.timeframe, from, to) as Candle[];
  }

  close(): void {
    this.db.close();
  }
}
