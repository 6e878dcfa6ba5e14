import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Sealed } from '@gridrocket/shared/runtime';
import { KeyStore } from './key-store.port';

const KEY_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Embedded key store: `<data>/keys.sqlite`, one row per wrapped data key.
 *
 * Shredding has to reach the disk, not only the table: `secure_delete` overwrites a deleted row's
 * bytes with zeros in the database file, and a TRUNCATE checkpoint right after the delete empties the
 * write-ahead log that still held the page with the key.
 */
export class SqliteKeyStore implements KeyStore {
  readonly kind = 'sqlite';
  private readonly db: Database.Database;

  private readonly checkpointAttempts: number;

  /** A busy checkpoint waits up to `busyTimeoutMs` (SQLite's busy handler), `checkpointAttempts` times. */
  constructor(file: string, options: { checkpointAttempts?: number; busyTimeoutMs?: number } = {}) {
    this.checkpointAttempts = options.checkpointAttempts ?? 5;
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma('secure_delete = ON');
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma(`busy_timeout = ${Math.floor(options.busyTimeoutMs ?? 5000)}`);
    this.db.exec('CREATE TABLE IF NOT EXISTS data_keys (key_id TEXT PRIMARY KEY, wrapped TEXT NOT NULL, created_at TEXT NOT NULL)');
  }

  async put(keyId: string, wrapped: Sealed): Promise<boolean> {
    checkId(keyId);
    const r = this.db.prepare('INSERT OR IGNORE INTO data_keys (key_id, wrapped, created_at) VALUES (?, ?, ?)').run(keyId, wrapped, new Date().toISOString());
    return r.changes === 1;
  }

  async get(keyId: string): Promise<Sealed | null> {
    if (!KEY_ID.test(keyId)) return null;
    const row = this.db.prepare('SELECT wrapped FROM data_keys WHERE key_id = ?').get(keyId) as { wrapped: string } | undefined;
    return row?.wrapped ?? null;
  }

  async destroy(keyId: string): Promise<boolean> {
    if (!KEY_ID.test(keyId)) return false;
    const r = this.db.prepare('DELETE FROM data_keys WHERE key_id = ?').run(keyId);
    // Move the change into the main file (zeroed by secure_delete) and empty the WAL.
    await this.truncateWal();
    return r.changes === 1;
  }

  /**
   * A TRUNCATE checkpoint answers busy (instead of failing) while a reader holds an older snapshot:
   * the WAL, with the deleted key's page in it, then stays. So a busy answer is retried, and if the
   * WAL still cannot be emptied the destroy fails (it is idempotent: the caller retries it).
   */
  private async truncateWal(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const [result] = this.db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number; log: number; checkpointed: number }[];
      if (!result || result.busy === 0) return;
      if (attempt >= this.checkpointAttempts) {
        throw new WalBusyError(`The key store's write-ahead log could not be emptied (busy ${attempt} times): the deleted key may still be on disk; retry the deletion`);
      }
      await new Promise((r) => setTimeout(r, Math.min(200, 10 * attempt)));
    }
  }

  async close(): Promise<void> {
    if (this.db.open) {
      try {
        await this.truncateWal();
      } finally {
        this.db.close();
      }
    }
  }
}

export class WalBusyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WalBusyError';
  }
}

function checkId(keyId: string) {
  if (!KEY_ID.test(keyId)) throw new Error('Bad key id');
}
