/**
 * The job runner (issue 28): every backtest and sweep of the API runs here, in worker threads, never
 * on the request thread.
 * - A bounded pool: `size` worker threads (default min(2, availableParallelism())), started when first
 *   needed and kept; a terminated one is replaced on the next piece.
 * - Work is cut in pieces (a single backtest is one piece; a sweep, batches of its combinations) and
 *   each free worker takes the next piece from a queue served round-robin by user (`FairQueue`), so a
 *   user's long sweep delays another user's job by at most one piece per turn.
 * - A budget per job: the worker time its pieces used, summed (about its CPU time: at most one piece
 *   per worker, no more workers than cores). Past it the job's workers are terminated and it ends with
 *   a clear error; a piece running when the budget runs out is stopped by a timer.
 * - Cancel: a queued job leaves the queue; a running one has its workers terminated (within
 *   milliseconds) and replaced. `close()` does the same for everything (shutdown).
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { workerEntry } from './worker-entry';
import type { GridConfig, MarketRules } from '@gridrocket/trading/grid';
import { bufferOf, seriesOver, sharedSeries, type CandleSeries } from '../domain/candle';
import type { CandleQuery } from '../candles/candle-source.port';
import type { BacktestResult, FeeTerms } from '../domain/backtest.engine';
import type { SweepCell } from '../domain/sweep';
import { FairQueue } from './fair-queue';

export interface PieceSetup {
  buffer: SharedArrayBuffer;
  length: number;
  rules: MarketRules;
  fees: FeeTerms;
}
export interface PaperQuery {
  seed: string | number;
  query: CandleQuery;
}
export interface PieceMessage {
  piece: number;
  setup?: PieceSetup;
  paper?: PaperQuery;
  single?: GridConfig;
  configs?: GridConfig[];
}
type PieceAnswer = { piece: number; ok: true; value: unknown } | { piece: number; ok: false; message: string };

export interface JobSpec {
  id: string;
  userId: string;
  /** The candles to backtest over, or … */
  series?: CandleSeries;
  /** … (alone) the paper venue's history to make (resolves with `{series}`). */
  paper?: PaperQuery;
  rules?: MarketRules;
  fees?: FeeTerms;
  /** One backtest of this grid (resolves with its result), or … */
  single?: GridConfig;
  /** … a sweep over these grids (resolves with one cell each, in order). */
  sweep?: readonly GridConfig[];
  onProgress?: (done: number, total: number) => void;
}
export type JobResult = { result: Omit<BacktestResult, 'fillLog'> } | { cells: SweepCell[] } | { series: CandleSeries };

/** The job was cancelled (its owner, or the pool closing): nothing to record as failed. */
export class JobCancelledError extends Error {
  constructor(readonly reason: 'cancelled' | 'shutdown') {
    super(reason === 'cancelled' ? 'The backtest was cancelled' : 'The server is shutting down');
  }
}

export interface JobPoolOptions {
  size?: number;
  /** Worker time one job may use, in ms. */
  budgetMs: number;
  /** Heap limit of each worker thread, MB. */
  maxHeapMb?: number;
}

export function defaultPoolSize(): number {
  return Math.max(1, Math.min(2, availableParallelism()));
}



interface Job {
  id: string;
  userId: string;
  setup?: PieceSetup;
  paper?: PaperQuery;
  series?: CandleSeries;
  single?: GridConfig;
  configs: readonly GridConfig[];
  batch: number;
  next: number;
  done: number;
  total: number;
  cells: SweepCell[];
  result?: Omit<BacktestResult, 'fillLog'>;
  usedMs: number;
  running: Set<Slot>;
  settled: boolean;
  onProgress?: (done: number, total: number) => void;
  resolve: (r: JobResult) => void;
  reject: (e: Error) => void;
}

interface Slot {
  worker: Worker | null;
  job: Job | null;
  piece: number;
  start: number;
  count: number;
  startedAt: number;
  timer: NodeJS.Timeout | null;
}

export class JobPool {
  readonly size: number;
  private readonly slots: Slot[];
  private readonly queue = new FairQueue<Job>();
  private readonly jobs = new Map<string, Job>();
  private readonly entry = workerEntry(__dirname, __filename, 'job.worker');
  private pieces = 0;
  private closed = false;
  private readonly stopping = new Set<Promise<number>>();

  constructor(private readonly options: JobPoolOptions) {
    this.size = Math.max(1, options.size ?? defaultPoolSize());
    this.slots = Array.from({ length: this.size }, () => ({ worker: null, job: null, piece: 0, start: 0, count: 0, startedAt: 0, timer: null }));
  }

  /** Jobs running (a piece on a worker) and waiting. */
  stats(): { running: number; queued: number; workers: number } {
    let running = 0;
    for (const j of this.jobs.values()) if (j.running.size > 0) running++;
    return { running, queued: this.jobs.size - running, workers: this.slots.filter((s) => s.worker).length };
  }

