import { EventEmitter } from 'node:events';
import type { EventStore, RecordedEvent, Subscription } from '@gridrocket/event-store';
import { matchesFilter, resubscribing } from '@gridrocket/event-store';
import { ConsumerHealth, ConsumerStatus, ReportsStatus, Sleeper, batchBackoff } from './consumer-health';
import type { Projection } from './projection';
import { CollectionCommit, Doc, DocWrite, ReadStore, RebuildSession } from './read-store.port';
import { RebuildWindow, foldLog, foldOnWorker, loadableInWorker, unionFilter } from './rebuild-fold';

export type { Projection } from './projection';


export interface AppliedChange<D extends Doc = Doc> {
  projection: string;
  event: RecordedEvent;
  id: string;
  before: D | null;
  after: D | null;
}

const BATCH = 1000;
/**
 * Events a rebuild reads at a time, and documents it folds in memory before writing them out (measured
 * on 1M events: smaller read windows keep fewer objects alive across young-generation collections);
 * the worker threads write the documents a window left unchanged early, 10,000 at a time (measured on
 * 1M events: after the last worker, 60 ms of writes were left instead of 230-400 ms).
 */
export const REBUILD_WINDOW: RebuildWindow = { events: 2_000, docs: 100_000, threads: 2, early: 10_000 };

/**
 * Runs projections from one checkpointed catch-up subscription. Each projection
 * commits its documents and its checkpoint together, per batch; after a commit
 * the applied changes are announced (the socket gateway pushes them), and
 * `waitFor(position)` resolves for callers that want to read their own writes.
 *
 * Faults: a dropped subscription is resumed from the last event received (with
 * back-off); a batch whose commit fails is applied again (with back-off) until
 * it goes through, never skipped, and while it is retried the subscription
 * waits (a full buffer stops reading). `status()` says which of this is going on.
 */
