/**
 * A bot is one thing across runs (issue 10 finding 3). Its grid state goes on from run to run:
 *  - a start after a stop WITHOUT cancel-all continues the state as it was: the orders it left open
 *    carry the same client order ids and are adopted, the position it holds keeps its take-profit;
 *  - a start after its orders were cancelled (stop with cancel-all, a failure) or after an edit
 *    RESTARTS the book: a new cycle number (so no client order id is ever used twice), the ladder of
 *    the bot's current configuration armed in full, and the position the bot still holds (coins
 *    bought and not sold, a futures position) carried over with its cost and fees, covered by a new
 *    take-profit at the current take-profit percentage. A position closed at market by the stop is
 *    not carried. Profit and fees so far stay.
 * A restart takes the direction of the current configuration (issue 32); a position is carried only
 * in its own direction: an edit that turns a bot holding a position the other way is refused here
 * (the venue would net the two: the bot's books would no longer be the venue's).
 * Pure, like the engine.
 */
import { directionOf } from './direction';
import { validateGrid } from './ladder';
import type { GridConfig, GridState, MarketRules } from './grid.types';

export interface RestartOptions {
  /** The stop closed the position at market (futures): nothing is carried. */
  dropPosition: boolean;
}

export function restartBook(state: GridState, config: GridConfig, rules: MarketRules, options: RestartOptions): GridState {
  const validation = validateGrid(config, rules);
  if (!validation.ok) throw new Error(`Invalid grid: ${validation.reason}`);
  const next = state.cycle + 1;
  const position = options.dropPosition || state.position.amount <= 0 ? { amount: 0, cost: 0, averageEntry: 0, buyFees: 0 } : { ...state.position };
  const carried = position.amount > 0;
  const direction = directionOf(config);
  if (carried && direction !== (state.direction === 'short' ? 'short' : 'long')) {
    throw new Error(`Invalid grid: the bot holds a ${state.direction === 'short' ? 'short' : 'long'} position of ${position.amount}: it cannot restart as a ${direction} grid until that position is closed`);
  }
  const restarted: GridState = {
    ...state,
    cycle: next,
    levels: validation.ladder.map((l) => ({ index: l.index, price: l.price, amount: l.amount, armedCycle: next, filled: 0, status: 'open' as const })),
    position,
    tp: carried ? { seq: 1, amount: position.amount } : null,
    cycleProfit: carried ? state.cycleProfit : 0,
    processedFillIds: state.processedFillIds.slice(),
    amountStep: rules.amountStep,
  };
  if (direction === 'short') restarted.direction = 'short';
  else delete restarted.direction;
  delete restarted.stopLoss; // a new book: a stop-loss of the old one is over (risk.ts)
  delete restarted.anchor; // and the ladder is the configuration's again
  if (carried) restarted.carriedCycle = state.cycle; // the take-profit that may still fill is of this cycle
  else delete restarted.carriedCycle;
  return restarted;
}
