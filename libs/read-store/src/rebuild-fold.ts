import { MessagePort, Worker } from 'node:worker_threads';
import type { RecordedEvent, StreamRange, SubscriptionFilter } from '@gridrocket/event-store';
import { SqliteEventStore, matchesFilter } from '@gridrocket/event-store';
import type { Projection } from './projection';
import type { Doc, RebuildSession, RebuildWrite, StoredDoc } from './read-store.port';

/** Events a rebuild reads at a time, documents it holds in memory before writing them out, threads it folds on. */
export interface RebuildWindow {
  events: number;
  docs: number;
  threads?: number;
}

type Writes = { collection: string; writes: RebuildWrite[] }[];

/** What a fold needs of the rebuild under way. */
export interface FoldSink {
  getMany<D extends Doc>(collection: string, ids: string[]): Promise<Map<string, StoredDoc<D>>>;
  write(writes: Writes, upTo: bigint): Promise<void>;
}

/** What any of the projections handles (looser is fine: each projection filters again). */
export function unionFilter(projections: readonly Projection<any>[]): SubscriptionFilter | undefined {
  if (projections.length === 0 || projections.some((p) => !p.filter.streamPrefixes?.length && !p.filter.eventTypes?.length)) return undefined;
  const prefixes = projections.every((p) => p.filter.streamPrefixes?.length) ? [...new Set(projections.flatMap((p) => p.filter.streamPrefixes!))] : undefined;
  const types = projections.every((p) => p.filter.eventTypes?.length) ? [...new Set(projections.flatMap((p) => p.filter.eventTypes!))] : undefined;
  return { streamPrefixes: prefixes, eventTypes: types };
}

/**
 * Folds the log into documents held in memory (each reduced exactly as the projector does it, the
 * revision guard included), writing them out once `window.docs` are held and at the end; documents
 * seen again after they were written out are read back from the sink. `skip(p, event)`: events
 * another thread folds for `p`.
 */
export async function foldLog(args: {
  read: (from: bigint) => Promise<RecordedEvent[]>;
  projections: readonly Projection<any>[];
  skip?: (p: Projection<any>, event: RecordedEvent) => boolean;
  sink: FoldSink;
  docs: number;
  onWindow?: (position: bigint) => void;
}): Promise<{ count: number; last: bigint }> {
  const { read, skip, sink } = args;
  const folds = args.projections.map((p) => ({ p, docs: new Map<string, { doc: Doc | null; rev: number; dirty: boolean; first?: number }>() }));
  let from = 0n;
  let count = 0;
  let held = 0;
  let flushed = false; // documents written and dropped from memory: those seen again are read back
  const write = () =>
    sink.write(
      folds.map(({ p, docs }) => {
        const writes: RebuildWrite[] = [];
        for (const [id, w] of docs) if (w.dirty) writes.push({ id, rev: w.rev, doc: w.doc, first: w.first });
        return { collection: p.collection, writes };
      }),
      from,
    );
  for (;;) {
    const batch = await read(from);
    if (batch.length === 0) break;
    for (const { p, docs } of folds) {
      const relevant: { event: RecordedEvent; id: string }[] = [];
      for (const event of batch) {
        if (!matchesFilter(event, p.filter) || skip?.(p, event)) continue;
        const id = p.docId(event);
        if (id) relevant.push({ event, id });
      }
      if (flushed) {
        const missing = [...new Set(relevant.filter((r) => !docs.has(r.id)).map((r) => r.id))];
        const stored = missing.length ? await sink.getMany<Doc>(p.collection, missing) : new Map<string, StoredDoc>();
        for (const [id, d] of stored) {
          docs.set(id, { ...d, dirty: false });
          held++;
        }
      }
      for (const { event, id } of relevant) {
        let w = docs.get(id);
        if (!w) {
          docs.set(id, (w = { doc: null, rev: -1, dirty: false, first: Number(event.position) }));
          held++;
        }
        const rev = Number(event.revision);
        if (rev <= w.rev) continue; // already reflected
        const next = p.reduce(w.doc, event);
        w.rev = rev;
        w.dirty = true;
        if (next !== undefined) w.doc = next;
      }
    }
    from = batch[batch.length - 1].position;
    count += batch.length;
    if (held > args.docs) {
      await write();
      for (const f of folds) f.docs.clear();
      held = 0;
      flushed = true;
    }
    args.onWindow?.(from);
  }
  await write();
  return { count, last: from };
}

/** Projections a worker thread can fold: loadable from compiled JavaScript (not under a TypeScript loader). */
export function loadableInWorker(p: Projection<any>): boolean {
  return !!p.source && p.source.module.endsWith('.js') && __filename.endsWith('.js');
}

/**
 * Folds the events of `projections` whose documents are each folded from one stream, given stream by
 * stream: a stream's documents are complete when it ends, so they are encoded then and dropped (none
 * held across the log, none read back). `emit` gets them `batch` documents at a time, with the events
 * folded so far. Returns the events folded.
 */
