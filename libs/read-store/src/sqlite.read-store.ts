import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { CollectionCommit, Doc, DocWrite, FindOptions, ReadStore, RebuildSession, StoredDoc, Where } from './read-store.port';

const NAME = /^[a-z][a-z0-9_]{0,40}$/;
const FIELD = /^[a-zA-Z_][a-zA-Z0-9_]{0,40}$/;
const TABLE_COLUMNS = '(id TEXT PRIMARY KEY, rev INTEGER NOT NULL, deleted INTEGER NOT NULL DEFAULT 0, doc TEXT)';

/** Embedded read store: one SQLite table per collection, JSON documents. */
export class SqliteReadStore implements ReadStore {
  readonly kind = 'sqlite';
  private readonly db: Database.Database;
  private readonly known = new Set<string>();
  private readonly stmtCache = new Map<string, Database.Statement>();

  constructor(file: string) {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL'); // rebuildable; doc and checkpoint commit together
    this.db.pragma('busy_timeout = 5000');
    this.db.exec('CREATE TABLE IF NOT EXISTS checkpoints (name TEXT PRIMARY KEY, position INTEGER NOT NULL)');
  }

  private table(collection: string): string {
    if (!NAME.test(collection)) throw new Error(`Bad collection name ${collection}`);
    if (!this.known.has(collection)) {
      this.db.exec(`CREATE TABLE IF NOT EXISTS "c_${collection}" ${TABLE_COLUMNS}`);
      this.known.add(collection);
    }
    return `"c_${collection}"`;
  }

  private indexes(collection: string, indexedFields: string[]): void {
    for (const f of indexedFields) {
      if (!FIELD.test(f)) throw new Error(`Bad field ${f}`);
      this.db.exec(`CREATE INDEX IF NOT EXISTS "i_${collection}_${f}" ON "c_${collection}" (json_extract(doc, '$.${f}')) WHERE deleted = 0`);
    }
  }

