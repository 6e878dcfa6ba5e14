/**
 * "Backtest last 30 days" beside the bot form: the form's grid over the 30 days before today of candles
 * of the pair (issue 40: the venue's own where the server reaches it, else the simulated history, named
 * and badged as such: BacktestResult.tsx), its figures and equity curve; and a sweep of interval × grid size × take-profit shown as a heatmap whose cells fill the form.
 * A running backtest or sweep can be cancelled; the CSVs uploaded here are listed (count, range) and can
 * be deleted; the user's recent backtests show their status (cancelled, interrupted, failed and why).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiError } from '../api/http';
import { getSocket } from '../api/socket';
import type { BotType } from '../api/types';
import { BacktestResult, HistoryNote } from './BacktestResult';
import { RecentBacktests } from './RecentBacktests';
import { RunEnd, Running, type Kind, type RangeKey, type Run } from './RunStatus';
import { SweepHeatmap } from './SweepHeatmap';
import {
  cancelBacktest,
  deleteUpload,
  listBacktests,
  startBacktest,
  startSweep,
  uploadCandles,
  listUploads,
  waitForBacktest,
  type BacktestListItem,
  type Range,
  type UploadSummary,
} from './backtestApi';
import type { Direction } from '../styles/registry';
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
  /** Issue 32: a futures bot's direction (the backtest trades the grid the form describes). */
  direction?: Direction;
  /** The form is not valid yet: nothing to backtest. */
  disabled: boolean;
  onApply: (p: { interval: number; numOfOrders: number; takeProfit: number | null }) => void;
}

const RANGE_KEYS: readonly RangeKey[] = ['interval', 'numOfOrders', 'takeProfit'];

type Upload = UploadSummary & { name: string };

const utc = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
const RANGE_LABEL: Record<RangeKey, string> = { interval: 'Interval range', numOfOrders: 'Orders range', takeProfit: 'Take-profit range (%)' };

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
  if (e?.errors?.length) return e.errors.map((x) => inFormWords(x.message)).join('; ');
  return e?.message ?? 'The backtest could not run';
}

const FIELD_WORDS: Record<string, string> = { interval: 'Price interval', numOfOrders: 'Grid size', takeProfit: 'Take profit' };
/** A server message in the form's words (issue 29, finding 9): "numOfOrders.to must be …" → "Grid size to must be …". */
export function inFormWords(text: string): string {
  return text.replace(/\b(interval|numOfOrders|takeProfit)(?:\.(from|to|step))?\b/g, (_, f: string, part?: string) => (part ? `${FIELD_WORDS[f]} “${part}”` : FIELD_WORDS[f]));
}

/** A refused sweep: the field errors of `ranges.<field>` (and `ranges.<field>.from` …) go next to their input. */
function sweepFailure(err: unknown): Extract<Run, { state: 'failed' }> {
  const e = err as ApiError;
  const ranges: Partial<Record<RangeKey, string>> = {};
  const rest: string[] = [];
  for (const x of e?.errors ?? []) {
    const key = RANGE_KEYS.find((k) => x.field === `ranges.${k}` || x.field.startsWith(`ranges.${k}.`));
    const text = inFormWords(x.message);
    if (key) ranges[key] = ranges[key] ? `${ranges[key]}; ${text}` : text;
    else rest.push(text);
  }
  if (!Object.keys(ranges).length) return { state: 'failed', message: message(err) };
  return { state: 'failed', message: rest.length ? rest.join('; ') : '', ranges };
}


