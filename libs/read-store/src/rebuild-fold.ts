import { MessagePort, Worker } from 'node:worker_threads';
import type { ReadAllOptions, RecordedEvent, SubscriptionFilter } from '@gridrocket/event-store';
import { SqliteEventStore, matchesFilter, streamPartition } from '@gridrocket/event-store';
import type { Projection } from './projection';
import type { Doc, RebuildSession, RebuildWrite, StoredDoc } from './read-store.port';

/** Events a rebuild reads at a time, documents it holds in memory before writing them out, threads it folds on. */
export interface RebuildWindow {
  events: number;
  docs: number;
  threads?: number;
  /** Documents a worker thread writes out early at a time, once a read window has left them untouched (see foldLog). */
  early?: number;
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
 * A document being folded: `touched`, the read window that last changed it; `queued`, waiting to be
 * written out early; `written`, written out early and unchanged since.
 */
interface Held {
  id: string;
  doc: Doc | null;
  rev: number;
  dirty: boolean;
  first?: number;
  touched: number;
  queued: boolean;
  written: boolean;
}

/**
 * Folds the log into documents held in memory (each reduced exactly as the projector does it, the
 * revision guard included), writing them out once `docs` are held and at the end; documents seen
 * again after they were written out are read back from the sink. `skip(p, event)`: events another
 * thread folds for `p`.
 *
 * `early` (issue 16; only for a sink whose writes move no checkpoint and encode the documents at once,
 * as a worker thread's does): a document that a whole read window left unchanged is written out then,
 * `early` documents at a time, and kept, so that the writing overlaps the folding instead of following
 * it; it is written again only if it changes. Where documents keep changing long after they were
 * written (streams interleaved over the whole log), early writes are stopped: once a quarter of them
 * proved premature.
 */
export async function foldLog(args: {
  read: (from: bigint) => Promise<RecordedEvent[]>;
  projections: readonly Projection<any>[];
  skip?: (p: Projection<any>, event: RecordedEvent) => boolean;
  sink: FoldSink;
  docs: number;
  early?: number;
  onWindow?: (position: bigint) => void;
}): Promise<{ count: number; last: bigint }> {
  const { read, skip, sink } = args;
  let early = Math.max(0, args.early ?? 0);
  const folds = args.projections.map((p) => ({ p, docs: new Map<string, Held>(), queued: [] as Held[], idle: [] as Held[] }));
  let from = 0n;
  let count = 0;
  let held = 0;
  let idle = 0; // documents found unchanged for a window, to be written early
  let writtenEarly = 0;
  let premature = 0; // documents that changed after they were written early
  let flushed = false; // documents written and dropped from memory: those seen again are read back
  const write = async (which: (f: (typeof folds)[number]) => Iterable<Held>) => {
    const out = folds.map((f) => {
      const writes: RebuildWrite[] = [];
      for (const w of which(f)) if (w.dirty) writes.push({ id: w.id, rev: w.rev, doc: w.doc, first: w.first });
      return { collection: f.p.collection, writes };
    });
    await sink.write(out, from);
  };
  for (let window = 0; ; window++) {
    const batch = await read(from);
    if (batch.length === 0) break;
    for (const { p, docs, queued } of folds) {
      // the events this projection folds and their documents' ids (two arrays: no object per event)
      const events: RecordedEvent[] = [];
      const ids: string[] = [];
      for (const event of batch) {
        if (!matchesFilter(event, p.filter) || skip?.(p, event)) continue;
        const id = p.docId(event);
        if (id) {
          events.push(event);
          ids.push(id);
        }
      }
      if (flushed) {
        const missing = [...new Set(ids.filter((id) => !docs.has(id)))];
        const stored = missing.length ? await sink.getMany<Doc>(p.collection, missing) : new Map<string, StoredDoc>();
        for (const [id, d] of stored) {
          docs.set(id, { id, doc: d.doc, rev: d.rev, dirty: false, touched: window, queued: false, written: false });
          held++;
        }
      }
      for (let i = 0; i < events.length; i++) {
        const event = events[i];
        const id = ids[i];
        let w = docs.get(id);
        if (!w) {
          docs.set(id, (w = { id, doc: null, rev: -1, dirty: false, first: Number(event.position), touched: window, queued: false, written: false }));
          held++;
        }
        const rev = Number(event.revision);
        if (rev <= w.rev) continue; // already reflected
        // the document is the rebuild's own: folded in place where the projection can
        if (!(w.doc && p.reduceInPlace?.(w.doc, event))) {
          const next = p.reduce(w.doc, event);
          if (next !== undefined) w.doc = next;
        }
        w.rev = rev;
        w.dirty = true;
        w.touched = window;
        if (w.written) {
          w.written = false;
          premature++;
        }
        if (early && !w.queued) {
          w.queued = true;
          queued.push(w);
        }
      }
    }
    from = batch[batch.length - 1].position;
    count += batch.length;
    if (held > args.docs) {
      await write((f) => f.docs.values());
      for (const f of folds) {
        f.docs.clear();
        f.queued = [];
        f.idle = [];
      }
      held = 0;
      idle = 0;
      flushed = true;
    } else if (early) {
      for (const f of folds) {
        const still: Held[] = [];
        for (const w of f.queued) {
          if (w.touched < window) {
            f.idle.push(w);
            idle++;
          } else still.push(w);
        }
        f.queued = still;
      }
      if (idle >= early) {
        await write((f) => f.idle);
        for (const f of folds) {
          for (const w of f.idle) {
            w.dirty = false;
            w.written = true;
            w.queued = false;
          }
          f.idle = [];
        }
        writtenEarly += idle;
        idle = 0;
      }
      if (writtenEarly >= early && premature * 4 > writtenEarly) {
        early = 0; // the streams are interleaved: the documents are written at the end
        for (const f of folds) {
          for (const w of [...f.queued, ...f.idle]) w.queued = false;
          f.queued = [];
          f.idle = [];
        }
        idle = 0;
      }
    }
    args.onWindow?.(from);
  }
  await write((f) => f.docs.values());
  return { count, last: from };
}

/** Projections a worker thread can fold: loadable from compiled JavaScript (not under a TypeScript loader). */
export function loadableInWorker(p: Projection<any>): boolean {
  return !!p.source && p.source.module.endsWith('.js') && __filename.endsWith('.js');
}

interface WorkerData {
  file: string;
  sources: { module: string; exportName: string }[];
  filter: SubscriptionFilter | undefined;
  partition: { count: number; index: number };
  window: RebuildWindow;
}

type FromWorker =
  | { type: 'write'; writes: Writes; upTo: string }
  | { type: 'getMany'; id: number; collection: string; ids: string[] }
  | { type: 'progress'; position: string }
  | { type: 'done'; count: number; last: string }
  | { type: 'failed'; message: string };

/** The worker's side: its own connection to the event store file, its partition of the streams, writes sent back. */
export async function runRebuildWorker(data: WorkerData, port: MessagePort): Promise<void> {
  const events = new SqliteEventStore(data.file, 200, 'NORMAL');
  try {
    const projections = data.sources.map((s) => require(s.module)[s.exportName] as Projection<any>);
    const pending = new Map<number, (docs: Map<string, StoredDoc<any>>) => void>();
    let next = 0;
    port.on('message', (m: { id: number; docs: [string, StoredDoc<any>][] }) => {
      pending.get(m.id)?.(new Map(m.docs));
      pending.delete(m.id);
    });
    const options: ReadAllOptions = { maxCount: data.window.events, filter: data.filter, partition: data.partition };
    const { count, last } = await foldLog({
      read: (from) => events.readAll({ ...options, fromPosition: from }),
      projections,
      docs: data.window.docs,
      early: data.window.early,
      onWindow: (position) => port.postMessage({ type: 'progress', position: String(position) } satisfies FromWorker),
      sink: {
        getMany: <D extends Doc>(collection: string, ids: string[]) =>
          new Promise<Map<string, StoredDoc<D>>>((resolve) => {
            const id = next++;
            pending.set(id, resolve as (docs: Map<string, StoredDoc<any>>) => void);
            port.postMessage({ type: 'getMany', id, collection, ids } satisfies FromWorker);
          }),
        // encoded here: the main thread only stores them
        write: async (writes, upTo) => {
          const encoded = writes.map((c) => ({ collection: c.collection, writes: c.writes.map((w) => ({ id: w.id, rev: w.rev, first: w.first, doc: null, json: w.doc ? JSON.stringify(w.doc) : null })) }));
          port.postMessage({ type: 'write', writes: encoded, upTo: String(upTo) } satisfies FromWorker);
        },
      },
    });
    port.postMessage({ type: 'done', count, last: String(last) } satisfies FromWorker);
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
 * Folds partition `index` of the projections' streams on a worker thread; its writes go to `session`
 * (in order, on this thread). Resolves with the events it folded and the last position it read.
 */
export function foldOnWorker(data: WorkerData, session: RebuildSession, onWindow?: (position: bigint) => void): Promise<{ count: number; last: bigint }> {
  // a larger young generation: measured, a quarter of the worker's time went to young-generation collections at the default
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { entry: __filename, data }, resourceLimits: { maxYoungGenerationSizeMb: 64 } });
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
      if (m.type === 'progress') return onWindow?.(BigInt(m.position));
      chain = chain.then(async () => {
        if (settled) return;
        try {
          if (m.type === 'write') await session.write(m.writes, BigInt(m.upTo));
          else if (m.type === 'getMany') worker.postMessage({ id: m.id, docs: [...(await session.getMany(m.collection, m.ids))] });
          else if (m.type === 'failed') fail(new Error(`Rebuild worker failed: ${m.message}`));
          else {
            settled = true;
            resolve({ count: m.count, last: BigInt(m.last) });
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