  private stmt(sql: string): Database.Statement {
    let s = this.stmtCache.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.stmtCache.set(sql, s);
    }
    return s;
  }

  async ensureCollection(collection: string, indexedFields: string[] = []): Promise<void> {
    this.table(collection);
    this.indexes(collection, indexedFields);
  }

  async get<D extends Doc>(collection: string, id: string): Promise<D | null> {
    const row = this.stmt(`SELECT doc FROM ${this.table(collection)} WHERE id = ? AND deleted = 0`).get(id) as { doc: string } | undefined;
    return row ? (JSON.parse(row.doc) as D) : null;
  }

  async getMany<D extends Doc>(collection: string, ids: string[]): Promise<Map<string, StoredDoc<D>>> {
    return this.getManySync<D>(collection, ids);
  }

  private getManySync<D extends Doc>(collection: string, ids: string[], table = this.table(collection)): Map<string, StoredDoc<D>> {
    const out = new Map<string, StoredDoc<D>>();
    const s = this.stmt(`SELECT id, rev, deleted, doc FROM ${table} WHERE id = ?`);
    for (const id of ids) {
      const row = s.get(id) as { id: string; rev: number; deleted: number; doc: string | null } | undefined;
      if (row) out.set(id, { rev: row.rev, doc: row.deleted || row.doc === null ? null : (JSON.parse(row.doc) as D) });
    }
    return out;
  }

  private whereSql(where: Where): { sql: string; params: unknown[] } {
    const parts = ['deleted = 0'];
    const params: unknown[] = [];
    for (const [field, value] of Object.entries(where)) {
      if (!FIELD.test(field)) throw new Error(`Bad field ${field}`);
      if (value === null) parts.push(`json_extract(doc, '$.${field}') IS NULL`);
      else {
        parts.push(`json_extract(doc, '$.${field}') = ?`);
        params.push(typeof value === 'boolean' ? (value ? 1 : 0) : value);
      }
    }
    return { sql: parts.join(' AND '), params };
  }

  async find<D extends Doc>(collection: string, where: Where, options: FindOptions = {}): Promise<D[]> {
    const { sql, params } = this.whereSql(where);
    let q = `SELECT doc FROM ${this.table(collection)} WHERE ${sql}`;
    if (options.orderBy) {
      if (!FIELD.test(options.orderBy.field)) throw new Error('Bad order field');
      q += ` ORDER BY json_extract(doc, '$.${options.orderBy.field}') ${options.orderBy.direction === 'desc' ? 'DESC' : 'ASC'}, id`;
    } else q += ' ORDER BY rowid';
    const limit = options.limit === undefined ? -1 : Math.max(0, Math.floor(options.limit));
    q += ` LIMIT ${limit} OFFSET ${Math.max(0, Math.floor(options.offset ?? 0))}`;
    return (this.stmt(q).all(...params) as { doc: string }[]).map((r) => JSON.parse(r.doc) as D);
  }

  async count(collection: string, where: Where): Promise<number> {
    const { sql, params } = this.whereSql(where);
    return (this.stmt(`SELECT count(*) AS n FROM ${this.table(collection)} WHERE ${sql}`).get(...params) as { n: number }).n;
  }

  async commit(collection: string, writes: DocWrite<any>[], checkpoint: { name: string; position: bigint }): Promise<string[]> {
    let written: string[] = [];
    this.db.transaction(() => {
      written = this.commitSync({ collection, writes, checkpoint });
    })();
    return written;
  }

  async commitMany(commits: CollectionCommit[]): Promise<void> {
    this.db.transaction(() => {
      for (const c of commits) this.commitSync(c);
    })();
  }

  private commitSync({ collection, writes, checkpoint }: CollectionCommit): string[] {
    const t = this.table(collection);
    const upsert = this.stmt(
      `INSERT INTO ${t} (id, rev, deleted, doc) VALUES (@id, @rev, @deleted, @doc)
       ON CONFLICT(id) DO UPDATE SET rev = excluded.rev, deleted = excluded.deleted, doc = excluded.doc WHERE excluded.rev > rev`,
    );
    const cp = this.stmt(
      'INSERT INTO checkpoints (name, position) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET position = excluded.position WHERE excluded.position > position',
    );
    const written: string[] = [];
    for (const w of writes) {
      const info = upsert.run({ id: w.id, rev: w.rev, deleted: w.doc ? 0 : 1, doc: w.doc ? JSON.stringify(w.doc) : null });
      if (info.changes > 0) written.push(w.id);
    }
    cp.run(checkpoint.name, Number(checkpoint.position));
    return written;
  }

  async getCheckpoint(name: string): Promise<bigint | null> {
    const row = this.stmt('SELECT position FROM checkpoints WHERE name = ?').get(name) as { position: number } | undefined;
    return row ? BigInt(row.position) : null;
  }

  async reset(collections: string[], checkpoints: string[]): Promise<void> {
    this.db.transaction(() => {
      for (const c of collections) this.db.exec(`DELETE FROM ${this.table(c)}`);
      for (const name of checkpoints) this.stmt('DELETE FROM checkpoints WHERE name = ?').run(name);
    })();
  }

  /**
   * The fresh copies are tables `r_<collection>` in the same file, written in large transactions and
   * renamed over the served tables in one transaction with the checkpoints (indexes built then, once).
   * A crash before that leaves the old read model and its checkpoints as they were; the leftover
   * copies are dropped by the next rebuild.
   */
  async beginRebuild(collections: { collection: string; indexes?: string[] }[]): Promise<RebuildSession> {
    const fresh = new Map<string, string>();
    for (const { collection, indexes } of collections) {
      if (!NAME.test(collection)) throw new Error(`Bad collection name ${collection}`);
      for (const f of indexes ?? []) if (!FIELD.test(f)) throw new Error(`Bad field ${f}`);
      const t = `"r_${collection}"`;
      this.db.exec(`DROP TABLE IF EXISTS ${t}; CREATE TABLE ${t} ${TABLE_COLUMNS}`);
      fresh.set(collection, t);
    }
    // No checkpoints while the fresh copies are written (each would copy pages and sync the file): one at
    // the end instead, the setting restored (measured: the writes took half the time).
    const autoCheckpoint = Number(this.db.pragma('wal_autocheckpoint', { simple: true }));
    this.db.pragma('wal_autocheckpoint = 0');
    const restore = () => {
      this.db.pragma(`wal_autocheckpoint = ${autoCheckpoint}`);
      this.db.pragma('wal_checkpoint(PASSIVE)');
    };
    const tableOf = (collection: string) => {
      const t = fresh.get(collection);
      if (!t) throw new Error(`${collection} is not being rebuilt`);
      return t;
    };
    return {
      getMany: async <D extends Doc>(collection: string, ids: string[]) => this.getManySync<D>(collection, ids, tableOf(collection)),
      write: async (commits) => {
        this.db.transaction(() => {
          for (const c of commits) {
            // rowid = the position of the document's first event: the order incremental projection inserts them in
            const t = tableOf(c.collection);
            const upsert = this.stmt(
              `INSERT INTO ${t} (rowid, id, rev, deleted, doc) VALUES (?, ?, ?, ?, ?)
               ON CONFLICT(id) DO UPDATE SET rev = excluded.rev, deleted = excluded.deleted, doc = excluded.doc WHERE excluded.rev > rev`,
            );
            for (const w of c.writes) {
              const json = w.json !== undefined ? w.json : w.doc ? JSON.stringify(w.doc) : null;
              // positional parameters: measured, binding an object per row took a third of the write (issue 16)
              upsert.run(w.first ?? null, w.id, w.rev, json === null ? 1 : 0, json);
            }
          }
        })();
      },
      complete: async (checkpoints) => {
        this.db.transaction(() => {
          for (const { collection, indexes } of collections) {
            this.db.exec(`DROP TABLE IF EXISTS "c_${collection}"; ALTER TABLE ${tableOf(collection)} RENAME TO "c_${collection}"`);
            this.known.add(collection);
            this.indexes(collection, indexes ?? []);
          }
          const cp = this.db.prepare('INSERT INTO checkpoints (name, position) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET position = excluded.position');
          for (const c of checkpoints) cp.run(c.name, Number(c.position));
        })();
        fresh.clear();
        this.stmtCache.clear(); // statements on the replaced tables are prepared again
        restore();
      },
      abandon: async () => {
        for (const t of fresh.values()) this.db.exec(`DROP TABLE IF EXISTS ${t}`);
        restore();
        fresh.clear();
        this.stmtCache.clear();
      },
    };
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
