/**
 * `npm run backtest -- --exchange Binance --symbol SOLUSDT --from 2025-01-01 --to 2025-02-01 [--csv file]`
 *
 * Backtests a grid (or sweeps ranges) over the exchange's candles (ccxt, public, cached in
 * <DATA_DIR>/candles.sqlite), the paper venue's history (--source paper) or a CSV of candles, with a
 * progress bar and a table. Grid options default to a 10-order grid from the first open, 0.5 % apart,
 * take-profit 1 %, each buy worth about 20 quote.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SingleBar, Presets } from 'cli-progress';
import { parseExchangeName } from '@gridrocket/exchanges';
import { ceilToStep, floorToStep, type GridConfig } from '@gridrocket/trading/grid';
import { feeTermsOf, runBacktest } from '../domain/backtest.engine';
import { TIMEFRAMES, type Timeframe } from '../domain/candle';
import { SWEEP_MEASURES, bestCell, measureOf, sweepConfigs, type NumberRange, type SweepMeasure, type SweepRanges } from '../domain/sweep';
import { CandleCache } from '../candles/candle-cache';
import { CcxtCandleSource } from '../candles/ccxt.candles';
import type { CandleQuery, CandleSource } from '../candles/candle-source.port';
import { CsvCandleSource } from '../candles/csv.candles';
import { PaperCandleSource } from '../candles/paper.candles';
import { runSweep } from '../sweep/sweep.pool';

const HELP = `Usage: npm run backtest -- --exchange Binance --symbol SOLUSDT --from 2025-01-01 --to 2025-02-01 [options]
  --csv FILE            candles from a CSV (time,open,high,low,close[,volume]) instead of the exchange
  --source exchange|paper   where candles come from without --csv (default exchange)
  --type Spot|Futures   (default Spot)      --leverage N (futures)
  --timeframe 1m|5m|15m|1h|4h|1d (default 1m)
  --entry P --orders N --size S --interval I --tp PCT   the grid (defaults from the first candle)
  --sweep "interval=0.5:2:0.5,orders=5:20:5,tp=0.5:2:0.5"   every combination, in worker threads
  --measure profit|totalReturn|annualisedReturn|returnOverDrawdown (sweep; default profit)
  --fee-bps N           override the venue's fee per fill`;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

function time(value: string | undefined, name: string): number {
  if (!value) fail(`--${name} is required\n\n${HELP}`);
  const t = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  if (!Number.isFinite(t)) fail(`--${name} must be a date (2025-01-31, ISO 8601) or ms since the epoch`);
  return t;
}

function range(text: string): NumberRange {
  const [from, to, step] = text.split(':').map(Number);
  if (![from, to ?? from, step ?? 1].every((x) => Number.isFinite(x) && x > 0)) fail(`Bad range "${text}": use from:to:step`);
  return { from, to: to ?? from, step: step ?? 1 };
}

export function parseSweep(text: string, base: GridConfig): SweepRanges {
  const ranges: SweepRanges = {
    interval: { from: base.interval, to: base.interval, step: 1 },
    numOfOrders: { from: base.numOfOrders, to: base.numOfOrders, step: 1 },
    takeProfit: { from: base.takeProfit, to: base.takeProfit, step: 1 },
  };
  for (const part of text.split(',')) {
    const [k, v] = part.split('=');
    const key = { interval: 'interval', orders: 'numOfOrders', tp: 'takeProfit' }[k.trim()] as keyof SweepRanges | undefined;
    if (!key || !v) fail(`Bad --sweep part "${part}": use interval=a:b:s, orders=a:b:s, tp=a:b:s`);
    ranges[key] = range(v);
  }
  return ranges;
}

const pct = (x: number) => `${(x * 100).toFixed(2)} %`;
const money = (x: number) => x.toFixed(2);

async function main() {
  const { values } = parseArgs({
    options: {
      exchange: { type: 'string' }, symbol: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, csv: { type: 'string' },
      source: { type: 'string' }, type: { type: 'string' }, leverage: { type: 'string' }, timeframe: { type: 'string' },
      entry: { type: 'string' }, orders: { type: 'string' }, size: { type: 'string' }, interval: { type: 'string' }, tp: { type: 'string' },
      sweep: { type: 'string' }, measure: { type: 'string' }, 'fee-bps': { type: 'string' }, help: { type: 'boolean' },
    },
  });
  if (values.help) return console.log(HELP);
  const exchange = parseExchangeName(values.exchange ?? '') ?? fail(`--exchange must be Binance or Kucoin\n\n${HELP}`);
  const symbol = (values.symbol ?? fail(`--symbol is required\n\n${HELP}`)).toUpperCase();
  const botType = (values.type ?? 'Spot').toLowerCase() === 'futures' ? 'Futures' : 'Spot';
  const market = botType === 'Futures' ? 'futures' : 'spot';
  const timeframe = (values.timeframe ?? '1m') as Timeframe;
  if (!(timeframe in TIMEFRAMES)) fail(`--timeframe must be one of ${Object.keys(TIMEFRAMES).join(', ')}`);
  const measure = (values.measure ?? 'profit') as SweepMeasure;
  if (!SWEEP_MEASURES.includes(measure)) fail(`--measure must be one of ${SWEEP_MEASURES.join(', ')}`);

  let source: CandleSource;
  let query: CandleQuery;
  if (values.csv) {
    source = new CsvCandleSource(readFileSync(resolve(values.csv), 'utf8'));
    query = { exchange, market, symbol, timeframe, from: 0, to: Number.MAX_SAFE_INTEGER };
  } else {
    query = { exchange, market, symbol, timeframe, from: time(values.from, 'from'), to: time(values.to, 'to') };
    if (query.to <= query.from) fail('--to must be after --from');
    source = values.source === 'paper' ? new PaperCandleSource() : new CcxtCandleSource({ cache: new CandleCache(join(process.env.DATA_DIR ?? 'data', 'candles.sqlite')) });
  }

  const bar = new SingleBar({ format: '{phase} [{bar}] {percentage}% | {value}/{total}', hideCursor: true }, Presets.shades_classic);
  bar.start(1000, 0, { phase: 'candles ' });
  const terms = await source.terms(query);
  if (values['fee-bps'] !== undefined) terms.feeBps = Number(values['fee-bps']);
  const series = await source.candles(query, (f) => bar.update(Math.round(f * 1000)));
  bar.update(1000);
  bar.stop();
  if (series.length === 0) fail('No candles in this period');

  const first = series.open[0];
  const entry = values.entry ? Number(values.entry) : floorToStep(first, terms.rules.priceStep);
  const orders = values.orders ? Number(values.orders) : 10;
  const interval = values.interval ? Number(values.interval) : Math.max(terms.rules.priceStep, floorToStep(entry * 0.005, terms.rules.priceStep));
  const lowest = entry - (orders - 1) * interval;
  const size = values.size ? Number(values.size) : ceilToStep(Math.max(20, terms.rules.minNotional * 2) / Math.max(lowest, terms.rules.priceStep), terms.rules.amountStep);
  const config: GridConfig = { botType, numOfOrders: orders, orderSize: size, interval, entryPrice: entry, takeProfit: values.tp ? Number(values.tp) : 1, leverage: botType === 'Futures' ? Number(values.leverage ?? 1) : 1 };
  const span = `${new Date(series.time[0]).toISOString()} → ${new Date(series.time[series.length - 1]).toISOString()}`;
  console.log(`${series.length} ${timeframe} candles of ${symbol} on ${exchange} ${market}, ${span}; fee ${terms.feeBps / 100} % (${terms.feeSource})`);

  if (!values.sweep) {
    const r = runBacktest(series, { config, rules: terms.rules, ...feeTermsOf(terms) });
    console.log(`grid: ${orders} buys of ${size} from ${entry} every ${interval}, take-profit ${config.takeProfit} %`);
    console.table({
      capital: money(r.capital), 'realised profit': money(r.profit), 'unrealised P&L': money(r.unrealised), fees: money(r.fees), cycles: r.cycles, fills: r.fills,
      'max drawdown': `${money(r.maxDrawdown)} (${pct(r.maxDrawdownPct)})`, 'time in market': pct(r.timeInMarket), 'total return': pct(r.totalReturn),
      'annualised return': pct(r.annualisedReturn), 'buy and hold': `${money(r.buyAndHold.profit)} (${pct(r.buyAndHold.totalReturn)})`,
    });
    return;
  }
  const configs = sweepConfigs(config, parseSweep(values.sweep, config));
  const sweepBar = new SingleBar({ format: 'sweep    [{bar}] {percentage}% | {value}/{total} combinations | {eta}s', hideCursor: true }, Presets.shades_classic);
  sweepBar.start(configs.length, 0);
  const cells = await runSweep(series, configs, { rules: terms.rules, ...feeTermsOf(terms), onProgress: (d) => sweepBar.update(d) });
  sweepBar.stop();
  const ranked = cells.filter((c) => c.result).sort((a, b) => measureOf(b, measure) - measureOf(a, measure));
  console.table(
    ranked.slice(0, 15).map((c) => ({
      interval: c.interval, orders: c.numOfOrders, 'tp %': c.takeProfit, profit: money(c.result!.profit), unrealised: money(c.result!.unrealised),
      return: pct(c.result!.totalReturn), 'max dd': pct(c.result!.maxDrawdownPct), cycles: c.result!.cycles,
    })),
  );
  const best = bestCell(cells, measure);
  const invalid = cells.length - ranked.length;
  console.log(best ? `best by ${measure}: interval ${best.interval}, ${best.numOfOrders} orders, take-profit ${best.takeProfit} %` : 'no combination could trade');
  if (invalid) console.log(`${invalid} combinations could not trade (e.g. ${cells.find((c) => !c.result)!.error})`);
}

if (require.main === module) {
  main()
    .then(() => process.exit(0))
    .catch((err) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    });
}
