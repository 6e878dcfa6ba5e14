/**
 * A job pool's worker thread: makes a paper history, or backtests one piece of a job (a single
 * backtest, or a batch of a sweep's combinations) over the job's candles, shared through a
 * SharedArrayBuffer (not copied).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { seriesOver } from '../domain/candle';
import { runStyledBacktest } from '../domain/styles';
import { sweepCell } from '../domain/sweep';
import { bufferOf } from '../domain/candle';
import { PaperCandleSource } from '../candles/paper.candles';
import type { PieceMessage } from './job-pool';
import { currentThreadId, niceCurrentThread } from './thread-priority';
import { loadStylePlugins, STYLE_PLUGINS_ENV } from '@gridrocket/shared';

// the plug-in styles (GRIDROCKET_STYLE_PLUGINS, as the pool read it): a thread shares no module with the one that registered them
loadStylePlugins({ [STYLE_PLUGINS_ENV]: (workerData as { stylePlugins?: string } | undefined)?.stylePlugins });

// heavy work yields the CPU to the request thread (the pool's lane for short jobs stays at 0)
const nice = (workerData as { nice?: number } | undefined)?.nice ?? 0;
if (nice > 0) niceCurrentThread(nice);
parentPort!.postMessage({ tid: currentThreadId() });

parentPort!.on('message', async (m: PieceMessage) => {
  try {
    if (m.paper) {
      // the paper venue's history (2.3 s for a year of 1-minute candles): made here, shared, not copied
      const made = await new PaperCandleSource(m.paper.seed, true).candles(m.paper.query);
      parentPort!.postMessage({ piece: m.piece, ok: true, value: { buffer: bufferOf(made), length: made.length } });
      return;
    }
    const series = seriesOver(m.setup!.buffer, m.setup!.length);
    const params = { rules: m.setup!.rules, ...m.setup!.fees };
    if (m.single) {
      const { fillLog: _f, ...result } = runStyledBacktest(series, { ...params, config: m.single });
      parentPort!.postMessage({ piece: m.piece, ok: true, value: result });
    } else {
      const cells = m.configs!.map((c) => sweepCell(series, params, c));
      parentPort!.postMessage({ piece: m.piece, ok: true, value: cells });
    }
  } catch (err) {
    parentPort!.postMessage({ piece: m.piece, ok: false, message: (err as Error)?.message ?? String(err) });
  }
});
