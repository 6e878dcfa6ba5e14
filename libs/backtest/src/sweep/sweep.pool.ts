/**
 * Runs a sweep in worker threads (default: one per core, at most 2 here) over candles shared through
 * one SharedArrayBuffer; reports progress after each batch. `workers: 0` runs in the calling thread.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { workerEntry } from '../jobs/worker-entry';
import type { GridConfig, MarketRules } from '@gridrocket/trading/grid';
import { bufferOf, sharedSeries, type CandleSeries } from '../domain/candle';
import { sweepCell, type SweepCell, type SweepEntry } from '../domain/sweep';
import { feeTermsOf, type FeeTerms } from '../domain/backtest.engine';

export interface WorkerSetup {
  buffer: SharedArrayBuffer;
  length: number;
  rules: MarketRules;
  fees: FeeTerms;
}
export interface WorkerJob {
  start: number;
  configs: Array<GridConfig | SweepEntry>;
}

export interface SweepRunOptions extends FeeTerms {
  rules: MarketRules;
  workers?: number;
  onProgress?: (done: number, total: number) => void;
  /** Stop early (e.g. the request was abandoned). */
  signal?: AbortSignal;
}



export function defaultSweepWorkers(): number {
  return Math.max(1, Math.min(2, availableParallelism()));
}

export async function runSweep(series: CandleSeries, configs: ReadonlyArray<GridConfig | SweepEntry>, options: SweepRunOptions): Promise<SweepCell[]> {
  const total = configs.length;
  const cells: SweepCell[] = new Array(total);
  const workers = options.workers ?? defaultSweepWorkers();
  if (workers <= 0 || total <= 1) {
    for (let i = 0; i < total; i++) {
      if (options.signal?.aborted) throw new Error('Sweep aborted');
      cells[i] = sweepCell(series, { rules: options.rules, ...feeTermsOf(options) }, configs[i]);
      options.onProgress?.(i + 1, total);
    }
    return cells;
  }
  const shared = sharedSeries(series);
  const setup: WorkerSetup = { buffer: bufferOf(shared) as SharedArrayBuffer, length: shared.length, rules: options.rules, fees: feeTermsOf(options) };
  const batch = Math.max(1, Math.min(25, Math.ceil(total / (workers * 8))));
  const entry = workerEntry(__dirname, __filename, 'sweep.worker');
  const pool = Array.from({ length: Math.min(workers, Math.ceil(total / batch)) }, () => new Worker(entry.file, { workerData: setup, execArgv: entry.execArgv }));
  let next = 0;
  let done = 0;
  try {
    await new Promise<void>((resolvePromise, reject) => {
      const feed = (w: Worker) => {
        if (options.signal?.aborted) return reject(new Error('Sweep aborted'));
        if (next >= total) return;
        const start = next;
        next = Math.min(total, next + batch);
        w.postMessage({ start, configs: configs.slice(start, next) } satisfies WorkerJob);
      };
      for (const w of pool) {
        w.on('message', (m: { start: number; cells: SweepCell[] }) => {
          m.cells.forEach((c, k) => (cells[m.start + k] = c));
          done += m.cells.length;
          options.onProgress?.(done, total);
          if (done >= total) resolvePromise();
          else feed(w);
        });
        w.on('error', reject);
        w.on('exit', (code) => {
          if (done < total && code !== 0) reject(new Error(`A sweep worker stopped (exit code ${code})`));
        });
        feed(w);
      }
    });
  } finally {
    await Promise.all(pool.map((w) => w.terminate()));
  }
  return cells;
}
