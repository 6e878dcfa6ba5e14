/**
 * Backtest benchmark (issue 15): candles per second per core of
 *  - one backtest (the grid engine over 30 days of 1-minute candles, in this thread),
 *  - a 1,000-combination sweep over the same candles in worker threads (2 here),
 *  - the SAME candles pushed through the runner's live path: each candle's four prints replayed by the
 *    paper venue (CsvReplayFeed) to a real GridRunner bot (embedded SQLite stores, durable appends),
 *    one print at a time, waiting for the bot to converge after each. The ratio is the figure.
 * The runner leg is bounded (BENCH_BT_RUNNER_CANDLES, default 1,000 candles) and checks that the
 * exchange's fills equal the backtest's over those candles.
 *
 * Run alone: `npm run build:server && node -e "require('./dist/bench/backtest.bench').backtestBench({}).then(console.table)"`
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { BotCommandRunner } from '@gridrocket/bots/nest';
import { SqliteEventStore } from '@gridrocket/event-store';
import { SqliteReadStore } from '@gridrocket/read-store';
import { PaperExchangeProvider, PaperVenue } from '@gridrocket/exchanges';
import { CsvReplayFeed } from '@gridrocket/exchanges';
import { PAPER_FEE_BPS } from '@gridrocket/exchanges';
import type { GridConfig, MarketRules } from '@gridrocket/trading/grid';
import { candleAt, candlePath, randomWalkCandles, runBacktest, runSweep, sweepConfigs, type CandleSeries } from '@gridrocket/backtest';
import { benchRunner } from './bench-support';
import { Figure, round } from './stats';

export interface BacktestBenchOptions {
  candles?: number;
  runnerCandles?: number;
  workers?: number;
}

const RULES: MarketRules = { priceStep: 0.01, amountStep: 0.001, minNotional: 5, minAmount: 0.001 };
const GRID: GridConfig = { botType: 'Spot', numOfOrders: 10, orderSize: 0.2, interval: 1, entryPrice: 140, takeProfit: 1, leverage: 1 };

function slice(series: CandleSeries, n: number): CandleSeries {
  return { length: n, time: series.time.subarray(0, n), open: series.open.subarray(0, n), high: series.high.subarray(0, n), low: series.low.subarray(0, n), close: series.close.subarray(0, n) };
}

/** A busy grid: rungs 0.1 % apart, take-profit 0.3 % (many fills: the engine runs often). */
const BUSY: GridConfig = { ...GRID, numOfOrders: 40, interval: 0.15, takeProfit: 0.3 };

/** Candles/s of one backtest, repeated for at least `minMs`. */
function singleRate(series: CandleSeries, config: GridConfig = GRID, minMs = 1500): { rate: number; fills: number } {
  let fills = 0;
  for (let i = 0; i < 5; i++) fills = runBacktest(series, { config, rules: RULES, feeBps: 10 }).fills; // warm-up
  let runs = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < minMs) {
    runBacktest(series, { config, rules: RULES, feeBps: 10 });
    runs++;
  }
  return { rate: (runs * series.length) / ((performance.now() - t0) / 1000), fills };
}

