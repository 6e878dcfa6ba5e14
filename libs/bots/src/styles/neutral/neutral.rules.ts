/**
 * The neutral grid's form rules (issue 32, libs/trading styles/neutral/neutral.engine.ts; moved from
 * domain/bot.rules.ts, issue 42): a ladder whose `direction` is neutral buys below and sells above the entry
 * price as the reference, `numOfOrders` on each side, each fill answered by its opposite one interval away:
 * futures only, equal steps and sizes, no take-profit percentage of its own (each pair earns one interval),
 * its stops outside its lines. bot.rules.ts asks them through neutralBotStyle (neutral.bot-style.ts). Pure.
 */
import type { FieldError } from '@gridrocket/shared';
import { shown } from '../../domain/bot-form.parts';

export const NEUTRAL_SPOT_MESSAGE = 'direction neutral applies to futures bots only: a spot bot buys its ladder (long)';

/** Settings a neutral grid does not have (its pairs replace the take-profit, its stops lie outside the grid). */
export function neutralProblems(v: { spacing?: unknown; sizeScale?: unknown; stopLossPercent?: unknown; trailingDeviation?: unknown; reanchor?: unknown; reanchorLimit?: unknown; trailDownLimit?: unknown }): FieldError[] {
  const errors: FieldError[] = [];
  if (v.spacing === 'percent') errors.push({ field: 'spacing', message: 'spacing percent applies to long and short grids: a neutral grid has equal steps' });
  if (typeof v.sizeScale === 'number' && v.sizeScale !== 1) errors.push({ field: 'sizeScale', message: 'sizeScale applies to long and short grids: a neutral grid has equal sizes' });
  for (const key of ['stopLossPercent', 'trailingDeviation', 'reanchor', 'reanchorLimit', 'trailDownLimit'] as const) {
    if (v[key] !== undefined) errors.push({ field: key, message: `${key} applies to long and short grids: a neutral grid's stop-loss is a price below its lowest buy` });
  }
  return errors;
}

/** Issue 32: a neutral grid's stops lie outside its lines, below the lowest buy and above the highest sell. */
export function neutralStopProblems(grid: { entryPrice: number; interval: number; numOfOrders: number }, stops: { stopLossPrice?: unknown; stopLossPriceAbove?: unknown }): FieldError[] {
  const errors: FieldError[] = [];
  const lowest = grid.entryPrice - grid.numOfOrders * grid.interval;
  const highest = grid.entryPrice + grid.numOfOrders * grid.interval;
  if (typeof stops.stopLossPrice === 'number' && stops.stopLossPrice >= lowest) errors.push({ field: 'stopLossPrice', message: `stopLossPrice of a neutral grid must be below its lowest buy (${shown(lowest)})` });
  if (typeof stops.stopLossPriceAbove === 'number' && stops.stopLossPriceAbove <= highest) errors.push({ field: 'stopLossPriceAbove', message: `stopLossPriceAbove must be above the neutral grid's highest sell (${shown(highest)})` });
  return errors;
}
