/**
 * The pure parts of a grid style (issue 42) that code outside the runner reads: the money figures
 * (money/figures.ts), the bot page's summary (chart/bot-summary.ts) and the grid checks the bot form and the
 * dashboard share (a grid's halves, its stops beyond liquidation). The dashboard and libs/bots import that
 * code, so these parts are pure (no runner, no I/O) and apart from the runner's GridStyle (grid-style.ts,
 * which brings the workflow); their table is pure-registry.ts. A style with none of these is the ladder's
 * in all of them, and has no entry.
 */
import type { MaintenanceTier } from '../grid/liquidation';
import type { StopBeyondLiquidation } from '../grid/liquidation-stops';
import type { GridConfig, MarketRules } from '../grid/grid.types';

/** What a style is known by: a bot's configuration, or the part of it at hand (a grid, an event's fields). */
export interface StyleClaim {
  readonly direction?: unknown;
  readonly style?: unknown;
}

/** The fields of a grid that its halves are priced from. */
export interface HalvesInput {
  entryPrice: number;
  interval: number;
}

/** One half of a grid: a ladder, long (no direction) or short. */
export type GridHalf<T> = Omit<T, 'direction'> & { direction?: 'long' | 'short' };

export interface StyleParts {
  /** The style's name (the runner's GridStyle's). */
  readonly name: string;
  /** The bot (or grid) is of this style. */
  claims(c: StyleClaim): boolean;
  /** The value of a bot's `direction` that makes it this style (the figures' `direction` says it); absent: the style is not a direction. */
  readonly direction?: string;
  /** The ladders the cost, the checks and the money view count for the grid (absent: the grid is its own one half). */
  halves?<T extends HalvesInput>(g: T): Array<GridHalf<T>>;
  /** The stops of a futures grid that liquidates that lie beyond its liquidation price (absent: the ladder's). */
  stopsBeyondLiquidation?(config: GridConfig & { stopLossPriceAbove?: number }, rules: MarketRules, tiers: readonly MaintenanceTier[]): StopBeyondLiquidation[];
  /**
   * A closing fill realises on the pair it closes, which its recorded profit says (absent: on the average
   * cost of what is held): the figures take that cost off the position.
   */
  readonly closesOnPair?: boolean;
  /**
   * The summary's table: its answers (TakeProfitPlaced) are rows of the orders table like its other orders,
   * there is no single take-profit, and the table shows the orders resting now (its generations are not
   * cycles). Absent: the ladder's table, the latest cycle's rungs and one take-profit.
   */
  readonly answersInTable?: boolean;
}
