/**
 * Candles as columns (one Float64Array per field): a year of 1-minute candles is 525,600 rows, and a
 * sweep shares the same arrays with its worker threads through one SharedArrayBuffer.
 */
export interface Candle {
  /** Open time, ms since the epoch (UTC). */
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume?: number;
}

export interface CandleSeries {
  length: number;
  time: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
}

const FIELDS = 5;

/** Columns over one buffer (a SharedArrayBuffer when `shared`). */
export function allocateSeries(length: number, shared = false): CandleSeries {
  const bytes = Math.max(1, length) * FIELDS * Float64Array.BYTES_PER_ELEMENT;
  const buffer = shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes);
  return seriesOver(buffer, length);
}

/** The columns of a buffer made by allocateSeries (e.g. received by a worker). */
export function seriesOver(buffer: ArrayBufferLike, length: number): CandleSeries {
  const col = (i: number) => new Float64Array(buffer, i * Math.max(1, length) * 8, length);
  return { length, time: col(0), open: col(1), high: col(2), low: col(3), close: col(4) };
}

export function bufferOf(series: CandleSeries): ArrayBufferLike {
  return series.time.buffer;
}

/** The series itself when its columns already live in one SharedArrayBuffer, else a shared copy (for worker threads). */
export function sharedSeries(series: CandleSeries): CandleSeries {
  if (bufferOf(series) instanceof SharedArrayBuffer) return series;
  const s = allocateSeries(series.length, true);
  s.time.set(series.time);
  s.open.set(series.open);
  s.high.set(series.high);
  s.low.set(series.low);
  s.close.set(series.close);
  return s;
}

/** Columns from candle objects, sorted by time (a later duplicate time wins). */
export function toSeries(candles: readonly Candle[], shared = false): CandleSeries {
  const sorted = [...candles].sort((a, b) => a.time - b.time);
  const rows: Candle[] = [];
  for (const c of sorted) {
    if (rows.length && rows[rows.length - 1].time === c.time) rows[rows.length - 1] = c;
    else rows.push(c);
  }
  const s = allocateSeries(rows.length, shared);
  rows.forEach((c, i) => {
    s.time[i] = c.time;
    s.open[i] = c.open;
    s.high[i] = c.high;
    s.low[i] = c.low;
    s.close[i] = c.close;
  });
  return s;
}

export function candleAt(s: CandleSeries, i: number): Candle {
  return { time: s.time[i], open: s.open[i], high: s.high[i], low: s.low[i], close: s.close[i] };
}

/** Why a candle is unusable, or null: prices finite and > 0, low ≤ open, close ≤ high. */
export function candleProblem(c: Candle): string | null {
  const values = [c.open, c.high, c.low, c.close];
  if (!Number.isFinite(c.time)) return 'time is not a number';
  if (values.some((v) => !Number.isFinite(v) || v <= 0)) return 'prices must be numbers above 0';
  if (c.low > Math.min(c.open, c.close) || c.high < Math.max(c.open, c.close)) return 'low/high do not contain open and close';
  return null;
}

/**
 * The stated path through a candle (docs/backtest.md): a rising candle (close ≥ open) goes
 * open → low → high → close, a falling one open → high → low → close.
 */
export function candlePath(c: Pick<Candle, 'open' | 'high' | 'low' | 'close'>): [number, number, number, number] {
  return c.close >= c.open ? [c.open, c.low, c.high, c.close] : [c.open, c.high, c.low, c.close];
}

export const TIMEFRAMES = { '1m': 60_000, '5m': 300_000, '15m': 900_000, '1h': 3_600_000, '4h': 14_400_000, '1d': 86_400_000 } as const;
export type Timeframe = keyof typeof TIMEFRAMES;
