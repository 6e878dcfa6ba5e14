/**
 * A sweep: every combination of ranges of interval, number of orders and take-profit, each a
 * backtest of the same candles; the best by a chosen measure. Pure (the worker pool runs it in threads).
 *
 * Styles (issue 32): a sweep may compare grid styles on the same candles (`styles`, styles.ts): each
 * style is one more dimension of the cells, and each cell says its style. The ladder styles (long,
 * short) take every (interval, numOfOrders, takeProfit); the neutral and infinity grids have no
 * take-profit setting, so they take every (interval, numOfOrders) once, their cells' takeProfit null
 * (a cell per take-profit would repeat the same backtest). The infinity grid is read from the ladder's
 * settings of its cell (styleGrid): the same entry, a step of one interval (as a percent of the entry),
 * one order's value per step (orderSize × entry), the initial buy one order's value at the entry, and
 * its lower price half an interval below the ladder's lowest rung, so it buys as many steps down as the
 * ladder has rungs; above the entry it keeps selling a step at a time where the ladder stops.
 */
import type { GridConfig } from '@gridrocket/trading/grid';
import type { BacktestParams } from './backtest.engine';
import type { CandleSeries } from './candle';
import { runStyledBacktest, styleOf, walkNamed, type BacktestStyle, type StyledBacktestResult, type SweepBase, type StyledGrid } from './styles';

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
  /** The grid style of this cell (issue 32). */
  style: BacktestStyle;
  interval: number;
  numOfOrders: number;
  /** null for the styles without a take-profit setting (neutral, infinity). */
  takeProfit: number | null;
  /** null when the combination cannot trade (e.g. a ladder below zero): see `error`. */
  result: Omit<StyledBacktestResult, 'curve' | 'fillLog'> | null;
  error?: string;
}

/** One combination of a sweep: its coordinates, its style, and the grid it backtests. */
export interface SweepEntry {
  style: BacktestStyle;
  interval: number;
  numOfOrders: number;
  takeProfit: number | null;
  config: StyledGrid;
}


const hasTakeProfit = (style: BacktestStyle) => walkNamed(style)?.hasTakeProfit(style) ?? false;

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

/** Combinations of the ranges for these styles (default: one ladder style): the take-profit counts for long and short only. */
export function sweepSize(ranges: SweepRanges, styles: readonly BacktestStyle[] = ['long']): number {
  const grids = expandRange(ranges.interval).length * expandRange(ranges.numOfOrders).length;
  let total = 0;
  for (const style of styles) total += hasTakeProfit(style) ? grids * expandRange(ranges.takeProfit).length : grids;
  return total;
}

/** The grid a style trades at one cell of the base's settings (its walk says how it reads them: the file's comment). */
export function styleGrid(base: SweepBase, style: BacktestStyle, interval: number, numOfOrders: number, takeProfit: number): StyledGrid {
  const walk = walkNamed(style);
  if (!walk) throw new Error(`No backtest walk runs style ${style}`);
  return walk.sweepGrid({ botType: base.botType, orderSize: base.orderSize, entryPrice: base.entryPrice, leverage: base.leverage, trailDownLimit: base.trailDownLimit, style: styleOf(base) }, style, interval, numOfOrders, takeProfit);
}

/**
 * Every combination of the sweep, style by style (default: the base's own style), each with the grid it
 * backtests. At most MAX_SWEEP_COMBINATIONS (a RangeError past it: the callers check the size first).
 */
export function sweepEntries(base: SweepBase, ranges: SweepRanges, styles: readonly BacktestStyle[] = [styleOf(base)]): SweepEntry[] {
  const size = sweepSize(ranges, styles);
  if (size > MAX_SWEEP_COMBINATIONS) throw new RangeError(`The sweep has ${size} combinations; at most ${MAX_SWEEP_COMBINATIONS} are allowed`);
  const entries: SweepEntry[] = [];
  const takeProfits = expandRange(ranges.takeProfit);
  for (const style of styles) {
    for (const interval of expandRange(ranges.interval)) {
      for (const numOfOrders of expandRange(ranges.numOfOrders)) {
        if (!hasTakeProfit(style)) {
          entries.push({ style, interval, numOfOrders, takeProfit: null, config: styleGrid(base, style, interval, numOfOrders, base.takeProfit) });
          continue;
        }
        for (const takeProfit of takeProfits) entries.push({ style, interval, numOfOrders, takeProfit, config: styleGrid(base, style, interval, numOfOrders, takeProfit) });
      }
    }
  }
  return entries;
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

/** One cell: the backtest of one combination (a ladder config: its own coordinates), or why it cannot trade. */
export function sweepCell(series: CandleSeries, params: Omit<BacktestParams, 'config'>, what: GridConfig | SweepEntry): SweepCell {
  const entry: SweepEntry = 'config' in what ? what : { style: styleOf(what), interval: what.interval, numOfOrders: what.numOfOrders, takeProfit: what.takeProfit, config: what };
  const { config, ...cell } = entry;
  try {
    const { curve: _curve, fillLog: _fills, ...result } = runStyledBacktest(series, { ...params, config, curvePoints: 2, recordFills: false });
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