  run(spec: JobSpec): Promise<JobResult> {
    if (this.closed) return Promise.reject(new JobCancelledError('shutdown'));
    if (this.jobs.has(spec.id)) return Promise.reject(new Error(`Job ${spec.id} is already in the pool`));
    const shared = spec.series ? sharedSeries(spec.series) : null;
    const configs = spec.sweep ?? [];
    const total = spec.single || spec.paper ? 1 : configs.length;
    return new Promise<JobResult>((resolvePromise, reject) => {
      const job: Job = {
        id: spec.id,
        userId: spec.userId,
        setup: shared ? { buffer: bufferOf(shared) as SharedArrayBuffer, length: shared.length, rules: spec.rules!, fees: spec.fees ?? { feeBps: 0 } } : undefined,
        paper: spec.paper,
        single: spec.single,
        configs,
        batch: Math.max(1, Math.min(25, Math.ceil(total / (this.size * 8)))),
        next: 0,
        done: 0,
        total,
        cells: new Array(configs.length),
        usedMs: 0,
        running: new Set(),
        settled: false,
        onProgress: spec.onProgress,
        resolve: resolvePromise,
        reject,
      };
      if (total === 0) return resolvePromise({ cells: [] });
      this.jobs.set(job.id, job);
      this.queue.push(job);
      this.dispatch();
    });
  }

  /** Cancels a queued or running job: true when it was in the pool. Its promise rejects with JobCancelledError. */
  cancel(id: string): boolean {
    const job = this.jobs.get(id);
    if (!job) return false;
    this.finish(job, new JobCancelledError('cancelled'));
    return true;
  }

  /** Ends every job (JobCancelledError 'shutdown') and terminates the workers. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of [...this.jobs.values()]) this.finish(job, new JobCancelledError('shutdown'));
    for (const slot of this.slots) this.stopWorker(slot);
    await Promise.allSettled([...this.stopping]);
  }

  private dispatch(): void {
    if (this.closed) return;
    for (const slot of this.slots) {
      if (slot.job) continue;
      const job = this.queue.peek();
      if (!job) return;
      const start = job.next;
      const count = job.single || job.paper ? 1 : Math.min(job.batch, job.total - start);
      job.next = start + count;
      this.queue.rotate(job.next >= job.total);
      this.startPiece(slot, job, start, count);
    }
  }

  private startPiece(slot: Slot, job: Job, start: number, count: number): void {
    const worker = slot.worker ?? this.spawn(slot);
    slot.job = job;
    slot.piece = ++this.pieces;
    slot.start = start;
    slot.count = count;
    slot.startedAt = performance.now();
    job.running.add(slot);
    const left = Math.max(0, this.options.budgetMs - job.usedMs);
    slot.timer = setTimeout(() => this.overBudget(job), left);
    const message: PieceMessage = job.paper
      ? { piece: slot.piece, paper: job.paper }
      : job.single
        ? { piece: slot.piece, setup: job.setup, single: job.single }
        : { piece: slot.piece, setup: job.setup, configs: job.configs.slice(start, start + count) as GridConfig[] };
    worker.postMessage(message);
  }

  private spawn(slot: Slot): Worker {
    const limits = this.options.maxHeapMb ? { resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb } } : {};
    const worker = new Worker(this.entry.file, { execArgv: this.entry.execArgv, ...limits });
    worker.unref();
    slot.worker = worker;
    worker.on('message', (m: PieceAnswer) => {
      if (slot.worker !== worker || !slot.job || m.piece !== slot.piece) return;
      const job = slot.job;
      this.endPiece(slot);
      if (job.settled) return this.dispatch();
      if (!m.ok) {
        this.finish(job, new Error(m.message));
        return this.dispatch();
      }
      if (job.paper) {
        const made = m.value as { buffer: SharedArrayBuffer; length: number };
        job.series = seriesOver(made.buffer, made.length);
      } else if (job.single) job.result = m.value as Omit<BacktestResult, 'fillLog'>;
      else (m.value as SweepCell[]).forEach((c, k) => (job.cells[slot.start + k] = c));
      job.done += slot.count;
      job.onProgress?.(job.done, job.total);
      if (job.done >= job.total) this.finish(job, null);
      else if (job.usedMs > this.options.budgetMs) this.overBudget(job);
      this.dispatch();
    });
    const lost = (why: string) => {
      if (slot.worker !== worker) return; // terminated by us
      slot.worker = null;
      const job = slot.job;
      if (job) {
        this.endPiece(slot);
        this.finish(job, new Error(`A backtest worker stopped (${why})`));
      }
      this.dispatch();
    };
    worker.on('error', (err) => lost(err.message));
    worker.on('exit', (code) => lost(`exit code ${code}`));
    return worker;
  }

  private endPiece(slot: Slot): void {
    const job = slot.job;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    if (job) {
      job.usedMs += performance.now() - slot.startedAt;
      job.running.delete(slot);
    }
    slot.job = null;
  }

  private overBudget(job: Job): void {
    const seconds = Math.round(this.options.budgetMs / 100) / 10;
    this.finish(job, new Error(`The backtest used its computing budget of ${seconds} s and was stopped; backtest a shorter period or fewer combinations`));
    this.dispatch();
  }

  /** Settles a job once: its queued pieces leave the queue, its running pieces' workers are terminated. */
  private finish(job: Job, error: Error | null): void {
    if (job.settled) return;
    job.settled = true;
    this.jobs.delete(job.id);
    this.queue.remove(job.id);
    for (const slot of [...job.running]) {
      this.endPiece(slot);
      this.stopWorker(slot);
    }
    if (error) job.reject(error);
    else job.resolve(job.paper ? { series: job.series! } : job.single ? { result: job.result! } : { cells: job.cells });
    if (!this.closed) queueMicrotask(() => this.dispatch());
  }

  private stopWorker(slot: Slot): void {
    const worker = slot.worker;
    if (!worker) return;
    slot.worker = null; // the next piece gets a new one
    const p = worker.terminate();
    this.stopping.add(p);
    void p.finally(() => this.stopping.delete(p));
  }
}
