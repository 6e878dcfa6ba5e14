/**
 * Where each rung of the ladder sits and how big it is (issue 14, beyond the spec). Pure, shared by
 * the engine's ladder, the cost, the minimum-notional check and the dashboard's preview
 * (`@gridrocket/trading/grid`):
 *  - spacing 'absolute' (the spec's): rung i at entry − i·interval;
 *  - spacing 'percent' (geometric): rung i at entry·(1 − interval/100)^i, each `interval` % below the previous;
 *  - sizeScale s ≥ 1 (martingale): rung i buys orderSize·s^i (1, the default, is the spec's equal sizes).
 * A short grid (issue 32, direction.ts) mirrors the prices: rung i at entry + i·interval, or
 * entry·(1 + interval/100)^i.
 * Raw values: the ladder rounds prices and sizes to the market's steps (ladder.ts).
 */
import type { Direction } from './direction';
import type { Spacing } from './grid.types';

export interface RungInput {
  entryPrice: number;
  interval: number;
  orderSize: number;
  spacing?: Spacing;
  sizeScale?: number;
  /** Absent: long. */
  direction?: Direction;
}

export const MAX_SIZE_SCALE = 10;

/** The raw price of rung `i` (0 = the entry), before rounding to the price step. */
export function rungPrice(c: Pick<RungInput, 'entryPrice' | 'interval' | 'spacing' | 'direction'>, i: number): number {
  const up = c.direction === 'short';
  if (c.spacing === 'percent') return c.entryPrice * Math.pow(up ? 1 + c.interval / 100 : 1 - c.interval / 100, i);
  return up ? c.entryPrice + i * c.interval : c.entryPrice - i * c.interval;
}

/** The raw size of rung `i`, before rounding to the amount step. */
export function rungSize(c: Pick<RungInput, 'orderSize' | 'sizeScale'>, i: number): number {
  const s = c.sizeScale ?? 1;
  return s === 1 ? c.orderSize : c.orderSize * Math.pow(s, i);
}

/** The distance of one interval above `price` (absolute: `interval`; percent: that share of the price). */
export function oneInterval(c: Pick<RungInput, 'interval' | 'spacing'>, price: number): number {
  return c.spacing === 'percent' ? (price * c.interval) / 100 : c.interval;
}

/** The spec's ladder (absolute spacing, equal sizes): the closed-form cost applies. */
export function isSpecLadder(c: Pick<RungInput, 'spacing' | 'sizeScale'>): boolean {
  return (c.spacing ?? 'absolute') === 'absolute' && (c.sizeScale ?? 1) === 1;
}

/** Why the advanced ladder settings are not usable, or null. */
export function spacingProblem(c: Pick<RungInput, 'interval' | 'spacing' | 'sizeScale'>): string | null {
  if (c.spacing !== undefined && c.spacing !== 'absolute' && c.spacing !== 'percent') return `Spacing must be absolute or percent (got ${String(c.spacing)})`;
  if (c.spacing === 'percent' && !(c.interval > 0 && c.interval < 100)) return `A percent interval must be between 0 and 100 (got ${String(c.interval)})`;
  const s = c.sizeScale;
  if (s !== undefined && !(typeof s === 'number' && Number.isFinite(s) && s >= 1 && s <= MAX_SIZE_SCALE)) {
    return `The size scale must be a number from 1 to ${MAX_SIZE_SCALE} (got ${String(s)})`;
  }
  return null;
}
