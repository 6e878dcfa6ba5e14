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
  if (c.trailDownLimit !== undefined) {
    if (!positiveNumber(c.trailDownLimit)) return `The trail-down limit must be greater than 0 (got ${String(c.trailDownLimit)})`;
    if (c.direction === 'short') return 'A short grid does not trail down: the trail-down limit is for a long grid';
    if (c.trailDownLimit >= c.entryPrice) return `The trail-down limit ${c.trailDownLimit} must be below the entry price ${c.entryPrice}`;
    // Binance's futures grid: "The trailing down limit price should be higher than ... Stop Loss Price for the long grid"
    // https://www.binance.com/en/support/faq/how-to-use-the-trailing-up-and-trailing-down-functions-in-usd%25E2%2593%25A2-m-futures-grid-trading-7a7bb22420404385991dee3a0930207d
    if (c.stopLossPrice !== undefined && c.stopLossPercent === undefined && c.trailDownLimit <= c.stopLossPrice) {
      return `The trail-down limit ${c.trailDownLimit} must be above the stop-loss price ${c.stopLossPrice}`;
    }
  }
  if (c.stopLossPrice !== undefined && c.stopLossPercent === undefined) {
    // short (issue 32): the stop-loss is above the ladder's sells
    if (c.direction === 'short' && c.stopLossPrice <= c.entryPrice) return `The stop-loss price ${c.stopLossPrice} of a short grid must be above the entry price ${c.entryPrice}`;
    if (c.direction !== 'short' && c.stopLossPrice >= c.entryPrice) return `The stop-loss price ${c.stopLossPrice} must be below the entry price ${c.entryPrice}`;
  }
  return null;
}

