import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { MongoCollectionStore } from '../mongo.collection-store';

/**
 * The venues' own counters, one figure per venue for the whole install (issue 39), beside the per-user
 * buckets (rate-limit.port.ts): every runner reads and writes it before its calls to the venue, so a
 * 429/418 one runner meets stops the others' calls too, and the operators' health and metrics show the
 * install's use. The figure's shape and how two views merge belong to the exchanges context
 * (libs/exchanges venue-budget.ts `mergeBudgets`): here, one atomic read-modify-write per venue.
 */
export interface VenueFigureStore {
  readonly kind: string;
  /** Atomically replaces the venue's figure with `fn(current)` and returns it. */
  update<T>(venue: string, fn: (current: T | undefined) => T): Promise<T>;
  /** The figure under `key` (a venue's budget, or an account's order counts: `orders:<venue>:<user>`). */
  get<T>(key: string): Promise<T | undefined>;
  all<T>(): Promise<Array<{ venue: string; figure: T }>>;
  close(): Promise<void>;
}

/** On one host: the limits file every process opens (WAL, busy timeout), one IMMEDIATE transaction per update. */
export class SqliteVenueFigureStore implements VenueFigureStore {
  readonly kind = 'sqlite';
  private readonly db: Database.Database;
  private readonly getRow: Database.Statement<[string], { figure: string }>;
  private readonly put: Database.Statement<[string, string]>;

  constructor(file: string) {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL'); // a figure lost in a power cut is re-read from the venue's next answer
    this.db.pragma('busy_timeout = 5000');
    this.db.exec('CREATE TABLE IF NOT EXISTS venue_budgets (venue TEXT PRIMARY KEY, figure TEXT NOT NULL)');
    this.getRow = this.db.prepare<[string], { figure: string }>('SELECT figure FROM venue_budgets WHERE venue = ?');
    this.put = this.db.prepare<[string, string]>('INSERT INTO venue_budgets (venue, figure) VALUES (?, ?) ON CONFLICT(venue) DO UPDATE SET figure = excluded.figure');
  }

  async update<T>(venue: string, fn: (current: T | undefined) => T): Promise<T> {
    const tx = this.db.transaction(() => {
      const row = this.getRow.get(venue);
      const next = fn(row ? (JSON.parse(row.figure) as T) : undefined);
      this.put.run(venue, JSON.stringify(next));
      return next;
    });
    return tx.immediate();
  }

  async get<T>(key: string): Promise<T | undefined> {
    const row = this.getRow.get(key);
    return row ? (JSON.parse(row.figure) as T) : undefined;
  }

  async all<T>(): Promise<Array<{ venue: string; figure: T }>> {
    return this.db
      .prepare<[], { venue: string; figure: string }>('SELECT venue, figure FROM venue_budgets ORDER BY venue')
      .all()
      .map((r) => ({ venue: r.venue, figure: JSON.parse(r.figure) as T }));
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}

/** A venue's figure under its version. */
type FigureDoc = { _id: string; figure: unknown; v: number };

/** Across hosts: one document per venue, updated under its version (compare-and-set, retried on a race). */
export class MongoVenueFigureStore extends MongoCollectionStore<FigureDoc> implements VenueFigureStore {
  constructor(url: string, dbName = 'gridrocket') {
    super(url, dbName, 'venue_budgets');
  }

  async update<T>(venue: string, fn: (current: T | undefined) => T): Promise<T> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const doc = await this.col.findOne({ _id: venue });
      const next = fn(doc ? (doc.figure as T) : undefined);
      if (!doc) {
        try {
          await this.col.insertOne({ _id: venue, figure: next, v: 1 });
          return next;
        } catch (err) {
          if ((err as { code?: number }).code === 11000) continue; // another runner wrote it first
          throw err;
        }
      }
      const done = await this.col.updateOne({ _id: venue, v: doc.v }, { $set: { figure: next, v: doc.v + 1 } });
      if (done.modifiedCount === 1) return next;
    }
    throw new Error(`venue figure ${venue}: too many concurrent updates`);
  }

  async get<T>(key: string): Promise<T | undefined> {
    const doc = await this.col.findOne({ _id: key });
    return doc ? (doc.figure as T) : undefined;
  }

  async all<T>(): Promise<Array<{ venue: string; figure: T }>> {
    const docs = await this.col.find({}).sort({ _id: 1 }).toArray();
    return docs.map((d) => ({ venue: d._id, figure: d.figure as T }));
  }
}
