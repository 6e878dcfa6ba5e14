// Over 400 lines: the job pool's scheduling (pool, priorities, pieces, cancel, restart) with its reasoning, kept together.
/**
 * The job runner (issue 28): every backtest and sweep of the API runs here, in worker threads, never
 * on the request thread.
 * - A bounded pool: `size` worker threads (default min(2, availableParallelism())) for any job, and
 *   `shortWorkers` (default 1) more that take only short jobs (estimated at most `shortWork`
 *   candle-runs: a small sweep, a month's backtest), so a short job never waits behind another user's
 *   year-long pieces. Workers start when first needed and are kept; a terminated one is replaced on
 *   the next piece.
 * - Priority: the workers for any job run at a lower CPU priority (`nice`, default 10: about a tenth
 *   of a core they share with the request thread, `thread-priority.ts`), so heavy work uses idle CPU
 *   and yields it to requests; the short-job workers run at normal priority.
 * - Work is cut in pieces (a single backtest is one piece; a sweep, batches of its combinations) and
 *   each free worker takes the next piece from a queue served round-robin by user (`FairQueue`), so a
 *   user's long sweep delays another user's job by at most one piece per turn.
 * - A budget per job: the CPU time its pieces used (the worker thread's own, from /proc; wall-clock
 *   time where that cannot be read), summed. Past it the job's workers are terminated and it ends
 *   with a clear error; a piece running when the budget runs out is stopped by a timer.
 * - Cancel: a queued job leaves the queue; a running one has its workers terminated (within
 *   milliseconds) and replaced. `close()` does the same for everything (shutdown).
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { workerEntry } from './worker-entry';
import { STYLE_PLUGINS_ENV } from '@gridrocket/shared';
import type { GridConfig, MarketRules } from '@gridrocket/trading/grid';
import { bufferOf, seriesOver, sharedSeries, type CandleSeries } from '../domain/candle';
import type { CandleQuery } from '../candles/candle-source.port';
import type { FeeTerms } from '../domain/backtest.engine';
import type { SweepCell, SweepEntry } from '../domain/sweep';
import { rungsOf, type StyledBacktestResult, type StyledGrid } from '../domain/styles';
import { FairQueue } from './fair-queue';
import { threadCpuMs } from './thread-priority';
import { TIMEFRAMES } from '../domain/candle';

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
  single?: StyledGrid;
  configs?: Array<GridConfig | SweepEntry>;
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
  /** One backtest of this grid, of any style (resolves with its result), or … */
  single?: StyledGrid;
  /** … a sweep over these grids or combinations (resolves with one cell each, in order). */
  sweep?: ReadonlyArray<GridConfig | SweepEntry>;
  onProgress?: (done: number, total: number) => void;
}
export type JobResult = { result: Omit<StyledBacktestResult, 'fillLog'> } | { cells: SweepCell[] } | { series: CandleSeries };

/** The job was cancelled (its owner, or the pool closing): nothing to record as failed. */
export class JobCancelledError extends Error {
  constructor(readonly reason: 'cancelled' | 'shutdown') {
    super(reason === 'cancelled' ? 'The backtest was cancelled' : 'The server is shutting down');
  }
}

export interface JobPoolOptions {
  /** Workers for any job. */
  size?: number;
  /** Workers for short jobs only (default 1; 0: none). */
  shortWorkers?: number;
  /** Largest job, in estimated candle-runs, the short-job workers take (default SHORT_JOB_WORK). */
  shortWork?: number;
  /** CPU time a piece may run on a short-job worker before its job counts as long (default SHORT_PIECE_MS). */
  shortPieceMs?: number;
  /** Nice value of the workers for any job (default 10; 0: normal priority). */
  nice?: number;
  /** CPU time one job may use, in ms. */
  budgetMs: number;
  /** Heap limit of each worker thread, MB. */
  maxHeapMb?: number;
}

/**
 * A short job: estimated at most 2 M candle-rung steps (`jobWork`), e.g. a 2-combination sweep of
 * 10-order grids over 30 days of 1-minute candles (0.95 M). Measured 2026-11-26 on the built engine
 * (`node`, this machine): 43,200 candles of a 20-order grid backtest in 40–60 ms.
 */
export const SHORT_JOB_WORK = 2_000_000;
/** Making a paper candle costs about 20 backtest candle-runs (a year: 0.65 s against 30 ms for one backtest). */
const PAPER_WORK_PER_CANDLE = 20;
/**
 * CPU time a piece may run on a short-job worker before the job is found long: the piece is stopped
 * and the job goes back to the queue for the workers for any job (its result is the same when run again).
 */
export const SHORT_PIECE_MS = 1_000;

