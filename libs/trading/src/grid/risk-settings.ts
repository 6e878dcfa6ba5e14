/** Checks of the optional risk settings (issue 14, risk.ts), pure and import-free so the ladder's validation uses them too. */
import type { GridConfig } from './grid.types';

function positiveNumber(x: unknown): x is number {
  return typeof x === 'number' && Number.isFinite(x) && x > 0;
}

/** Why the risk settings are not usable, or null (the ladder's own are checked by validateGrid). */
export function riskProblem(c: GridConfig): string | null {
  if (c.stopLossPercent !== undefined && !(positiveNumber(c.stopLossPercent) && c.stopLossPercent < 100)) {
    return `The stop-loss percentage must be between 0 and 100 (got ${String(c.stopLossPercent)})`;
  }
  if (c.stopLossPrice !== undefined && !positiveNumber(c.stopLossPrice)) return `The stop-loss price must be greater than 0 (got ${String(c.stopLossPrice)})`;
  if (c.trailingDeviation !== undefined && !(typeof c.trailingDeviation === 'number' && c.trailingDeviation >= 0 && c.trailingDeviation < 100)) {
    return `The trailing deviation must be from 0 to 100 % (got ${String(c.trailingDeviation)})`;
  }
  if (c.reanchor !== undefined && c.reanchor !== 'fixed' && c.reanchor !== 'follow') return `Reanchor must be fixed or follow (got ${String(c.reanchor)})`;
  if (c.reanchorLimit !== undefined && !positiveNumber(c.reanchorLimit)) return `The re-anchor limit must be greater than 0 (got ${String(c.reanchorLimit)})`;
  if (c.stopLossPrice !== undefined && c.stopLossPercent === undefined) {
    // short (issue 32): the stop-loss is above the ladder's sells
    if (c.direction === 'short' && c.stopLossPrice <= c.entryPrice) return `The stop-loss price ${c.stopLossPrice} of a short grid must be above the entry price ${c.entryPrice}`;
    if (c.direction !== 'short' && c.stopLossPrice >= c.entryPrice) return `The stop-loss price ${c.stopLossPrice} must be below the entry price ${c.entryPrice}`;
  }
  return null;
}

