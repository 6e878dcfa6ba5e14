/**
 * "Backtest last 30 days" beside the bot form: the form's grid over the last 30 days of candles of
 * the pair (the paper venue's history in paper mode, the exchange's otherwise), its figures and equity
 * curve; and a sweep of interval × grid size × take-profit shown as a heatmap whose cells fill the form.
 */
import { useEffect, useRef, useState } from 'react';
import type { ApiError } from '../api/http';
import type { BotType } from '../api/types';
import { EquityCurve } from './EquityCurve';
import { SweepHeatmap } from './SweepHeatmap';
import { startBacktest, startSweep, uploadCandles, waitForBacktest, type BacktestDoc, type Progress, type Range } from './backtestApi';
import './backtest.css';

export interface GridValues {
  exchange: string;
  symbol: string;
  entryPrice: string;
  numOfOrders: string;
  orderSize: string;
  interval: string;
  takeProfit: string;
}

interface Props {
  botType: BotType;
  values: GridValues;
  leverage?: number;
  /** The form is not valid yet: nothing to backtest. */
  disabled: boolean;
  onApply: (p: { interval: number; numOfOrders: number; takeProfit: number }) => void;
}

type Run = { state: 'idle' } | { state: 'running'; progress: Progress | null } | { state: 'done'; doc: BacktestDoc } | { state: 'failed'; message: string };

const pct = (x: number) => `${(x * 100).toFixed(2)} %`;
const usd = (x: number) => `${x.toFixed(2)} USDT`;
const fmt = (x: number) => String(Number(x.toPrecision(6)));

function defaultRanges(v: GridValues): Record<'interval' | 'numOfOrders' | 'takeProfit', string> {
  const iv = Number(v.interval) || 1;
  const n = Math.floor(Number(v.numOfOrders)) || 5;
  return {
    interval: `${fmt(iv * 0.5)}:${fmt(iv * 1.5)}:${fmt(iv * 0.25)}`,
    numOfOrders: `${Math.max(1, n - 4)}:${Math.min(99, n + 4)}:2`,
    takeProfit: '0.5:2.5:0.5',
  };
}

function parseRange(text: string): Range | null {
  const [from, to, step] = text.split(':').map((s) => Number(s.trim()));
  if (![from, to, step].every((x) => Number.isFinite(x) && x > 0) || to < from) return null;
  return { from, to, step };
}

function message(err: unknown): string {
  const e = err as ApiError;
  if (e?.errors?.length) return e.errors.map((x) => x.message).join('; ');
  return e?.message ?? 'The backtest could not run';
}

function ProgressBar({ progress }: { progress: Progress | null }) {
  const share = progress && progress.total ? progress.done / progress.total : 0;
  const label = progress?.phase === 'running' ? 'Backtesting' : 'Loading candles';
  return (
    <div className="backtest__progress" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(share * 100)}>
      <span>{label}…</span>
      <span className="backtest__bar">
        <span style={{ width: `${Math.round(share * 100)}%` }} />
      </span>
    </div>
  );
}

