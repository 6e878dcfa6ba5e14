/**
 * Which way a grid trades (issue 32, "Direction on futures"), pure like the engine.
 *
 *  - 'long' (the spec's bot; a config without `direction` is long): a ladder of limit BUYS at and below
 *    the entry, the take-profit a SELL above the average entry, the stop-loss below it;
 *  - 'short' (futures only): the mirror — a ladder of limit SELLS at and above the entry, the take-profit
 *    a reduce-only BUY below the average entry, the stop-loss above it.
 *
 * Everything that depends on the direction asks this module (the side of a rung, of the closing order,
 * which way "away from the entry" is), so the engine has one code path with a sign, not two copies.
 * The 'neutral' grid (buys below and sells above a reference, each fill answered by its opposite one
 * step away) is its own state machine, neutral.ts (docs/risk.md); `DIRECTIONS` lists what THIS engine
 * accepts, and a bot's 'neutral' never reaches it (the runner refuses its start).
 */

export type Direction = 'long' | 'short';

/** The directions the engine accepts today. */
export const DIRECTIONS: readonly Direction[] = ['long', 'short'];

/** The direction of a config (absent: long, the spec's bot). */
export function directionOf(c: { direction?: Direction }): Direction {
  return c.direction === 'short' ? 'short' : 'long';
}

/** +1 for long (the ladder steps down from the entry, profit when the price rises), −1 for short. */
export function signOf(direction: Direction): 1 | -1 {
  return direction === 'short' ? -1 : 1;
}

/** The side of the ladder's orders: they open (or grow) the position. */
export function entrySide(direction: Direction): 'buy' | 'sell' {
  return direction === 'short' ? 'sell' : 'buy';
}

/** The side of the orders that close the position: the take-profit, the stop-loss, a close at a stop. */
export function exitSide(direction: Direction): 'buy' | 'sell' {
  return direction === 'short' ? 'buy' : 'sell';
}

/** Why a direction is not usable for a bot type, or null. */
export function directionProblem(c: { direction?: unknown; botType: string }): string | null {
  if (c.direction === undefined) return null;
  if (c.direction !== 'long' && c.direction !== 'short') return `Direction must be long or short (got ${String(c.direction)})`;
  if (c.direction === 'short' && c.botType !== 'Futures') return 'A short grid trades futures only: a spot bot is long';
  return null;
}
