/**
 * The pure registry of the grid styles (issue 42): the money figures, the bot page's summary and the grid
 * checks (libs/bots' rules, the dashboard) find a style's pure parts (style-parts.ts) here, never by its
 * name. Apart from the runner's registry (registry.ts), whose styles bring the workflow and the exchange
 * steps: this one loads the styles' pure files only (the dashboard and @gridrocket/trading/grid import it).
 * One line a built-in style that has such parts; the ladder has none (it is what every other bot is).
 */
import type { MaintenanceTier } from '../grid/liquidation';
import { ladderStopsBeyondLiquidation, liquidates, type StopBeyondLiquidation } from '../grid/liquidation-stops';
import type { GridConfig, MarketRules } from '../grid/grid.types';
import type { GridHalf, HalvesInput, StyleClaim, StyleParts } from './style-parts';
import { neutralParts } from './neutral/neutral.parts';

const registered = [
  neutralParts,
] as const satisfies readonly StyleParts[];

/** A value of a bot's `direction` that is a style's (the ladder's own are 'long' and 'short'). */
export type StyleDirection = Extract<(typeof registered)[number], { direction: string }>['direction'];

/** The pure parts of the bot's (or grid's) style; undefined for the ladder. */
export function partsOf(c: StyleClaim): StyleParts | undefined {
  return registered.find((p) => p.claims(c));
}

/** The style direction this value of `direction` is, if it is one. */
export function styleDirection(value: unknown): StyleDirection | undefined {
  return registered.find((p) => p.direction === value)?.direction;
}

/** A grid's halves as the ladders the cost, the checks and the money view know (a grid of the ladder is its own one half). */
export function gridHalves<T extends HalvesInput & { direction?: 'long' | 'short' | StyleDirection }>(g: T): Array<GridHalf<T>> {
  return partsOf(g)?.halves?.(g) ?? [g as GridHalf<T>];
}

/** The stops of a futures grid that lie beyond its liquidation price (empty when none; spot: never; grid/liquidation-stops.ts says why). */
export function stopsBeyondLiquidation(config: GridConfig & { stopLossPriceAbove?: number }, rules: MarketRules, tiers: readonly MaintenanceTier[]): StopBeyondLiquidation[] {
  if (!liquidates(config, tiers)) return [];
  return partsOf(config)?.stopsBeyondLiquidation?.(config, rules, tiers) ?? ladderStopsBeyondLiquidation(config, rules, tiers);
}
