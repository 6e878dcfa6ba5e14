/**
 * A job pool's worker thread: backtests one piece of a job (a single backtest, or a batch of a
 * sweep's combinations) over the job's candles, shared through a SharedArrayBuffer (not copied).
 */
import { parentPort } from 'node:worker_threads';
import { seriesOver } from '../domain/candle';
import { runBacktest } from '../domain/backtest.engine';
import { sweepCell } from '../domain/sweep';
import type { PieceMessage } from './job-pool';

parentPort!.on('message', (m: PieceMessage) => {
  try {
    const series = seriesOver(m.setup.buffer, m.setup.length);
    const params = { rules: m.setup.rules, ...m.setup.fees };
    if (m.single) {
      const { fillLog: _f, ...result } = runBacktest(series, { ...params, config: m.single });
      parentPort!.postMessage({ piece: m.piece, ok: true, value: result });
    } else {
      const cells = m.configs!.map((c) => sweepCell(series, params, c));
      parentPort!.postMessage({ piece: m.piece, ok: true, value: cells });
    }
  } catch (err) {
    parentPort!.postMessage({ piece: m.piece, ok: false, message: (err as Error)?.message ?? String(err) });
  }
});