export function BacktestPanel({ botType, values, leverage, disabled, onApply }: Props) {
  const [single, setSingle] = useState<Run>({ state: 'idle' });
  const [sweep, setSweep] = useState<Run>({ state: 'idle' });
  const [sweepOpen, setSweepOpen] = useState(false);
  const [ranges, setRanges] = useState(() => defaultRanges(values));
  const cancels = useRef<Array<() => void>>([]);
  useEffect(() => () => cancels.current.forEach((c) => c()), []);

  const body = () => ({
    exchange: values.exchange,
    symbol: values.symbol,
    botType,
    entryPrice: Number(values.entryPrice),
    numOfOrders: Number(values.numOfOrders),
    orderSize: Number(values.orderSize),
    interval: Number(values.interval),
    takeProfit: Number(values.takeProfit),
    ...(botType === 'Futures' && leverage ? { leverage } : {}),
    days: 30,
  });

  const run = async (kind: 'single' | 'sweep', csv?: File) => {
    const set = kind === 'single' ? setSingle : setSweep;
    set({ state: 'running', progress: null });
    try {
      let id: string;
      if (kind === 'single') {
        const candles = csv ? (await uploadCandles(await csv.text())).candlesId : undefined;
        id = (await startBacktest({ ...body(), ...(candles ? { candles } : {}) })).id;
      }
      else {
        const r = { interval: parseRange(ranges.interval), numOfOrders: parseRange(ranges.numOfOrders), takeProfit: parseRange(ranges.takeProfit) };
        const bad = Object.entries(r).find(([, v]) => v === null);
        if (bad) throw { status: 400, message: `The ${bad[0]} range must be from:to:step with numbers above 0` };
        id = (await startSweep({ ...body(), ranges: r, measure: 'profit' })).id;
      }
      const wait = waitForBacktest(id, (progress) => set({ state: 'running', progress }));
      cancels.current.push(wait.cancel);
      const doc = await wait.done;
      set(doc.status === 'done' ? { state: 'done', doc } : { state: 'failed', message: doc.error ?? 'The backtest failed' });
    } catch (err) {
      if ((err as ApiError)?.message === 'cancelled') return;
      set({ state: 'failed', message: message(err) });
    }
  };

  const result = single.state === 'done' ? single.doc.result : null;
  return (
    <section className="backtest" aria-label="Backtest">
      <div className="backtest__actions">
        <button type="button" className="btn btn--ghost" disabled={disabled || single.state === 'running'} onClick={() => run('single')}>
          Backtest last 30 days
        </button>
        <label className={disabled ? 'link link--small backtest__file backtest__file--disabled' : 'link link--small backtest__file'}>
          Backtest a CSV of candles…
          <input
            type="file"
            accept=".csv,text/csv,text/plain"
            disabled={disabled || single.state === 'running'}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) void run('single', file);
            }}
          />
        </label>
        <button type="button" className="link link--small" disabled={disabled} onClick={() => {
            // ranges around the form's values as they are now
            if (!sweepOpen) setRanges(defaultRanges(values));
            setSweepOpen((o) => !o);
          }}
          aria-expanded={sweepOpen}
        >
          {sweepOpen ? 'Hide sweep' : 'Sweep parameters…'}
        </button>
      </div>
      {single.state === 'running' ? <ProgressBar progress={single.progress} /> : null}
      {single.state === 'failed' ? (
        <p className="field__error" role="alert">
          {single.message}
        </p>
      ) : null}
      {result ? (
        <div className="backtest__result" data-testid="backtest-result">
          <EquityCurve time={result.curve.time} equity={result.curve.equity} capital={result.capital} />
          <dl className="backtest__figures">
            <div><dt>Realised profit</dt><dd data-testid="backtest-profit">{usd(result.profit)}</dd></div>
            <div><dt>Unrealised P&amp;L</dt><dd>{usd(result.unrealised)}</dd></div>
            <div><dt>Fees</dt><dd>{usd(result.fees)}</dd></div>
            <div><dt>Cycles / fills</dt><dd>{result.cycles} / {result.fills}</dd></div>
            <div><dt>Max drawdown</dt><dd>{usd(result.maxDrawdown)} ({pct(result.maxDrawdownPct)})</dd></div>
            <div><dt>Time in market</dt><dd>{pct(result.timeInMarket)}</dd></div>
            <div><dt>Return (annualised)</dt><dd>{pct(result.totalReturn)} ({pct(result.annualisedReturn)})</dd></div>
            <div><dt>Buy and hold</dt><dd>{usd(result.buyAndHold.profit)} ({pct(result.buyAndHold.totalReturn)})</dd></div>
          </dl>
          <p className="backtest__note">
            {single.state === 'done' ? `${single.doc.candles} candles, capital ${usd(result.capital)}, ${single.doc.terms?.feeSource ?? ''}` : null}
          </p>
        </div>
      ) : null}
      {sweepOpen ? (
        <div className="backtest__sweep">
          <div className="backtest__ranges">
            {(['interval', 'numOfOrders', 'takeProfit'] as const).map((k) => (
              <label key={k}>
                <span>{k === 'interval' ? 'Interval range' : k === 'numOfOrders' ? 'Orders range' : 'Take-profit range (%)'} from:to:step</span>
                <input name={`sweep-${k}`} value={ranges[k]} onChange={(e) => setRanges((r) => ({ ...r, [k]: e.target.value }))} autoComplete="off" spellCheck={false} />
              </label>
            ))}
            <button type="button" className="btn btn--ghost" disabled={disabled || sweep.state === 'running'} onClick={() => run('sweep')}>
              Run sweep
            </button>
          </div>
          {sweep.state === 'running' ? <ProgressBar progress={sweep.progress} /> : null}
          {sweep.state === 'failed' ? (
            <p className="field__error" role="alert">
              {sweep.message}
            </p>
          ) : null}
          {sweep.state === 'done' && sweep.doc.sweep ? <SweepHeatmap points={sweep.doc.sweep.points} best={sweep.doc.sweep.best} onPick={onApply} /> : null}
        </div>
      ) : null}
    </section>
  );
}
