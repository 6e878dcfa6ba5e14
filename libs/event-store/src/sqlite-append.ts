import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import type { Fence } from './fence';
import { FencedError } from './fence';
import { AppendResult, ExpectedRevision, NewEvent, WrongExpectedVersionError } from './event-store.port';

export function toWireEvents(events: NewEvent[]): WireEvent[] {
  return events.map((e) => ({ id: e.id, type: e.type, data: JSON.stringify(e.data), metadata: JSON.stringify(e.metadata) }));
}

/** An event with its data and metadata already JSON: cheap to send to the writer thread (a string clones fast). */
export interface WireEvent {
  id: string;
  type: string;
  data: string;
  metadata: string;
}

/** One append as the committing code sees it (also sent to the writer thread: structured-clonable). */
export interface WireAppend {
  streamId: string;
  events: WireEvent[];
  expected: ExpectedRevision;
  fence: Fence | null;
}

export type WireOutcome =
  /** `created`: only when this append wrote its events (not when it was an idempotent re-append). */
  | { ok: true; revision: number; position: number; created?: string }
  | { ok: false; kind: 'wrong'; streamId: string; expected: ExpectedRevision; actual: bigint | 'no_stream' }
  | { ok: false; kind: 'fenced'; fence: Fence; actual: bigint | 'no_stream' }
  | { ok: false; kind: 'other'; message: string };

/**
 * The event store's write transaction: group commit of many appends in one transaction (one fsync),
 * each in its own savepoint so a conflict undoes only itself; expected revision, fence and
 * idempotent re-append checked inside. Self-contained on purpose (no imports, no outer names): its
 * source is also what the writer thread runs.
 */
