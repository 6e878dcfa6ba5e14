/** A sweep worker thread: backtests the configurations it is sent over the shared candles. */
import { parentPort, workerData } from 'node:worker_threads';
import { seriesOver } from '../domain/candle';
import { sweepCell } from '../domain/sweep';
import type { WorkerSetup, WorkerJob } from './sweep.pool';

const setup = workerData as WorkerSetup;
const series = seriesOver(setup.buffer, setup.length);
parentPort!.on('message', (job: WorkerJob) => {
  const cells = job.configs.map((c) => sweepCell(series, { rules: setup.rules, ...setup.fees }, c));
  parentPort!.postMessage({ start: job.start, cells });
});
