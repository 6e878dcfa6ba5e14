/**
 * A sweep: every combination of ranges of interval, number of orders and take-profit, each a
 * backtest of the same candles; the best by a chosen measure. Pure (the worker pool runs it in threads).
 */
import type { GridConfig } from '@gridrocket/trading/grid';
import { runBacktest, type BacktestParams, type BacktestResult } from './backtest.engine';
import type { CandleSeries } from './candle';

export interface NumberRange {
  from: number;
  to: number;
  step: number;
}

export interface SweepRanges {
  interval: NumberRange;
  numOfOrders: NumberRange;
  takeProfit: NumberRange;
}

export const SWEEP_MEASURES = ['profit', 'totalReturn', 'annualisedReturn', 'returnOverDrawdown'] as const;
export type SweepMeasure = (typeof SWEEP_MEASURES)[number];

/** Upper bound on combinations of one sweep (API, CLI). */
export const MAX_SWEEP_COMBINATIONS = 5000;

/** What a sweep keeps of each backtest: the figures, not the curve. */
export interface SweepCell {
  interval: number;
  numOfOrders: number;
  takeProfit: number;
  /** null when the combination cannot trade (e.g. a ladder below zero): see `error`. */
  result: Omit<BacktestResult, 'curve' | 'fillLog'> | null;
  error?: string;
}

/** The values of a range, from `from` to `to` inclusive, snapped to the step's decimals. */
export function expandRange(r: NumberRange): number[] {
  if (!(r.step > 0) || !(r.to >= r.from)) return [r.from];
  const decimals = Math.min(12, Math.max(0, -Math.floor(Math.log10(r.step)) + 2));
  const out: number[] = [];
  for (let k = 0; ; k++) {
    const v = Number((r.from + k * r.step).toFixed(decimals));
    if (v > r.to + r.step * 1e-9) break;
    out.push(v);
    if (out.length > MAX_SWEEP_COMBINATIONS) break;
  }
  return out;
}

export function sweepSize(ranges: SweepRanges): number {
  return expandRange(ranges.interval).length * expandRange(ranges.numOfOrders).length * expandRange(ranges.takeProfit).length;
}

/** Every configuration of the sweep: the base with each (interval, numOfOrders, takeProfit). */
export function sweepConfigs(base: GridConfig, ranges: SweepRanges): GridConfig[] {
  const configs: GridConfig[] = [];
  for (const interval of expandRange(ranges.interval)) {
    for (const numOfOrders of expandRange(ranges.numOfOrders)) {
      for (const takeProfit of expandRange(ranges.takeProfit)) configs.push({ ...base, interval, numOfOrders, takeProfit });
    }
  }
  return configs;
}

/** One cell: the backtest of one configuration, or why it cannot trade. */
export function sweepCell(series: CandleSeries, params: Omit<BacktestParams, 'config'>, config: GridConfig): SweepCell {
  const cell = { interval: config.interval, numOfOrders: config.numOfOrders, takeProfit: config.takeProfit };
  try {
    const { curve: _curve, fillLog: _fills, ...result } = runBacktest(series, { ...params, config, curvePoints: 2, recordFills: false });
    return { ...cell, result };
  } catch (err) {
    return { ...cell, result: null, error: (err as Error).message };
  }
}

export function measureOf(cell: SweepCell, measure: SweepMeasure): number {
  const r = cell.result;
  if (!r) return -Infinity;
  switch (measure) {
    case 'profit':
      return r.profit + r.unrealised;
    case 'totalReturn':
      return r.totalReturn;
    case 'annualisedReturn':
      return r.annualisedReturn;
    case 'returnOverDrawdown':
      return r.maxDrawdownPct > 0 ? r.totalReturn / r.maxDrawdownPct : r.totalReturn > 0 ? Number.MAX_VALUE : r.totalReturn;
  }
}

/** The best cell by the measure (the first of equals), or null when none could trade. */
export function bestCell(cells: readonly SweepCell[], measure: SweepMeasure): SweepCell | null {
  let best: SweepCell | null = null;
  let bestValue = -Infinity;
  for (const c of cells) {
    const v = measureOf(c, measure);
    if (c.result && (best === null || v > bestValue)) {
      best = c;
      bestValue = v;
    }
  }
  return best;
}
