/** The backtest routes and the wait for a result: the owner's socket pushes progress; polling backs it up. */
import { csrfToken, request, type ApiError } from '../api/http';
import { getSocket } from '../api/socket';

export interface BacktestResultView {
  candles: number;
  from: number;
  to: number;
  capital: number;
  profit: number;
  unrealised: number;
  fees: number;
  cycles: number;
  fills: number;
  maxDrawdown: number;
  maxDrawdownPct: number;
  timeInMarket: number;
  endEquity: number;
  totalReturn: number;
  annualisedReturn: number;
  buyAndHold: { profit: number; totalReturn: number };
  curve: { time: number[]; equity: number[] };
}

export interface SweepPoint {
  interval: number;
  numOfOrders: number;
  takeProfit: number;
  profit: number | null;
  unrealised: number | null;
  totalReturn: number | null;
  maxDrawdownPct: number | null;
  cycles: number | null;
  error?: string;
}

/**
 * `running` covers a backtest still waiting for a worker; `interrupted`: it was running when the server
 * stopped (marked at the next start); `cancelled`: its owner cancelled it (DELETE /api/backtests/{id}).
 */
export type BacktestStatus = 'running' | 'done' | 'failed' | 'cancelled' | 'interrupted';

export interface BacktestDoc {
  id: string;
  kind: 'single' | 'sweep';
  status: BacktestStatus;
  error: string | null;
  createdat?: string;
  finishedat?: string | null;
  request?: { symbol: string; exchange: string; timeframe: string; from: number; to: number; candlesId?: string };
  candles: number | null;
  terms: { feeBps: number; feeSource: string } | null;
  result: BacktestResultView | null;
  sweep: { points: SweepPoint[]; best: SweepPoint | null } | null;
}

export interface Range {
  from: number;
  to: number;
  step: number;
}

export type Progress = { phase: 'candles' | 'running'; done: number; total: number };

async function post(url: string, body: unknown): Promise<{ id: string }> {
  const res = await request<{ id: string }>({ url, method: 'POST', body });
  if (res.error) throw res.error;
  return res.data;
}

export const startBacktest = (body: Record<string, unknown>) => post('/api/backtests', body);
export const startSweep = (body: Record<string, unknown>) => post('/api/backtests/sweep', body);

/** A row of GET /api/backtests (newest first): no curve; a sweep's best point and count only. */
export type BacktestListItem = Omit<BacktestDoc, 'sweep' | 'result'> & { sweep: { best: SweepPoint | null; count: number } | null };

export async function listBacktests(): Promise<BacktestListItem[]> {
  const res = await request<BacktestListItem[]>({ url: '/api/backtests' });
  if (res.error) throw res.error;
  return res.data;
}

/**
 * Cancels a waiting or running backtest or sweep: 'cancelled' (204), or 'finished' when it had already
 * finished (409: nothing to cancel, the caller re-reads it). Anything else (404, no connection) throws.
 */
export async function cancelBacktest(id: string): Promise<'cancelled' | 'finished'> {
  const res = await request({ url: `/api/backtests/${id}`, method: 'DELETE' });
  if (!res.error) return 'cancelled';
  if (res.error.status === 409) return 'finished';
  throw res.error;
}

export async function getBacktest(id: string): Promise<BacktestDoc> {
  const res = await request<BacktestDoc>({ url: `/api/backtests/${id}` });
  if (res.error) throw res.error;
  return res.data;
}

/** Resolves with the finished backtest; `onProgress` gets the pushed progress. */
/** `refresh` re-reads the backtest at once (after a cancel refused because it had just finished). */
export function waitForBacktest(id: string, onProgress: (p: Progress) => void, pollMs = 1000): { done: Promise<BacktestDoc>; cancel: () => void; refresh: () => void } {
  let cancelled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const socket = getSocket();
  const progress = (p: Progress & { id: string }) => p.id === id && onProgress(p);
  let wake: () => void = () => undefined;
  const finished = (p: { id: string }) => p.id === id && wake();
  socket?.on('backtest:progress', progress);
  socket?.on('backtest:done', finished);
  const cleanup = () => {
    socket?.off('backtest:progress', progress);
    socket?.off('backtest:done', finished);
    if (timer) clearTimeout(timer);
  };
  const done = (async () => {
    try {
      for (;;) {
        if (cancelled) throw { status: 0, message: 'cancelled' } as ApiError;
        const doc = await getBacktest(id);
        if (doc.status !== 'running') return doc;
        await new Promise<void>((resolve) => {
          wake = resolve;
          timer = setTimeout(resolve, pollMs);
        });
      }
    } finally {
      cleanup();
    }
  })();
  return {
    done,
    cancel: () => {
      cancelled = true;
      wake();
    },
    refresh: () => wake(),
  };
}

/** What the server kept of an uploaded CSV: its id, how many candles, the first and last candle's time (ms). */
export interface UploadSummary {
  candlesId: string;
  candles: number;
  from: number;
  to: number;
  /** The file's name as uploaded, or null. */
  name?: string | null;
}

/** The user's uploads on the server, newest first (from any browser). */
export async function listUploads(): Promise<UploadSummary[]> {
  const res = await request<UploadSummary[]>({ url: '/api/backtests/candles' });
  if (res.error) throw res.error;
  return res.data;
}

/**
 * Uploads a CSV of candles (time,open,high,low,close[,volume]); resolves with its summary. A 409 is the
 * user's upload quota (its message says what to do); a 400 names the bad line under field `csv`.
 */
export async function uploadCandles(csv: string, name?: string): Promise<UploadSummary> {
  const token = await csrfToken();
  const res = await fetch(`/api/backtests/candles${name ? `?name=${encodeURIComponent(name)}` : ''}`, {
    method: 'POST',
    credentials: 'include',
    headers: { 'Content-Type': 'text/csv', Accept: 'application/json', ...(token ? { 'X-CSRF-Token': token } : {}) },
    body: csv,
  });
  const body = await res.json().catch(() => null);
  if (!res.ok) throw { status: res.status, message: body?.message ?? 'The CSV was refused', errors: body?.errors } as ApiError;
  return body;
}

/** Deletes an uploaded CSV: true when deleted, false when the server no longer had it (404). */
export async function deleteUpload(candlesId: string): Promise<boolean> {
  const res = await request({ url: `/api/backtests/candles/${candlesId}`, method: 'DELETE' });
  if (!res.error) return true;
  if (res.error.status === 404) return false;
  throw res.error;
}