export function makeAppender(db: Database.Database): (batch: WireAppend[]) => WireOutcome[] {
  const head = db.prepare('SELECT max(revision) AS rev FROM events WHERE stream_id = ?');
  const insert = db.prepare('INSERT INTO events (id, stream_id, revision, type, data, metadata, created) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const byId = db.prepare('SELECT * FROM events WHERE id = ?');
  type Row = { position: number; stream_id: string; revision: number };
  const refuse = (outcome: WireOutcome) => {
    throw { outcome };
  };
  const appendOne = (p: WireAppend): WireOutcome => {
    const { streamId, events, expected, fence } = p;
    if (fence) {
      // checked in the append's own transaction: no other writer can move the fence in between
      const at = (head.get(fence.streamId) as { rev: number | null } | undefined)?.rev ?? null;
      if (at === null || BigInt(at) !== fence.revision) refuse({ ok: false, kind: 'fenced', fence, actual: at === null ? 'no_stream' : BigInt(at) });
    }
    const current = (head.get(streamId) as { rev: number | null } | undefined)?.rev ?? null;
    const actual = current === null ? 'no_stream' : BigInt(current);
    // Idempotent re-append: the same event ids already stored, in order, in this stream.
    const first = events.length ? (byId.get(events[0].id) as Row | undefined) : undefined;
    if (first) {
      const rows = events.map((e) => byId.get(e.id) as Row | undefined);
      const sameRun = rows.every((r, i) => r && r.stream_id === streamId && r.revision === first.revision + i);
      if (sameRun && first.stream_id === streamId) {
        const last = rows[rows.length - 1]!;
        return { ok: true, revision: last.revision, position: last.position };
      }
      refuse({ ok: false, kind: 'wrong', streamId, expected, actual });
    }
    if (expected === 'no_stream' && current !== null) refuse({ ok: false, kind: 'wrong', streamId, expected, actual });
    if (expected === 'stream_exists' && current === null) refuse({ ok: false, kind: 'wrong', streamId, expected, actual });
    if (typeof expected === 'bigint' && (current === null || BigInt(current) !== expected)) refuse({ ok: false, kind: 'wrong', streamId, expected, actual });
    let revision = current === null ? 0 : current + 1;
    let position = 0;
    const created = new Date().toISOString();
    for (const e of events) {
      const info = insert.run(e.id, streamId, revision, e.type, e.data, e.metadata, created);
      position = Number(info.lastInsertRowid);
      revision++;
    }
    return { ok: true, revision: revision - 1, position, created };
  };
  const one = db.transaction(appendOne);
  const all = db.transaction((batch: WireAppend[]) =>
    batch.map((p): WireOutcome => {
      try {
        return one(p);
      } catch (err) {
        const refused = (err as { outcome?: WireOutcome } | null)?.outcome;
        return refused ?? { ok: false, kind: 'other', message: String((err as Error)?.message ?? err) };
      }
    }),
  );
  return (batch) => all.immediate(batch);
}

export function outcomeToResult(o: WireOutcome): AppendResult | Error {
  if (o.ok) return { nextExpectedRevision: BigInt(o.revision), position: BigInt(o.position) };
  if (o.kind === 'wrong') return new WrongExpectedVersionError(o.streamId, o.expected, o.actual);
  if (o.kind === 'fenced') return new FencedError(o.fence, o.actual);
  return new Error(o.message);
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = ' + workerData.synchronous);
db.pragma('busy_timeout = 5000');
// WAL checkpoints run on the checkpointer thread, not in this thread's commits (SqliteWriterThread)
if (workerData.checkpointElsewhere) db.pragma('wal_autocheckpoint = 0');
const makeAppender = (${makeAppender.toString()});
const commit = makeAppender(db);
parentPort.on('message', (m) => {
  if (m.close) { db.close(); parentPort.close(); return; }
  if (m.autocheckpoint) { db.pragma('wal_autocheckpoint = 1000'); return; }
  try { parentPort.postMessage({ id: m.id, outcomes: commit(m.batch) }); }
  catch (e) { parentPort.postMessage({ id: m.id, error: String((e && e.message) || e) }); }
});
`;

/**
 * WAL checkpoints on a thread of their own (issue 16): SQLite otherwise runs a checkpoint inside the
 * commit that crosses 1,000 WAL pages, copying pages back and syncing the database file while the
 * appends of that batch (and every reaction waiting on them) wait; in the fleet bench that was one
 * commit in three, at 3× a commit's time. A PASSIVE checkpoint never blocks the writer and changes
 * nothing about durability (the WAL holds every commit until it is copied back).
 */
const CHECKPOINT_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 1000');
const timer = setInterval(() => { try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {} }, workerData.everyMs);
parentPort.on('message', () => { clearInterval(timer); db.close(); parentPort.close(); });
`;

/** How often the checkpointer thread copies the WAL back (ms). */
const CHECKPOINT_EVERY_MS = 200;

/**
 * The event store's writer on its own thread (issue 16): the transaction, the JSON encoding and the
 * fsync run there, so the event loop serves requests meanwhile and the second core does the writing.
 * Acknowledged only after the commit returned (synchronous=FULL): as durable as inline.
 *
 * If the thread dies (an uncaught error, resources exhausted), the commits it had under way fail (they
 * may or may not be on disk: a retry with the same event ids is recognised as the same append) and
 * the next commit starts a new thread: a dead writer never leaves the store unable to write. A thread
 * that dies on start (the file cannot be opened) is retried at most once a second.
 */
export class SqliteWriterThread {
  private worker: Worker | null = null;
  private next = 1;
  private readonly waiting = new Map<number, { resolve(o: WireOutcome[]): void; reject(err: Error): void }>();
  private closing = false;
  private lastSpawn = 0;
  private lastFailure: Error | null = null;
  /** The last thread died before it committed anything (e.g. the file cannot be opened). */
  private diedOnStart = false;
  /** How many writer threads were started (1 unless one died). */
  spawned = 0;

  /** Runs the WAL checkpoints (null if it could not run: the writer then checkpoints in its commits, as SQLite does by default). */
  private checkpointer: Worker | null = null;

  constructor(
    private readonly file: string,
    private readonly synchronous: string,
  ) {
    this.startCheckpointer();
    this.spawn();
  }

  private startCheckpointer(): void {
    const checkpointer = new Worker(CHECKPOINT_SOURCE, { eval: true, workerData: { file: this.file, driver: require.resolve('better-sqlite3'), everyMs: CHECKPOINT_EVERY_MS } });
    checkpointer.unref();
    this.checkpointer = checkpointer;
    // without it (it could not open the file, or stopped): the writer checkpoints in its commits again
    const fallBack = () => {
      if (this.checkpointer !== checkpointer) return;
      this.checkpointer = null;
      this.worker?.postMessage({ autocheckpoint: true });
    };
    checkpointer.on('error', fallBack);
    checkpointer.on('exit', fallBack);
  }

  private spawn(): Worker {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { file: this.file, synchronous: this.synchronous, driver: require.resolve('better-sqlite3'), checkpointElsewhere: this.checkpointer !== null },
    });
    this.spawned++;
    this.lastSpawn = Date.now();
    worker.unref(); // referenced only while a commit is under way
    let served = false;
    worker.on('message', (m: { id: number; outcomes?: WireOutcome[]; error?: string }) => {
      served = true;
      const w = this.waiting.get(m.id);
      if (!w) return;
      this.waiting.delete(m.id);
      if (this.waiting.size === 0) worker.unref();
      if (m.error !== undefined) w.reject(new Error(m.error));
      else w.resolve(m.outcomes!);
    });
    let failed = false;
    const fail = (err: Error) => {
      if (failed) return;
      failed = true;
      if (this.worker === worker) this.worker = null;
      if (!this.closing) this.lastFailure = err;
      this.diedOnStart = !served;
      for (const w of this.waiting.values()) w.reject(err);
      this.waiting.clear();
    };
    worker.on('error', (err) => fail(new Error(`Event store writer failed: ${err.message}`)));
    worker.on('exit', () => fail(new Error('Event store writer stopped')));
    this.worker = worker;
    return worker;
  }

  commit(batch: WireAppend[]): Promise<WireOutcome[]> {
    if (this.closing) return Promise.reject(new Error('Event store is closed'));
    let worker = this.worker;
    if (!worker) {
      if (this.diedOnStart && Date.now() - this.lastSpawn < 1000) return Promise.reject(this.lastFailure ?? new Error('Event store writer stopped'));
      worker = this.spawn();
    }
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, batch });
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    const checkpointer = this.checkpointer;
    this.checkpointer = null;
    if (checkpointer) {
      const stopped = new Promise<void>((resolve) => checkpointer.once('exit', () => resolve()));
      checkpointer.ref(); // the process waits for it
      checkpointer.postMessage('close');
      await stopped;
    }
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.ref();
    worker.postMessage({ close: true });
    await exited;
  }
}