export function foldStreams(args: {
  events: Iterable<RecordedEvent>;
  projections: readonly Projection<any>[];
  batch: number;
  emit: (writes: Writes, count: number) => void;
}): number {
  const { projections } = args;
  const held = projections.map(() => new Map<string, { doc: Doc | null; rev: number; first: number }>());
  let out = projections.map(() => [] as RebuildWrite[]);
  let pending = 0;
  let count = 0;
  let stream: string | undefined;
  const close = () => {
    for (let i = 0; i < projections.length; i++) {
      for (const [id, w] of held[i]) out[i].push({ id, rev: w.rev, first: w.first, doc: null, json: w.doc ? JSON.stringify(w.doc) : null });
      pending += held[i].size;
      held[i].clear();
    }
  };
  const send = () => {
    args.emit(projections.map((p, i) => ({ collection: p.collection, writes: out[i] })), count);
    out = projections.map(() => []);
    pending = 0;
  };
  for (const event of args.events) {
    if (event.streamId !== stream) {
      close();
      if (pending >= args.batch) send();
      stream = event.streamId;
    }
    count++;
    for (let i = 0; i < projections.length; i++) {
      const p = projections[i];
      if (!matchesFilter(event, p.filter)) continue;
      const id = p.docId(event);
      if (!id) continue;
      let w = held[i].get(id);
      // the position of the document's first event: its place in the table
      if (!w) held[i].set(id, (w = { doc: null, rev: -1, first: Number(event.position) }));
      const rev = Number(event.revision);
      if (rev <= w.rev) continue; // already reflected (the projector's revision guard)
      const next = p.reduce(w.doc, event);
      w.rev = rev;
      if (next !== undefined) w.doc = next;
    }
  }
  close();
  send();
  return count;
}

/** Documents a worker sends the main thread at a time (measured: see BENCH_ONLY=rebuild). */
const DOCS_PER_MESSAGE = 5_000;

interface WorkerData {
  file: string;
  sources: { module: string; exportName: string }[];
  filter: SubscriptionFilter | undefined;
  range: StreamRange;
  /** The last position folded (the head when the rebuild began). */
  to: string;
}

type FromWorker = { type: 'write'; writes: Writes; count: number } | { type: 'done'; count: number } | { type: 'failed'; message: string };

/** The worker's side: its own connection to the event store file, its range of the streams read in stream order, documents sent back encoded. */
export async function runRebuildWorker(data: WorkerData, port: MessagePort): Promise<void> {
  const events = new SqliteEventStore(data.file, 200, 'NORMAL');
  try {
    const projections = data.sources.map((s) => require(s.module)[s.exportName] as Projection<any>);
    const count = foldStreams({
      events: events.readStreamRange(data.range, data.filter, BigInt(data.to)),
      projections,
      batch: DOCS_PER_MESSAGE,
      emit: (writes, count) => port.postMessage({ type: 'write', writes, count } satisfies FromWorker),
    });
    port.postMessage({ type: 'done', count } satisfies FromWorker);
  } catch (err) {
    port.postMessage({ type: 'failed', message: (err as Error).stack ?? String(err) } satisfies FromWorker);
  } finally {
    await events.close();
    port.close();
  }
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
require(workerData.entry).runRebuildWorker(workerData.data, parentPort);
`;

/**
 * Folds the streams of `data.range` on a worker thread; what it folds is written to `session` (in order,
 * on this thread). `onCount`: the events folded so far. Resolves with the events it folded.
 */
export function foldOnWorker(data: WorkerData, session: Pick<RebuildSession, 'write'>, onCount?: (count: number) => void): Promise<number> {
  // a larger young generation: measured, a quarter of the worker's time went to young-generation collections at the default
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { entry: __filename, data }, resourceLimits: { maxYoungGenerationSizeMb: 64 } });
  const upTo = BigInt(data.to);
  return new Promise((resolve, reject) => {
    let chain = Promise.resolve();
    let settled = false;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      reject(err);
    };
    worker.on('message', (m: FromWorker) => {
      chain = chain.then(async () => {
        if (settled) return;
        try {
          if (m.type === 'write') {
            await session.write(m.writes, upTo);
            onCount?.(m.count);
          } else if (m.type === 'failed') fail(new Error(`Rebuild worker failed: ${m.message}`));
          else {
            settled = true;
            resolve(m.count);
          }
        } catch (err) {
          fail(err as Error);
        }
      });
    });
    worker.on('error', fail);
    worker.on('exit', (code) => chain.then(() => fail(new Error(`Rebuild worker exited (${code}) before it was done`))));
  });
}

/**
 * The workers' writes gathered into few large transactions, each in table order (`first`): documents
 * arrive in stream order, so small transactions each rewrite pages all over the fresh table
 * (measured: two thirds of this thread's time at 5,000 documents a transaction). Holds up to `docs`
 * encoded documents; `flush` writes what it holds.
 */
export function pooledWrites(session: RebuildSession, docs: number): { write: RebuildSession['write']; flush(): Promise<void> } {
  const held = new Map<string, RebuildWrite[]>();
  let count = 0;
  let upTo = 0n;
  const flush = async () => {
    if (!held.size) return;
    const writes = [...held].map(([collection, w]) => ({ collection, writes: w.sort((a, b) => (a.first ?? 0) - (b.first ?? 0)) }));
    held.clear();
    count = 0;
    await session.write(writes, upTo);
  };
  return {
    write: async (writes, to) => {
      for (const c of writes) {
        let list = held.get(c.collection);
        if (!list) held.set(c.collection, (list = []));
        for (const w of c.writes) list.push(w);
        count += c.writes.length;
      }
      if (to > upTo) upTo = to;
      if (count >= docs) await flush();
    },
    flush,
  };
}