export function BacktestPanel({ botType, values, leverage, direction, disabled, onApply }: Props) {
  const [single, setSingle] = useState<Run>({ state: 'idle' });
  const [sweep, setSweep] = useState<Run>({ state: 'idle' });
  const [sweepOpen, setSweepOpen] = useState(false);
  const [ranges, setRanges] = useState(() => defaultRanges(values));
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [uploadNote, setUploadNote] = useState<{ error: boolean; text: string } | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [recent, setRecent] = useState<BacktestListItem[]>([]);
  const [listError, setListError] = useState<string | null>(null);
  const cancels = useRef<Array<() => void>>([]);
  // the wait of the run of each kind now shown, and a counter so that an older run never overwrites a newer one
  const waits = useRef<Partial<Record<Kind, ReturnType<typeof waitForBacktest>>>>({});
  const seq = useRef<Record<Kind, number>>({ single: 0, sweep: 0 });
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      cancels.current.forEach((c) => c());
    };
  }, []);

  const refreshList = useCallback(async () => {
    try {
      const list = await listBacktests();
      if (mounted.current) {
        setRecent(list);
        setListError(null);
      }
    } catch {
      // the list is a convenience: the runs shown above do not depend on it
    }
  }, []);
  // the uploads already on the server (earlier visits, other browsers): what "Delete an upload first" needs
  useEffect(() => {
    listUploads()
      .then((list) => {
        if (!mounted.current) return;
        setUploads((shown) => [...shown, ...list.filter((u) => !shown.some((s) => s.candlesId === u.candlesId)).map((u) => ({ ...u, name: u.name || 'Uploaded CSV' }))]);
      })
      .catch(() => undefined); // a convenience, like the recent list
  }, []);

  useEffect(() => {
    void refreshList();
    const socket = getSocket();
    const onDone = () => void refreshList();
    socket?.on('backtest:done', onDone);
    return () => {
      socket?.off('backtest:done', onDone);
    };
  }, [refreshList]);

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
    // (neutral is sent too: the server backtests the neutral grid, issue 32, never a long one in its place)
    ...(botType === 'Futures' && direction !== undefined && direction !== 'long' ? { direction } : {}),
    days: 30,
  });

  const setterOf = (kind: Kind) => (kind === 'single' ? setSingle : setSweep);

  const run = async (kind: Kind, source?: { file: File } | { candlesId: string }) => {
    const token = ++seq.current[kind];
    const set = (next: Run | ((r: Run) => Run)) => {
      if (mounted.current && seq.current[kind] === token) setterOf(kind)(next);
    };
    set({ state: 'running', id: null, progress: null });
    try {
      let id: string;
      if (kind === 'single') {
        let candles: string | undefined;
        if (source && 'file' in source) {
          setUploadNote(null);
          const text = await source.file.text();
          let up: UploadSummary;
          try {
            up = await uploadCandles(text, source.file.name);
          } catch (err) {
            const e = err as ApiError;
            throw { ...e, message: `${source.file.name} was not uploaded: ${message(err)}`, errors: undefined } as ApiError;
          }
          setUploads((list) => [{ ...up, name: source.file.name }, ...list.filter((u) => u.candlesId !== up.candlesId)]);
          candles = up.candlesId;
        } else if (source) candles = source.candlesId;
        id = (await startBacktest({ ...body(), ...(candles ? { candles } : {}) })).id;
      } else {
        const r = { interval: parseRange(ranges.interval), numOfOrders: parseRange(ranges.numOfOrders), takeProfit: parseRange(ranges.takeProfit) };
        const bad = RANGE_KEYS.filter((k) => r[k] === null);
        if (bad.length) {
          set({ state: 'failed', message: '', ranges: Object.fromEntries(bad.map((k) => [k, `The ${RANGE_LABEL[k].toLowerCase()} must be from:to:step with numbers above 0`])) });
          return;
        }
        try {
          id = (await startSweep({ ...body(), ranges: r as { [K in keyof typeof r]: NonNullable<(typeof r)[K]> }, measure: 'profit' })).id;
        } catch (err) {
          set(sweepFailure(err));
          return;
        }
      }
      set({ state: 'running', id, progress: null });
      void refreshList();
      const wait = waitForBacktest(id, (progress) => set((cur) => (cur.state === 'running' ? { ...cur, progress } : cur)));
      cancels.current.push(wait.cancel);
      waits.current[kind] = wait;
      const doc = await wait.done;
      set(doc.status === 'done' ? { state: 'done', doc } : { state: 'ended', status: doc.status === 'running' ? 'failed' : doc.status, error: doc.error });
      void refreshList();
    } catch (err) {
      if ((err as ApiError)?.message === 'cancelled') return;
      set({ state: 'failed', message: message(err) });
    }
  };

  /** Cancels the run of `kind` shown now: "Cancelled" at once; a 409 (it had just finished) re-reads it quietly. */
  const cancelRun = async (kind: Kind) => {
    const current = kind === 'single' ? single : sweep;
    if (current.state !== 'running' || !current.id) return;
    const { id } = current;
    const token = seq.current[kind];
    const set = (next: Run | ((r: Run) => Run)) => {
      if (mounted.current && seq.current[kind] === token) setterOf(kind)(next);
    };
    set((r) => (r.state === 'running' ? { ...r, cancelling: true, cancelError: undefined } : r));
    try {
      const outcome = await cancelBacktest(id);
      if (outcome === 'cancelled') {
        set({ state: 'ended', status: 'cancelled', error: null });
        waits.current[kind]?.cancel();
      } else {
        set((r) => (r.state === 'running' ? { ...r, cancelling: false } : r));
        waits.current[kind]?.refresh();
      }
    } catch (err) {
      set((r) => (r.state === 'running' ? { ...r, cancelling: false, cancelError: `Not cancelled: ${message(err)}` } : r));
    }
    void refreshList();
  };

  /** Cancel from the list: the run shown above if it is that one, else the listed backtest alone. */
  const cancelListed = async (id: string) => {
    for (const kind of ['single', 'sweep'] as const) {
      const cur = kind === 'single' ? single : sweep;
      if (cur.state === 'running' && cur.id === id) return cancelRun(kind);
    }
    try {
      await cancelBacktest(id); // 409: it had finished; the refresh shows how
      setListError(null);
    } catch (err) {
      setListError(`Not cancelled: ${message(err)}`);
    }
    void refreshList();
  };

  const removeUpload = async (u: Upload) => {
    setDeleting(u.candlesId);
    setUploadNote(null);
    try {
      const deleted = await deleteUpload(u.candlesId);
      setUploads((list) => list.filter((x) => x.candlesId !== u.candlesId));
      setUploadNote({ error: false, text: deleted ? `${u.name} deleted.` : `${u.name} was already gone.` });
    } catch (err) {
      setUploadNote({ error: true, text: `${u.name} was not deleted: ${message(err)}` });
    } finally {
      if (mounted.current) setDeleting(null);
    }
  };

  const sweepErrors = sweep.state === 'failed' ? (sweep.ranges ?? {}) : {};
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
              if (file) void run('single', { file });
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
      {uploads.length ? (
        <ul className="backtest__uploads" aria-label="Uploaded candles">
          {uploads.map((u) => (
            <li key={u.candlesId} data-testid="upload">
              <span className="backtest__upload-name">{u.name}</span>
              <span className="backtest__upload-info">
                {u.candles} candles, {utc(u.from)} → {utc(u.to)}
              </span>
              <button type="button" className="link link--small" disabled={disabled || single.state === 'running'} onClick={() => run('single', { candlesId: u.candlesId })}
                aria-label={`Backtest ${u.name}`}>
                Backtest
              </button>
              <button type="button" className="link link--small backtest__delete" disabled={deleting === u.candlesId} onClick={() => removeUpload(u)} aria-label={`Delete ${u.name}`}>
                Delete
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {uploadNote ? (
        <p className={uploadNote.error ? 'field__error' : 'backtest__note'} role={uploadNote.error ? 'alert' : 'status'}>
          {uploadNote.text}
        </p>
      ) : null}
      {single.state === 'running' ? <Running run={single} kind="single" onCancel={() => cancelRun('single')} /> : null}
      <RunEnd run={single} />
      {single.state === 'done' ? <BacktestResult doc={single.doc} /> : null}
      {sweepOpen ? (
        <div className="backtest__sweep">
          <div className="backtest__ranges">
            {RANGE_KEYS.map((k) => (
              <label key={k}>
                <span>{RANGE_LABEL[k]} from:to:step</span>
                <input
                  name={`sweep-${k}`}
                  value={ranges[k]}
                  onChange={(e) => {
                    setRanges((r) => ({ ...r, [k]: e.target.value }));
                    // an edited range drops its message
                    setSweep((s) => (s.state === 'failed' && s.ranges?.[k] ? { ...s, ranges: { ...s.ranges, [k]: undefined } } : s));
                  }}
                  autoComplete="off"
                  spellCheck={false}
                  aria-invalid={sweepErrors[k] ? true : undefined}
                  aria-describedby={sweepErrors[k] ? `sweep-${k}-error` : undefined}
                />
                {sweepErrors[k] ? (
                  <span className="field__error backtest__range-error" id={`sweep-${k}-error`} data-testid={`sweep-${k}-error`}>
                    {sweepErrors[k]}
                  </span>
                ) : null}
              </label>
            ))}
            <button type="button" className="btn btn--ghost" disabled={disabled || sweep.state === 'running'} onClick={() => run('sweep')}>
              Run sweep
            </button>
          </div>
          {sweep.state === 'running' ? <Running run={sweep} kind="sweep" onCancel={() => cancelRun('sweep')} /> : null}
          <RunEnd run={sweep} />
          {sweep.state === 'done' && sweep.doc.sweep ? (
            <>
              <HistoryNote history={sweep.doc.history} />
              <SweepHeatmap points={sweep.doc.sweep.points} best={sweep.doc.sweep.best} onPick={onApply} />
            </>
          ) : null}
        </div>
      ) : null}
      <RecentBacktests recent={recent} error={listError} onCancel={(id) => void cancelListed(id)} />
    </section>
  );
}
