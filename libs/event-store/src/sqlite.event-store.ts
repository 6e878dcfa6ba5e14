import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { AppendOptions, AppendResult, EventStore, ExpectedRevision, NewEvent, ReadAllOptions, ReadStreamOptions, RecordedEvent, StreamNotFoundError, SubscribeOptions, Subscription, SubscriptionFilter, WrongExpectedVersionError, subscriptionOf } from './event-store.port';
import type { Fence } from './fence';
import { SqliteWriterThread, WireAppend, WireOutcome, makeAppender, outcomeToResult, toWireEvents } from './sqlite-append';
import { LiveReader, RawRow, SqliteTail, rawToRecorded, rowMatcher } from './sqlite-tail';

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
  /** The shared live read of the subscriptions at the head (sqlite-tail.ts). */
  private readonly tail: SqliteTail;
  private closed = false;
  private readonly stmts;
  private commitInline: ((batch: WireAppend[]) => WireOutcome[]) | null = null;
  private writer: SqliteWriterThread | null = null;
  private inFlight = false;
  private idle: (() => void)[] = [];
  private pending: PendingAppend[] = [];
  private flushScheduled = false;
  private readonly filteredReads = new Map<string, (from: number, to: number, limit: number) => RawRow[]>();

  /**
   * `synchronous` stays FULL in the product (durable before acknowledged);
   * benchmarks may seed data with OFF. `writerThread`: commits run on a worker thread (the product).
   */
  constructor(
    private readonly path: string,
    private readonly pollMs = 200,
    synchronous: 'FULL' | 'NORMAL' | 'OFF' = 'FULL',
    options: { writerThread?: boolean } = {},
  ) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
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
    this.stmts = {
      head: this.db.prepare<[string], { rev: number | null }>('SELECT max(revision) AS rev FROM events WHERE stream_id = ?'),
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
    this.tail = new SqliteTail((after, limit) => this.stmts.all.all(after, limit), pollMs);
    // Group commit: the appends of one event-loop turn share one transaction and one fsync (see
    // makeAppender), made here or, with `writerThread`, on the writer thread while this loop goes on.
    if (options.writerThread && path !== ':memory:') this.writer = new SqliteWriterThread(path, synchronous);
    else this.commitInline = makeAppender(this.db);
  }

  private flush = () => {
    this.flushScheduled = false;
    if (this.inFlight) return; // sent when the batch under way is committed
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    const wire: WireAppend[] = batch.map((p) => ({ streamId: p.streamId, events: toWireEvents(p.events), expected: p.expected, fence: p.fence }));
    if (!this.writer) {
      let outcomes: WireOutcome[];
      try {
        outcomes = this.commitInline!(wire);
      } catch (err) {
        for (const p of batch) p.reject(err as Error);
        return;
      }
      this.settle(batch, outcomes, wire);
      return;
    }
    this.inFlight = true;
    this.writer
      .commit(wire)
      .then(
        (outcomes) => this.settle(batch, outcomes, wire),
        (err: Error) => {
          for (const p of batch) p.reject(err);
        },
      )
      .finally(() => {
        this.inFlight = false;
        if (this.pending.length) this.flush();
        if (!this.inFlight) for (const idle of this.idle.splice(0)) idle();
      });
  };

  private settle(batch: PendingAppend[], outcomes: WireOutcome[], wire: WireAppend[]) {
    // the rows this batch wrote, as the table holds them (in position order: the appends commit in batch order)
    const written: RawRow[] = [];
    batch.forEach((p, i) => {
      const o = outcomes[i];
      const r = outcomeToResult(o);
      if (r instanceof Error) p.reject(r);
      else p.resolve(r);
      if (o.ok && o.created !== undefined) {
        const { streamId, events } = wire[i];
        const first = o.position - events.length + 1;
        const firstRevision = o.revision - events.length + 1;
        events.forEach((e, k) => written.push([first + k, e.id, streamId, firstRevision + k, e.type, e.data, e.metadata, o.created!]));
      }
    });
    if (written.length) this.tail.committed(written);
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision, options: AppendOptions = {}): Promise<AppendResult> {
    if (this.closed) throw new Error('Event store is closed');
    if (events.length === 0) {
      const rev = this.stmts.head.get(streamId)?.rev ?? null;
      return { nextExpectedRevision: rev === null ? -1n : BigInt(rev), position: await this.headPosition() };
    }
    return new Promise<AppendResult>((resolve, reject) => {
      this.pending.push({ streamId, events, expected, fence: options.fence ?? null, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(this.flush);
      }
    });
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const limit = options.maxCount ?? Number.MAX_SAFE_INTEGER;
    if (options.direction === 'backwards') {
      const rows = this.stmts.bwd.all(streamId, options.fromRevision === undefined ? Number.MAX_SAFE_INTEGER : Number(options.fromRevision), limit);
      if (rows.length === 0 && this.stmts.head.get(streamId)?.rev == null) throw new StreamNotFoundError(streamId);
      return rows.map(toRecorded);
    }
    // Forwards, the row before `fromRevision` is read too (and dropped): it proves that the stream exists
    // without a second query when nothing follows it (issue 16: a command on a cached aggregate reads from
    // its head + 1). Revisions start at 0 and have no gaps, so from 0 an empty read means no stream.
    const from = Number(options.fromRevision ?? 0n);
    const before = from > 0 ? 1 : 0;
    const rows = this.stmts.fwd.all(streamId, from - before, Math.min(limit + before, Number.MAX_SAFE_INTEGER));
    if (before && rows.length && rows[0].revision === from - 1) rows.shift();
    else if (rows.length === 0) {
      // from 0 with a count, no row means no stream; otherwise the head tells
      const exists = !before && limit > 0 ? false : this.stmts.head.get(streamId)?.rev != null;
      if (!exists) throw new StreamNotFoundError(streamId);
    }
    return rows.slice(0, limit).map(toRecorded);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const from = Number(options.fromPosition ?? 0n);
    const limit = options.maxCount ?? Number.MAX_SAFE_INTEGER;
    if (!options.filter?.streamPrefixes?.length && !options.filter?.eventTypes?.length && !options.partition) return this.stmts.all.all(from, limit).map(rawToRecorded);
    // filtered in SQL: rows of other streams and types are never parsed
    const key = JSON.stringify([options.filter, options.partition]);
    let read = this.filteredReads.get(key);
    if (!read) this.filteredReads.set(key, (read = this.filteredRead(options.filter, options.partition)));
    return read(from, Number.MAX_SAFE_INTEGER, limit).map(rawToRecorded);
  }

  /** The file (a rebuild's worker thread opens its own connection to it). */
  get file(): string {
    return this.path;
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
  private filteredRead(filter: SubscriptionFilter | undefined, partition?: ReadAllOptions['partition']): (from: number, to: number, limit: number) => RawRow[] {
    const prefixes = filter?.streamPrefixes?.length ? filter.streamPrefixes : [];
    const types = filter?.eventTypes?.length ? filter.eventTypes : [];
    const where = ['position > ?', 'position <= ?'];
    if (prefixes.length) where.push(`(${prefixes.map(() => 'substr(stream_id, 1, ?) = ?').join(' OR ')})`);
    if (types.length) where.push(`type IN (${types.map(() => '?').join(', ')})`);
    // streamPartition in SQL
    if (partition) where.push(`coalesce(unicode(substr(stream_id, -1)), 0) % ${Math.floor(partition.count)} = ${Math.floor(partition.index)}`);
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
    const read = this.filteredRead(options.filter);
    // at the head, the subscription is one of the tail's readers (sqlite-tail.ts): it waits for its queue
    const reader: LiveReader = { from: 0, matches: rowMatcher(options.filter), queue: [], taken: 0, detached: false, wake: () => wake?.() };
    let live = false;

    async function* iterate(): AsyncGenerator<RecordedEvent> {
      let from: number;
      if (options.fromPosition === 'end') from = Number(await store.headPosition());
      else if (options.fromPosition === 'start' || options.fromPosition === undefined) from = 0;
      else from = Number(options.fromPosition);
      let reported = -1;
      try {
        while (!stopped && !store.closed) {
          if (live) {
            // what the tail queued, in order; it may queue more while an event is out
            const queue = reader.queue;
            while (reader.taken < queue.length) {
              yield queue[reader.taken++];
              if (stopped) return;
              // a consumer that stays a little behind never empties its queue: drop what it has taken
              if (reader.taken >= BATCH) {
                queue.splice(0, reader.taken);
                reader.taken = 0;
              }
            }
            queue.length = 0;
            reader.taken = 0;
            if (reader.from > reported) options.onProgress?.(BigInt((reported = reader.from)));
            if (reader.detached) {
              // let go by the tail (its queue grew too long): reads by itself again from where it was
              live = false;
              from = reader.from;
              continue;
            }
            await new Promise<void>((resolve) => {
              wake = () => {
                wake = null;
                resolve();
              };
            });
            continue;
          }
          // Catch-up: a window of positions at a time, so that a filter matching little never scans the
          // whole log in one go; the event loop gets a turn between windows (catch-up never goes deaf).
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
          options.onProgress?.(BigInt((reported = from)));
          if (from >= head) {
            // at the head: the tail hands it what comes next
            reader.from = from;
            reader.queue = [];
            reader.taken = 0;
            live = store.tail.attach(reader);
          }
          if (!live) await new Promise<void>((resolve) => setImmediate(resolve));
        }
      } finally {
        store.tail.detach(reader);
      }
    }
    return subscriptionOf(iterate(), () => {
      stopped = true;
      wake?.();
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    // what was asked before the close is committed (or refused) before the writer stops
    while (this.inFlight || this.pending.length) {
      if (!this.inFlight) this.flush();
      else await new Promise<void>((resolve) => this.idle.push(resolve));
    }
    await this.writer?.close();
    this.tail.close();
    this.db.close();
  }
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
