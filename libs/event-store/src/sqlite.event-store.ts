import Database from 'better-sqlite3';
import { EventEmitter } from 'node:events';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  AppendResult,
  EventStore,
  ExpectedRevision,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  StreamNotFoundError,
  SubscribeOptions,
  Subscription,
  SubscriptionFilter,
  WrongExpectedVersionError,
} from './event-store.port';
import { Fence, FencedError, currentFence } from './fence';

interface Row {
  position: number;
  id: string;
  stream_id: string;
  revision: number;
  type: string;
  data: string;
  metadata: string;
  created: string;
}

const BATCH = 1000;
/** Positions one subscription query looks at, at most (a filter that matches little scans this many rows). */
const SCAN_WINDOW = 50_000;

interface PendingAppend {
  streamId: string;
  events: NewEvent[];
  expected: ExpectedRevision;
  fence: Fence | null;
  resolve(result: AppendResult): void;
  reject(err: Error): void;
  result?: AppendResult;
  error?: Error;
}

/**
 * Embedded event store on a SQLite file (WAL, synchronous=FULL): an append is
 * on disk before the promise resolves, so an acknowledged event survives a
 * kill -9. Appends made in the same event-loop turn are committed together
 * (group commit: one fsync for many appends). Several processes may share the file (WAL + busy timeout); live
 * subscribers are woken at once by appends from this process and by a short
 * poll for appends from others.
 */
export class SqliteEventStore implements EventStore {
  readonly kind = 'sqlite';
  private readonly db: Database.Database;
  private readonly appended = new EventEmitter();
  private closed = false;
  private readonly stmts;
  private readonly commitBatch: (batch: PendingAppend[]) => void;
  private pending: PendingAppend[] = [];
  private flushScheduled = false;