/**
 * A job's estimated work: candles × (ladder rungs + 1), summed over its backtests, since every rung
 * can fill on a candle (a crafted file whose closes cross 99 rungs on every candle costs 100× a quiet
 * one: 20,000 such candles took 4.7 s). A paper history: candles × 20.
 */
export function jobWork(spec: Pick<JobSpec, 'series' | 'paper' | 'single' | 'sweep'>): number {
  if (spec.paper) {
    const q = spec.paper.query;
    const tf = TIMEFRAMES[q.timeframe as keyof typeof TIMEFRAMES] ?? 60_000;
    return Math.max(0, Math.ceil((q.to - q.from) / tf)) * PAPER_WORK_PER_CANDLE;
  }
  const grids: StyledGrid[] = spec.single ? [spec.single] : (spec.sweep ?? []).map((g) => ('config' in g ? g.config : g));
  let rungs = 0;
  for (const g of grids) rungs += rungsOf(g) + 1; // a neutral grid's 2N orders, the infinity grid's 2 (styles.ts)
  return (spec.series?.length ?? 0) * rungs;
}

export function defaultPoolSize(): number {
  return Math.max(1, Math.min(2, availableParallelism()));
}

interface Job {
  id: string;
  userId: string;
  /** Small enough for the short-job workers. */
  short: boolean;
  setup?: PieceSetup;
  paper?: PaperQuery;
  series?: CandleSeries;
  single?: StyledGrid;
  configs: ReadonlyArray<GridConfig | SweepEntry>;
  batch: number;
  next: number;
  /** Pieces to run again (stopped on a short-job worker when the job proved long). */
  retry: Array<{ start: number; count: number }>;
  done: number;
  total: number;
  cells: SweepCell[];
  result?: Omit<StyledBacktestResult, 'fillLog'>;
  usedMs: number;
  running: Set<Slot>;
  settled: boolean;
  onProgress?: (done: number, total: number) => void;
  resolve: (r: JobResult) => void;
  reject: (e: Error) => void;
}

interface Slot {
  /** 'short': takes short jobs only, at normal priority. */
  lane: 'any' | 'short';
  worker: Worker | null;
  /** The worker's thread id (Linux), for its CPU time. */
  tid: number | null;
  /** The thread's CPU time when the running piece started (0 for a new worker), or null: wall time is counted. */
  cpuStart: number | null;
  job: Job | null;
  piece: number;
  start: number;
  count: number;
  startedAt: number;
  timer: NodeJS.Timeout | null;
  /** On a short-job worker: checks that the piece has not run past `shortPieceMs`. */
  shortTimer: NodeJS.Timeout | null;
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

  private readonly shortWork: number;
  private readonly dispatchOrder: Slot[];

  constructor(private readonly options: JobPoolOptions) {
    this.size = Math.max(1, options.size ?? defaultPoolSize());
    this.shortWork = options.shortWork ?? SHORT_JOB_WORK;
    const slot = (lane: Slot['lane']): Slot => ({ lane, worker: null, tid: null, cpuStart: null, job: null, piece: 0, start: 0, count: 0, startedAt: 0, timer: null, shortTimer: null });
    this.slots = [...Array.from({ length: this.size }, () => slot('any')), ...Array.from({ length: Math.max(0, options.shortWorkers ?? 1) }, () => slot('short'))];
    this.dispatchOrder = [...this.slots.filter((x) => x.lane === 'short'), ...this.slots.filter((x) => x.lane === 'any')];
  }

  /** Jobs running (a piece on a worker) and waiting; workers started. */
  stats(): { running: number; queued: number; workers: number; movedOffShort: number } {
    let running = 0;
    for (const j of this.jobs.values()) if (j.running.size > 0) running++;
    return { running, queued: this.jobs.size - running, workers: this.slots.filter((s) => s.worker).length, movedOffShort: this.movedOffShort };
  }

