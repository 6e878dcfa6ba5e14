/** The backtest routes and the wait for a result: the owner's socket pushes progress; polling backs it up. */
import { apiPath, type Answer, type Body } from '../api/contract';
import { csrfToken, request, type ApiError } from '../api/http';
import { getSocket } from '../api/socket';

/** A backtest as GET /api/backtests/{id} answers it (the document's Backtest: the engine's result, the sweep's points). */
export type BacktestDoc = Answer<'/api/backtests/{id}', 'get'>;
export type BacktestResultView = NonNullable<BacktestDoc['result']>;
export type SweepPoint = NonNullable<BacktestDoc['sweep']>['points'][number];

/**
 * Where a backtest's candles came from (issue 40): the venue's own (ccxt's public OHLCV, cached), the
 * fixed, seeded simulated history (not market prices: where the server does not reach the venue), or the
 * user's CSV. `label` is the server's words for it; the panel adds a "Simulated" badge.
 */
export type BacktestHistoryView = NonNullable<BacktestDoc['history']>;

/**
 * `running` covers a backtest still waiting for a worker; `interrupted`: it was running when the server
 * stopped (marked at the next start); `cancelled`: its owner cancelled it (DELETE /api/backtests/{id}).
 */
export type BacktestStatus = BacktestDoc['status'];

export interface Range {
  from: number;
  to: number;
  step: number;
}

export type Progress = { phase: 'candles' | 'running'; done: number; total: number };

async function accepted(res: Awaited<ReturnType<typeof request<Answer<'/api/backtests', 'post'>>>>): Promise<Answer<'/api/backtests', 'post'>> {
  if (res.error) throw res.error;
  return res.data;
}

export const startBacktest = async (body: Body<'/api/backtests', 'post'>) => accepted(await request({ url: apiPath('/api/backtests'), method: 'POST', body }));
export const startSweep = async (body: Body<'/api/backtests/sweep', 'post'>) => accepted(await request({ url: apiPath('/api/backtests/sweep'), method: 'POST', body }));

/** A row of GET /api/backtests (newest first): no curve; a sweep's best point and count only. */
export type BacktestListItem = Answer<'/api/backtests', 'get'>[number];

export async function listBacktests(): Promise<BacktestListItem[]> {
  const res = await request<BacktestListItem[]>({ url: apiPath('/api/backtests') });
  if (res.error) throw res.error;
  return res.data;
}

/**
 * Cancels a waiting or running backtest or sweep: 'cancelled' (204), or 'finished' when it had already
 * finished (409: nothing to cancel, the caller re-reads it). Anything else (404, no connection) throws.
 */
export async function cancelBacktest(id: string): Promise<'cancelled' | 'finished'> {
  const res = await request({ url: apiPath('/api/backtests/{id}', { id }), method: 'DELETE' });
  if (!res.error) return 'cancelled';
  if (res.error.status === 409) return 'finished';
  throw res.error;
}

export async function getBacktest(id: string): Promise<BacktestDoc> {
  const res = await request<BacktestDoc>({ url: apiPath('/api/backtests/{id}', { id }) });
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

/** What the server kept of an uploaded CSV: its id, how many candles, the first and last candle's time (ms), its name or null. */
export type UploadSummary = Answer<'/api/backtests/candles', 'post'>;

/** The user's uploads on the server, newest first (from any browser). */
export async function listUploads(): Promise<Answer<'/api/backtests/candles', 'get'>> {
  const res = await request<Answer<'/api/backtests/candles', 'get'>>({ url: apiPath('/api/backtests/candles') });
  if (res.error) throw res.error;
  return res.data;
}

/**
 * Uploads a CSV of candles (time,open,high,low,close[,volume]); resolves with its summary. A 409 is the
 * user's upload quota (its message says what to do); a 400 names the bad line under field `csv`.
 */
export async function uploadCandles(csv: string, name?: string): Promise<UploadSummary> {
  const token = await csrfToken();
  const res = await fetch(`${apiPath('/api/backtests/candles')}${name ? `?name=${encodeURIComponent(name)}` : ''}`, {
    method: 'POST',
    credentials: 'include',
    headers: { 'Content-Type': 'text/csv', Accept: 'application/json', ...(token ? { 'X-CSRF-Token': token } : {}) },
    body: csv,
  });
  const body = await res.json().catch(() => null);
  if (!res.ok) throw { status: res.status, message: body?.message ?? 'The CSV was refused', errors: body?.errors } as ApiError;
  return body as UploadSummary;
}

/** Deletes an uploaded CSV: true when deleted, false when the server no longer had it (404). */
export async function deleteUpload(candlesId: string): Promise<boolean> {
  const res = await request({ url: apiPath('/api/backtests/candles/{id}', { id: candlesId }), method: 'DELETE' });
  if (!res.error) return true;
  if (res.error.status === 404) return false;
  throw res.error;
}