  /**
   * `synchronous` stays FULL in the product (durable before acknowledged);
   * benchmarks may seed data with OFF.
   */
  constructor(file: string, private readonly pollMs = 200, synchronous: 'FULL' | 'NORMAL' | 'OFF' = 'FULL') {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma(`synchronous = ${synchronous}`);
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS events (
        position  INTEGER PRIMARY KEY AUTOINCREMENT,
        id        TEXT NOT NULL UNIQUE,
        stream_id TEXT NOT NULL,
        revision  INTEGER NOT NULL,
        type      TEXT NOT NULL,
        data      TEXT NOT NULL,
        metadata  TEXT NOT NULL,
        created   TEXT NOT NULL,
        UNIQUE (stream_id, revision)
      );`);
    this.appended.setMaxListeners(0);
    this.stmts = {
      head: this.db.prepare<[string], { rev: number | null }>('SELECT max(revision) AS rev FROM events WHERE stream_id = ?'),
      insert: this.db.prepare(
        'INSERT INTO events (id, stream_id, revision, type, data, metadata, created) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      byId: this.db.prepare<[string], Row>('SELECT * FROM events WHERE id = ?'),
      fwd: this.db.prepare<[string, number, number], Row>(
        'SELECT * FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision ASC LIMIT ?',
      ),
      bwd: this.db.prepare<[string, number, number], Row>(
        'SELECT * FROM events WHERE stream_id = ? AND revision <= ? ORDER BY revision DESC LIMIT ?',
      ),
      // raw rows (arrays) are markedly cheaper than objects when scanning the whole log
      all: this.db
        .prepare<[number, number], RawRow>(
          'SELECT position, id, stream_id, revision, type, data, metadata, created FROM events WHERE position > ? ORDER BY position ASC LIMIT ?',
        )
        .raw(true),
      maxPos: this.db.prepare<[], { pos: number | null }>('SELECT max(position) AS pos FROM events'),
    };
    // Group commit: the appends of one event-loop turn share one transaction and
    // one fsync; each runs in its own savepoint, so a conflict undoes only itself.
    const one = this.db.transaction(this.appendTx);
    const all = this.db.transaction((batch: PendingAppend[]) => {
      for (const p of batch) {
        try {
          p.result = one(p.streamId, p.events, p.expected, p.fence);
        } catch (err) {
          p.error = err as Error;
        }
      }
    });
    this.commitBatch = (batch) => all.immediate(batch);
  }

  private flush = () => {
    this.flushScheduled = false;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    try {
      this.commitBatch(batch);
    } catch (err) {
      for (const p of batch) p.reject(err as Error);
      return;
    }
    let last = 0n;
    for (const p of batch) {
      if (p.error) p.reject(p.error);
      else {
        p.resolve(p.result!);
        if (p.result!.position > last) last = p.result!.position;
      }
    }
    if (last > 0n) this.appended.emit('append', last);
  };

  private readonly appendTx = (streamId: string, events: NewEvent[], expected: ExpectedRevision, fence: Fence | null = null): AppendResult => {
    if (fence) {
      // checked in the append's own transaction: no other writer can move the fence in between
      const at = this.stmts.head.get(fence.streamId)?.rev ?? null;
      if (at === null || BigInt(at) !== fence.revision) throw new FencedError(fence, at === null ? 'no_stream' : BigInt(at));
    }
    const headRow = this.stmts.head.get(streamId);
    const current = headRow?.rev ?? null;

    // Idempotent re-append: the same event ids already stored, in order, in this stream.
    const first = events.length ? this.stmts.byId.get(events[0].id) : undefined;
    if (first) {
      const rows = events.map((e) => this.stmts.byId.get(e.id));
      const sameRun = rows.every(
        (r, i) => r && r.stream_id === streamId && r.revision === first.revision + i,
      );
      if (sameRun && first.stream_id === streamId) {
        const last = rows[rows.length - 1]!;
        return { nextExpectedRevision: BigInt(last.revision), position: BigInt(last.position) };
      }
      throw new WrongExpectedVersionError(streamId, expected, current === null ? 'no_stream' : BigInt(current));
    }

    if (expected === 'no_stream' && current !== null) {
      throw new WrongExpectedVersionError(streamId, expected, BigInt(current));
    }
    if (expected === 'stream_exists' && current === null) {
      throw new WrongExpectedVersionError(streamId, expected, 'no_stream');
    }
    if (typeof expected === 'bigint' && (current === null || BigInt(current) !== expected)) {
      throw new WrongExpectedVersionError(streamId, expected, current === null ? 'no_stream' : BigInt(current));
    }
    let revision = current === null ? 0 : current + 1;
    let position = 0;
    const created = new Date().toISOString();
    for (const e of events) {
      const info = this.stmts.insert.run(
        e.id,
        streamId,
        revision,
        e.type,
        JSON.stringify(e.data),
        JSON.stringify(e.metadata),
        created,
      );
      position = Number(info.lastInsertRowid);
      revision++;
    }
    return { nextExpectedRevision: BigInt(revision - 1), position: BigInt(position) };
  };

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (this.closed) throw new Error('Event store is closed');
    if (events.length === 0) {
      const rev = this.stmts.head.get(streamId)?.rev ?? null;
      return { nextExpectedRevision: rev === null ? -1n : BigInt(rev), position: await this.headPosition() };
    }
    return new Promise<AppendResult>((resolve, reject) => {
      this.pending.push({ streamId, events, expected, fence: currentFence(), resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(this.flush);
      }
    });
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const limit = options.maxCount ?? Number.MAX_SAFE_INTEGER;
    const rows =
      options.direction === 'backwards'
        ? this.stmts.bwd.all(streamId, options.fromRevision === undefined ? Number.MAX_SAFE_INTEGER : Number(options.fromRevision), limit)
        : this.stmts.fwd.all(streamId, Number(options.fromRevision ?? 0n), limit);
    if (rows.length === 0 && this.stmts.head.get(streamId)?.rev == null) throw new StreamNotFoundError(streamId);
    return rows.map(toRecorded);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    return this.stmts.all.all(Number(options.fromPosition ?? 0n), options.maxCount ?? Number.MAX_SAFE_INTEGER).map(rawToRecorded);
  }

  /** Synchronous batch read, for projections that rebuild in bulk. */
  readAllBatch(fromPosition: bigint, maxCount: number): RecordedEvent[] {
    return this.stmts.all.all(Number(fromPosition), maxCount).map(rawToRecorded);
  }

  async headPosition(): Promise<bigint> {
    return BigInt(this.stmts.maxPos.get()?.pos ?? 0);
  }

  /**
   * The filter's rows from positions (from, to], in SQL: rows of other streams and types are never
   * parsed (issue 16: each reactor parses only its events).
   */
  private filteredRead(filter: SubscriptionFilter | undefined): (from: number, to: number, limit: number) => RawRow[] {
    const prefixes = filter?.streamPrefixes?.length ? filter.streamPrefixes : [];
    const types = filter?.eventTypes?.length ? filter.eventTypes : [];
    const where = ['position > ?', 'position <= ?'];
    if (prefixes.length) where.push(`(${prefixes.map(() => 'substr(stream_id, 1, ?) = ?').join(' OR ')})`);
    if (types.length) where.push(`type IN (${types.map(() => '?').join(', ')})`);
    const stmt = this.db
      .prepare<unknown[], RawRow>(
        `SELECT position, id, stream_id, revision, type, data, metadata, created FROM events WHERE ${where.join(' AND ')} ORDER BY position ASC LIMIT ?`,
      )
      .raw(true);
    const params: unknown[] = [];
    for (const p of prefixes) params.push(p.length, p);
    params.push(...types);
    return (from, to, limit) => stmt.all(from, to, ...params, limit);
  }

  subscribeToAll(options: SubscribeOptions = {}): Subscription {
    const store = this;
    let stopped = false;
    let wake: (() => void) | null = null;
    const onAppend = () => wake?.();
    this.appended.on('append', onAppend);
    const closeSignal = () => wake?.();
    this.appended.on('close', closeSignal);
    const read = this.filteredRead(options.filter);

    async function* iterate(): AsyncGenerator<RecordedEvent> {
      let from: number;
      if (options.fromPosition === 'end') from = Number(await store.headPosition());
      else if (options.fromPosition === 'start' || options.fromPosition === undefined) from = 0;
      else from = Number(options.fromPosition);
      try {
        while (!stopped && !store.closed) {
          // A window of positions at a time, so that a filter matching little never scans the whole
          // log in one go; the event loop gets a turn between windows (catch-up never goes deaf).
          const head = store.stmts.maxPos.get()?.pos ?? 0;
          const to = Math.min(head, from + SCAN_WINDOW);
          const rows = to > from ? read(from, to, BATCH) : [];
          for (const row of rows) {
            const event = rawToRecorded(row);
            yield event;
            if (stopped) return;
          }
          from = rows.length === BATCH ? rows[rows.length - 1][0] : to;
          if (stopped) return;
          options.onProgress?.(BigInt(from));
          if (from < head) {
            await new Promise<void>((resolve) => setImmediate(resolve));
            continue;
          }
          await new Promise<void>((resolve) => {
            const timer = setTimeout(done, store.pollMs);
            function done() {
              clearTimeout(timer);
              wake = null;
              resolve();
            }
            wake = done;
          });
        }
      } finally {
        store.appended.off('append', onAppend);
        store.appended.off('close', closeSignal);
      }
    }
    const gen = iterate();
    return {
      [Symbol.asyncIterator]: () => gen,
      async close() {
        stopped = true;
        wake?.();
        await gen.return(undefined);
      },
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    this.appended.emit('close');
    this.db.close();
  }
}

type RawRow = [number, string, string, number, string, string, string, string];

function rawToRecorded(r: RawRow): RecordedEvent {
  return {
    id: r[1],
    streamId: r[2],
    revision: BigInt(r[3]),
    position: BigInt(r[0]),
    type: r[4],
    data: JSON.parse(r[5]),
    metadata: JSON.parse(r[6]),
    created: r[7],
  };
}

function toRecorded(row: Row): RecordedEvent {
  return {
    id: row.id,
    streamId: row.stream_id,
    revision: BigInt(row.revision),
    position: BigInt(row.position),
    type: row.type,
    data: JSON.parse(row.data),
    metadata: JSON.parse(row.metadata),
    created: row.created,
  };
}
