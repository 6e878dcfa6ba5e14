/**
 * Issue 32, neutral (neutral.engine.ts): a neutral grid's two halves as the ladders the cost, the
 * checks and the money view know: its buys are the long ladder from one interval below the entry (its reference) down, its sells the
 * short ladder from one interval above it up. (A long or short grid is its own one half: pure-registry.ts gridHalves.)
 */
import type { GridHalf, HalvesInput } from '../style-parts';

export function neutralHalves<T extends HalvesInput>(g: T): Array<GridHalf<T>> {
  const { direction: _neutral, ...rest } = g as T & { direction?: unknown };
  void _neutral;
  return [
    { ...rest, entryPrice: Number((g.entryPrice - g.interval).toPrecision(12)) } as unknown as GridHalf<T>,
    { ...rest, direction: 'short' as const, entryPrice: Number((g.entryPrice + g.interval).toPrecision(12)) } as unknown as GridHalf<T>,
  ];
}
