/**
 * Trailing down of a long grid (issue 32, docs/risk.md "Trailing down"), pure like the engine.
 *
 * `trailDownLimit` (a price below the entry) turns it on. The rule, chosen to be conservative and
 * crash-safe (nothing is ever sold at a loss, nothing is sold or bought at market by this rule):
 *  - it acts only when EVERY rung of the current ladder has filled (the ladder's capital is all held)
 *    and the market price is more than one interval below the lowest rung;
 *  - the ladder is then re-anchored at the market price (rounded down to the price step), never below
 *    `trailDownLimit` (the anchor is raised to the limit), and only if that anchor is below the lowest
 *    rung (so a ladder already at the limit stays: trailing stops there);
 *  - the held position is KEPT, with its cost, average entry and buy fees: nothing is sold. The new
 *    ladder's buys add to it (the average falls) and the one take-profit sells all of it at
 *    average × (1 + takeProfit %), as before;
 *  - resting orders: the old ladder has none left (every rung filled); the take-profit is re-placed
 *    for the same amount at the same price under the new cycle's id (`tp1` of the new cycle: ids are
 *    never reused), the old one cancelled first. A fill of the old take-profit that raced its cancel is
 *    still the bot's (`carriedCycle`: it sells the carried position);
 *  - the new ladder's top rung is at the market, so it usually buys at once (a taker fill), as the top
 *    rung of a `follow` re-anchor does.
 * Capital: each trail commits one more ladder's cost. With absolute spacing a trail moves the anchor
 * down by more than `numOfOrders × interval`, so a grid trails at most
 * ⌊(entry − trailDownLimit) ÷ (numOfOrders × interval)⌋ + 1 times (the last one to the limit).
 * The runner records the trail (`GridReanchored` with `trailDown: true`) BEFORE it cancels or places
 * anything; a replay applies `trailDownBook` at the same place among the fills.
 * Short grids do not trail (the settings check refuses `trailDownLimit` on them).
 */
import { floorToStep, ceilToStep } from './decimal';
import { validateGrid } from './ladder';
import { oneInterval } from './spacing';
import type { GridConfig, GridState, MarketRules } from './grid.types';

const positiveNumber = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x) && x > 0;

/** The ladder anchored at `to` (the limit itself is the config's check, not the moved ladder's: a ladder at the limit is valid). */
function movedLadder(config: GridConfig, rules: MarketRules, to: number) {
  const { trailDownLimit: _limit, ...rest } = config;
  return validateGrid({ ...rest, entryPrice: to }, rules);
}

/** The price below which the grid trails down now (lowest rung − one interval), or null (not trailing, a rung still open, a stop-loss under way). */
export function trailDownTrigger(config: GridConfig, state: GridState): number | null {
  if (!positiveNumber(config.trailDownLimit) || state.direction === 'short' || state.stopLoss) return null;
  if (state.levels.length === 0 || state.levels.some((l) => l.status !== 'filled')) return null;
  const lowest = Math.min(...state.levels.map((l) => l.price));
  return lowest - oneInterval(config, lowest);
}

/** Where the ladder trails to at market `price` ({ from: current top rung's anchor, to: new anchor }), or null. */
export function trailDownTarget(config: GridConfig, rules: MarketRules, state: GridState, price: number): { from: number; to: number } | null {
  const trigger = trailDownTrigger(config, state);
  if (trigger === null || !(price > 0) || !(price < trigger)) return null;
  const lowest = Math.min(...state.levels.map((l) => l.price));
  const to = Math.max(floorToStep(price, rules.priceStep), ceilToStep(config.trailDownLimit as number, rules.priceStep));
  if (!(to < lowest)) return null; // at the limit already: trailing stops
  if (!movedLadder(config, rules, to).ok) return null; // e.g. rungs at or below zero
  return { from: state.anchor ?? config.entryPrice, to };
}

/**
 * The grid trailed down to anchor `to`: a new cycle (fresh ids), every rung armed at the new ladder,
 * the position kept with its take-profit re-defined for all of it (new cycle, seq 1), the old cycle
 * carried (a racing fill of its take-profit still sells the position). Throws when the ladder is invalid.
 */
export function trailDownBook(state: GridState, config: GridConfig, rules: MarketRules, to: number): GridState {
  const validation = movedLadder(config, rules, to);
  if (!validation.ok) throw new Error(`Invalid grid: ${validation.reason}`);
  const next = state.cycle + 1;
  return {
    ...state,
    cycle: next,
    levels: validation.ladder.map((l) => ({ index: l.index, price: l.price, amount: l.amount, armedCycle: next, filled: 0, status: 'open' as const })),
    position: { ...state.position },
    tp: state.position.amount > 0 ? { seq: 1, amount: state.position.amount } : null,
    processedFillIds: state.processedFillIds.slice(),
    anchor: to,
    carriedCycle: state.cycle,
  };
}