async function runnerRate(series: CandleSeries): Promise<{ rate: number; fills: number; agree: boolean }> {
  const dir = mkdtempSync(join(tmpdir(), 'gr-btbench-'));
  const T0 = 1_000_000;
  const rows = ['ms,exchange,symbol,price'];
  const prints: number[] = [];
  for (let i = 0; i < series.length; i++) {
    for (const p of candlePath(candleAt(series, i))) {
      const ms = T0 + prints.length * 1000;
      prints.push(ms);
      rows.push(`${ms},Binance,SOLUSDT,${p}`);
    }
  }
  const venue = new PaperVenue({ store: join(dir, 'paper.sqlite'), feed: new CsvReplayFeed(rows.join('\n')), startingUsdt: '100000' });
  const provider = new PaperExchangeProvider(venue);
  const events = new SqliteEventStore(join(dir, 'events.sqlite'));
  const reads = new SqliteReadStore(join(dir, 'read.sqlite'));
  venue.advanceTo(T0);
  const runner = benchRunner(events, reads, provider);
  await runner.start();
  const userId = 'bench-user';
  const id = randomUUID();
  const ctx = { userId, correlationId: randomUUID() };
  const cmd = new BotCommandRunner(events);
  await cmd.run({ type: 'CreateBot', botId: id, userId, botType: 'Spot', config: { exchange: 'Binance', symbol: 'SOLUSDT', numOfOrders: GRID.numOfOrders, orderSize: GRID.orderSize, interval: GRID.interval, entryPrice: GRID.entryPrice, takeProfit: GRID.takeProfit, leverage: 1 } }, ctx);
  await cmd.run({ type: 'StartBot', botId: id, userId }, ctx);
  for (let i = 0; i < 200 && runner.runningBots().length < 1; i++) await new Promise((r) => setTimeout(r, 25));
  await runner.idle();
  const t0 = performance.now();
  for (let k = 1; k < prints.length; k++) {
    venue.advanceTo(prints[k]);
    await runner.idle();
  }
  const seconds = (performance.now() - t0) / 1000;
  const port = await provider.for({ userId, exchange: 'Binance', market: 'spot' });
  const exchangeFills = (await port.recentFills('SOLUSDT', 0)).map((f) => `${f.side} ${f.price} ${f.amount} ${f.fee}`);
  const bt = runBacktest(series, { config: GRID, rules: RULES, feeBps: PAPER_FEE_BPS.spot, recordFills: true });
  const agree = JSON.stringify(bt.fillLog!.map((f) => `${f.side} ${f.price} ${f.amount} ${f.fee}`)) === JSON.stringify(exchangeFills);
  await runner.stop();
  await events.close();
  await reads.close();
  venue.close();
  rmSync(dir, { recursive: true, force: true });
  return { rate: series.length / seconds, fills: exchangeFills.length, agree };
}

export async function backtestBench(options: BacktestBenchOptions = {}): Promise<Figure[]> {
  const n = options.candles ?? Number(process.env.BENCH_BT_CANDLES ?? 43_200);
  const runnerCandles = Math.min(n, options.runnerCandles ?? Number(process.env.BENCH_BT_RUNNER_CANDLES ?? 1000));
  const workers = options.workers ?? Math.min(2, availableParallelism());
  const series = randomWalkCandles({ seed: 'bench', startPrice: 140, priceStep: 0.01, from: 1_700_000_000_000, count: n, timeframeMs: 60_000, ticksPerCandle: 6, maxMoveBps: 5, shared: true });

  const single = singleRate(series);
  const busy = singleRate(series, BUSY);

  const configs = sweepConfigs(GRID, {
    interval: { from: 0.2, to: 2, step: 0.2 },
    numOfOrders: { from: 5, to: 50, step: 5 },
    takeProfit: { from: 0.3, to: 3, step: 0.3 },
  });
  const t0 = performance.now();
  const cells = await runSweep(series, configs, { rules: RULES, feeBps: 10, workers });
  const sweepSeconds = (performance.now() - t0) / 1000;
  const failed = cells.filter((c) => !c.result).length;
  const sweepRate = (configs.length * n) / sweepSeconds / workers;

  const live = await runnerRate(slice(series, runnerCandles));

  return [
    { name: `backtest: one grid over ${n} 1-minute candles (${single.fills} fills), one core`, value: Math.round(single.rate), unit: 'candles/s/core', aim: '≥ 2,000,000' },
    { name: `backtest: a busy grid (40 rungs 0.15 apart, take-profit 0.3 %; ${busy.fills} fills), one core`, value: Math.round(busy.rate), unit: 'candles/s/core', aim: '≥ 2,000,000' },
    { name: `backtest: sweep of ${configs.length} combinations × ${n} candles, ${workers} worker threads`, value: round(sweepSeconds, 1), unit: 's', aim: '< 60 s' },
    { name: `backtest: sweep throughput (${failed} combinations could not trade)`, value: Math.round(sweepRate), unit: 'candles/s/core' },
    { name: `runner live path: same candles, 4 prints each, paper venue + GridRunner (${runnerCandles} candles, ${live.fills} fills)`, value: round(live.rate, 1), unit: 'candles/s' },
    { name: `runner live path: fills identical to the backtest's over those candles`, value: live.agree ? 1 : 0, unit: live.agree ? 'yes' : 'NO' },
    { name: 'ratio: one backtest ÷ runner live path', value: Math.round(single.rate / live.rate), unit: '×' },
    { name: 'ratio: sweep per core ÷ runner live path', value: Math.round(sweepRate / live.rate), unit: '×' },
  ];
}