  /** Pieces stopped on a short-job worker after `shortPieceMs` of CPU and queued for the other workers. */
  private movedOffShort = 0;

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
        short: jobWork(spec) <= this.shortWork,
        setup: shared ? { buffer: bufferOf(shared) as SharedArrayBuffer, length: shared.length, rules: spec.rules!, fees: spec.fees ?? { feeBps: 0 } } : undefined,
        paper: spec.paper,
        single: spec.single,
        configs,
        batch: Math.max(1, Math.min(25, Math.ceil(total / (this.size * 8)))),
        next: 0,
        retry: [],
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
    // the short-job workers first: a short job runs at normal priority whenever one is free
    for (const slot of this.dispatchOrder) {
      if (slot.job) continue;
      const job = slot.lane === 'short' ? this.queue.peek((j) => j.short) : this.queue.peek();
      if (!job) continue;
      let piece = job.retry.shift();
      if (!piece) {
        const start = job.next;
        piece = { start, count: job.single || job.paper ? 1 : Math.min(job.batch, job.total - start) };
        job.next = start + piece.count;
      }
      this.queue.served(job, job.retry.length === 0 && job.next >= job.total);
      this.startPiece(slot, job, piece.start, piece.count);
    }
  }

  private startPiece(slot: Slot, job: Job, start: number, count: number): void {
    const fresh = !slot.worker;
    const worker = slot.worker ?? this.spawn(slot);
    slot.job = job;
    slot.piece = ++this.pieces;
    slot.start = start;
    slot.count = count;
    slot.startedAt = performance.now();
    slot.cpuStart = fresh ? 0 : slot.tid !== null ? threadCpuMs(slot.tid) : null;
    job.running.add(slot);
    this.armBudget(slot, job);
    if (slot.lane === 'short') this.armShortLimit(slot, job);
    const message: PieceMessage = job.paper
      ? { piece: slot.piece, paper: job.paper }
      : job.single
        ? { piece: slot.piece, setup: job.setup, single: job.single }
        : { piece: slot.piece, setup: job.setup, configs: job.configs.slice(start, start + count) };
    worker.postMessage(message);
  }

  private spawn(slot: Slot): Worker {
    const limits = this.options.maxHeapMb ? { resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb } } : {};
    const nice = slot.lane === 'short' ? 0 : (this.options.nice ?? 10);
    const worker = new Worker(this.entry.file, { execArgv: this.entry.execArgv, workerData: { nice, stylePlugins: process.env[STYLE_PLUGINS_ENV] }, ...limits });
    worker.unref();
    slot.worker = worker;
    slot.tid = null;
    worker.on('message', (m: PieceAnswer | { tid: number | null }) => {
      if ('tid' in m) {
        if (slot.worker === worker) slot.tid = m.tid;
        return;
      }
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
      } else if (job.single) job.result = m.value as Omit<StyledBacktestResult, 'fillLog'>;
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

  /** What the running piece on `slot` has used so far: its thread's CPU time, or the wall time. */
  private pieceUsedMs(slot: Slot): number {
    if (slot.cpuStart !== null && slot.tid !== null) {
      const now = threadCpuMs(slot.tid);
      if (now !== null) return Math.max(0, now - slot.cpuStart);
    }
    return performance.now() - slot.startedAt;
  }

  /** Stops the job when its budget is spent: checked when it could be (CPU time ≤ wall time), re-armed while it is not. */
  private armBudget(slot: Slot, job: Job): void {
    const used = () => job.usedMs + [...job.running].reduce((sum, s) => sum + this.pieceUsedMs(s), 0);
    const arm = (ms: number) => {
      slot.timer = setTimeout(() => {
        if (slot.job !== job || job.settled) return;
        const left = this.options.budgetMs - used();
        if (left <= 0) this.overBudget(job);
        else arm(Math.max(20, left));
      }, ms);
    };
    arm(Math.max(0, this.options.budgetMs - used()));
  }

  /**
   * A piece on a short-job worker that has used `shortPieceMs` of CPU: its job was misjudged (the
   * estimate is by candles and rungs; a crafted file can cost more per rung). The piece is stopped and
   * queued again, and the job, now long, goes on only on the workers for any job.
   */
  private armShortLimit(slot: Slot, job: Job): void {
    const limit = this.options.shortPieceMs ?? SHORT_PIECE_MS;
    const arm = (ms: number) => {
      slot.shortTimer = setTimeout(() => {
        if (slot.job !== job || job.settled) return;
        const used = this.pieceUsedMs(slot);
        if (used < limit) return arm(Math.max(20, limit - used));
        const piece = { start: slot.start, count: slot.count };
        this.endPiece(slot);
        this.stopWorker(slot);
        if (!this.closed) this.spawn(slot); // ready for the next short job
        job.short = false;
        this.movedOffShort++;
        job.retry.push(piece);
        if (!this.queue.has(job.id)) this.queue.push(job);
        this.dispatch();
      }, ms);
    };
    arm(limit);
  }

  private endPiece(slot: Slot): void {
    const job = slot.job;
    if (slot.timer) clearTimeout(slot.timer);
    if (slot.shortTimer) clearTimeout(slot.shortTimer);
    slot.timer = null;
    slot.shortTimer = null;
    if (job) {
      job.usedMs += this.pieceUsedMs(slot);
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
    slot.tid = null;
    const p = worker.terminate();
    this.stopping.add(p);
    void p.finally(() => this.stopping.delete(p));
  }
}