export class Projector implements ReportsStatus {
  private readonly emitter = new EventEmitter();
  private subscription: Subscription | null = null;
  private loop: Promise<void> | null = null;
  private processed = 0n;
  private checkpoints = new Map<string, bigint>();
  private buffer: RecordedEvent[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private flushScheduled = false;
  private stopped = false;
  private readonly sleeper = new Sleeper();
  readonly consumer = new ConsumerHealth('projections', 'projector');

  constructor(
    private readonly events: EventStore,
    private readonly store: ReadStore,
    private readonly projections: Projection<any>[] = [],
    private readonly onError: (err: Error) => void = (err) => console.error(err),
  ) {
    this.emitter.setMaxListeners(0);
  }

  /** Adds a projection; only before start(). */
  add(projection: Projection<any>): void {
    if (this.subscription) throw new Error('Add projections before the projector starts');
    if (this.projections.some((p) => p.name === projection.name)) return;
    // a batch reads every projection's documents before it writes any: collections are not shared
    if (this.projections.some((p) => p.collection === projection.collection)) {
      throw new Error(`Projection ${projection.name} would share the collection ${projection.collection}`);
    }
    this.projections.push(projection);
  }

  get position(): bigint {
    return this.processed;
  }

  /** The projections registered (a replay elsewhere, tests). */
  get registered(): readonly Projection<any>[] {
    return this.projections;
  }

  onChange(listener: (change: AppliedChange) => void): () => void {
    this.emitter.on('change', listener);
    return () => this.emitter.off('change', listener);
  }

  async start(): Promise<void> {
    for (const p of this.projections) {
      await this.store.ensureCollection(p.collection, p.indexes);
      this.checkpoints.set(p.name, (await this.store.getCheckpoint(p.name)) ?? 0n);
    }
    const from = this.projections.length ? [...this.checkpoints.values()].reduce((a, b) => (a < b ? a : b)) : await this.events.headPosition();
    this.processed = from;
    this.consumer.running = true;
    this.subscription = resubscribing(this.events, {
      fromPosition: from,
      onDrop: (err, attempt) => {
        this.consumer.failed(err);
        this.onError(new Error(`Projections' subscription dropped (attempt ${attempt}), resubscribing: ${err.message}`));
      },
      onResume: () => this.consumer.recovered(),
    });
    const sub = this.subscription;
    this.loop = (async () => {
      try {
        for await (const event of sub) {
          this.buffer.push(event);
          if (this.buffer.length >= BATCH) await this.flush();
          else this.scheduleFlush();
        }
      } catch (err) {
        if (!this.stopped) {
          this.consumer.failed(err as Error);
          this.onError(err as Error);
        }
      }
    })();
  }

  /** Resolves once every event up to `position` has been applied (or after `timeoutMs`). */
  async waitFor(position: bigint | null, timeoutMs = 5000): Promise<boolean> {
    if (position === null || this.processed >= position) return true;
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        this.emitter.off('progress', check);
        resolve(false);
      }, timeoutMs);
      const check = () => {
        if (this.processed >= position) {
          clearTimeout(timer);
          this.emitter.off('progress', check);
          resolve(true);
        }
      };
      this.emitter.on('progress', check);
    });
  }

  private scheduleFlush() {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      void this.flush();
    });
  }

  /** Applies what is buffered; a failed commit is retried until it goes through (or the projector stops). */
  private flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      for (let attempt = 1; this.buffer.length > 0; attempt++) {
        const batch = this.buffer.slice(0, BATCH);
        try {
          const changes = await this.applyBatch(batch);
          this.buffer.splice(0, batch.length);
          this.processed = batch[batch.length - 1].position;
          if (attempt > 1 || this.consumer.retries > 0) this.consumer.recovered();
          attempt = 0;
          for (const c of changes) {
            try {
              this.emitter.emit('change', c);
            } catch (err) {
              this.onError(err as Error); // a listener's failure is not the projection's
            }
          }
          this.emitter.emit('progress', this.processed);
        } catch (err) {
          // the batch stays at the head of the buffer: applied again, never skipped
          const n = this.consumer.failed(err as Error);
          this.onError(new Error(`Projection commit failed (attempt ${n}), retrying: ${(err as Error).message}`));
          if (this.stopped) return;
          await this.sleeper.sleep(batchBackoff(attempt));
          if (this.stopped) return;
        }
      }
    });
    return this.flushing;
  }

  private async applyBatch(batch: RecordedEvent[], announce = true): Promise<AppliedChange[]> {
    const changes: AppliedChange[] = [];
    const last = batch[batch.length - 1].position;
    const commits: CollectionCommit[] = [];
    for (const p of this.projections) {
      const since = this.checkpoints.get(p.name) ?? 0n;
      const relevant: { event: RecordedEvent; id: string }[] = [];
      for (const event of batch) {
        if (event.position <= since || !matchesFilter(event, p.filter)) continue;
        const id = p.docId(event);
        if (id) relevant.push({ event, id });
      }
      const current = relevant.length
        ? await this.store.getMany<Doc>(p.collection, [...new Set(relevant.map((r) => r.id))])
        : new Map();
      const working = new Map<string, { doc: Doc | null; rev: number; dirty: boolean }>();
      for (const [id, stored] of current) working.set(id, { ...stored, dirty: false });
      for (const { event, id } of relevant) {
        const w = working.get(id) ?? { doc: null, rev: -1, dirty: false };
        const rev = Number(event.revision);
        if (rev <= w.rev) continue; // already reflected
        const next = p.reduce(w.doc, event);
        w.rev = rev;
        w.dirty = true;
        if (next !== undefined) {
          if (announce) changes.push({ projection: p.name, event, id, before: w.doc, after: next });
          w.doc = next;
        }
        working.set(id, w);
      }
      const writes: DocWrite[] = [];
      for (const [id, w] of working) if (w.dirty) writes.push({ id, rev: w.rev, doc: w.doc });
      commits.push({ collection: p.collection, writes, checkpoint: { name: p.name, position: last } });
    }
    // every projection's documents and checkpoint in one commit
    await this.store.commitMany(commits);
    for (const p of this.projections) this.checkpoints.set(p.name, last);
    return changes;
  }

  /**
   * Builds the read models again from the whole log; returns the events applied. Each document is
   * folded in memory across the log (up to `window.docs` documents at a time) and written once, into
   * fresh copies swapped in whole at the end where the store can (`beginRebuild`): until then the old
   * read model is served, and a crash leaves it as it was. Elsewhere the collections are emptied and
   * rebuilt in place, documents and checkpoints moving together. Only the events some projection
   * handles are read (filtered in the store), a window at a time. With fresh copies, a SQLite event
   * store and projections a worker can load (`source`), those are folded on `window.threads` worker
   * threads (2 by default), each a partition of the streams, while this thread folds the others and
   * writes what all of them folded.
   */
  async rebuild(onProgress?: (done: bigint, head: bigint) => void, window: RebuildWindow = REBUILD_WINDOW): Promise<number> {
    await this.stop();
    const head = await this.events.headPosition();
    const session = await this.beginRebuild();
    const file = (this.events as { file?: unknown }).file;
    const threads = Math.max(1, Math.floor(window.threads ?? 1));
    const onWorker =
      threads > 1 && this.store.beginRebuild && this.events.kind === 'sqlite' && typeof file === 'string' && file !== ':memory:'
        ? this.projections.filter(loadableInWorker)
        : [];
    // the worker threads fold the streams of `onWorker` (a partition each); this thread the other projections
    const partitions = onWorker.length ? threads : 0;
    const here = this.projections.filter((p) => !onWorker.includes(p));
    // progress: how far the slowest of the folds has read
    const reached = new Array<bigint>(partitions + 1).fill(0n);
    if (!here.length) reached[partitions] = head;
    const progress = (fold: number) => (position: bigint) => {
      reached[fold] = position;
      onProgress?.(reached.reduce((min, p) => (p < min ? p : min)), head);
    };
    const workers: Promise<{ count: number; last: bigint }>[] = [];
    try {
      for (let index = 0; index < partitions; index++) {
        const data = { file: file as string, sources: onWorker.map((p) => p.source!), filter: unionFilter(onWorker), partition: { count: partitions, index }, window };
        workers.push(foldOnWorker(data, session, progress(index)));
      }
      const mine = here.length
        ? foldLog({
            read: (from) => this.events.readAll({ fromPosition: from, maxCount: window.events, filter: unionFilter(here) }),
            projections: here,
            sink: session,
            docs: window.docs,
            onWindow: progress(partitions),
          })
        : { count: 0, last: 0n };
      // both sides finish (or fail) before the fresh copies are swapped in or dropped
      const settled = await Promise.allSettled([mine, ...workers]);
      const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
      const results = settled.map((r) => (r as PromiseFulfilledResult<{ count: number; last: bigint }>).value);
      // filtered reads end at the last matching event: every event up to the head has been looked at
      const done = results.reduce((max, r) => (r.last > max ? r.last : max), head);
      await session.complete(this.projections.map((p) => ({ name: p.name, position: done })));
      for (const p of this.projections) this.checkpoints.set(p.name, done);
      this.processed = done;
      // callers waiting for a position (waitFor) are answered now, not at their timeout
      this.emitter.emit('progress', this.processed);
      onProgress?.(done, head);
      return results.reduce((n, r) => n + r.count, 0);
    } catch (err) {
      await Promise.allSettled(workers); // nothing writes to the fresh copies once they are dropped
      await session.abandon();
      throw err;
    }
  }

  /** The store's fresh copies, or the collections emptied and rebuilt in place. */
  private async beginRebuild(): Promise<RebuildSession> {
    const store = this.store;
    if (store.beginRebuild) return store.beginRebuild(this.projections.map((p) => ({ collection: p.collection, indexes: p.indexes })));
    await store.reset(
      this.projections.map((p) => p.collection),
      this.projections.map((p) => p.name),
    );
    for (const p of this.projections) await store.ensureCollection(p.collection, p.indexes);
    const names = new Map(this.projections.map((p) => [p.collection, p.name]));
    const commit = (writes: { collection: string; writes: DocWrite[] }[], upTo: bigint) =>
      store.commitMany(writes.map((w) => ({ ...w, checkpoint: { name: names.get(w.collection)!, position: upTo } })));
    return {
      getMany: (collection, ids) => store.getMany(collection, ids),
      write: commit,
      complete: (checkpoints) =>
        store.commitMany(this.projections.map((p) => ({ collection: p.collection, writes: [], checkpoint: checkpoints.find((c) => c.name === p.name)! }))),
      abandon: async () => undefined, // what was written is consistent with its checkpoints: catch-up goes on from there
    };
  }

  /** Position, and the error while the projector is retrying (null when it is through). */
  health(): { position: bigint; failed: string | null } {
    return { position: this.processed, failed: this.consumer.retries > 0 ? this.consumer.lastError : null };
  }

  async status(): Promise<ConsumerStatus> {
    return this.consumer.snapshot(this.processed, await this.events.headPosition());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.sleeper.wake();
    await this.subscription?.close();
    await this.loop;
    await this.flushing;
    this.buffer = []; // not checkpointed: read again after a restart
    this.subscription = null;
    this.loop = null;
    this.consumer.running = false;
    this.stopped = false;
  }
}
