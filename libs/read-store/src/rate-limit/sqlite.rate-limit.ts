import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { RateLimitStore, gcraReserve } from './rate-limit.port';

/** The embedded shared rate limit: a SQLite file every process on the host opens (WAL, busy timeout). */
export class SqliteRateLimitStore implements RateLimitStore {
  readonly kind = 'sqlite';
  private readonly db: Database.Database;
  private readonly reserveTx: (key: string, capacity: number, perSecond: number) => number;

  constructor(file: string, private readonly now: () => number = Date.now) {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL'); // a lost reservation after a power cut only allows one more call
    this.db.pragma('busy_timeout = 5000');
    this.db.exec('CREATE TABLE IF NOT EXISTS rate_limits (key TEXT PRIMARY KEY, tat REAL NOT NULL)');
    const get = this.db.prepare<[string], { tat: number }>('SELECT tat FROM rate_limits WHERE key = ?');
    const put = this.db.prepare('INSERT INTO rate_limits (key, tat) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET tat = excluded.tat');
    const tx = this.db.transaction((key: string, capacity: number, perSecond: number) => {
      const next = gcraReserve(get.get(key)?.tat ?? 0, this.now(), capacity, perSecond);
      put.run(key, next.tat);
      return next.waitMs;
    });
    // IMMEDIATE: the read and the write of one reservation are not interleaved with another process's
    this.reserveTx = (key, capacity, perSecond) => tx.immediate(key, capacity, perSecond);
  }

  async reserve(key: string, capacity: number, perSecond: number): Promise<number> {
    return this.reserveTx(key, capacity, perSecond);
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
