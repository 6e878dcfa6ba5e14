/**
 * Issue 32, neutral (neutral.engine.ts): a neutral grid's two halves as the ladders the cost, the
 * checks and the money view know: its buys are the long ladder from one interval below the entry (its reference) down, its sells the
 * short ladder from one interval above it up. A long or short grid is its own one half.
 */
export function gridHalves<T extends { direction?: 'long' | 'short' | 'neutral'; entryPrice: number; interval: number }>(g: T): Array<Omit<T, 'direction'> & { direction?: 'long' | 'short' }> {
  if (g.direction !== 'neutral') return [g as Omit<T, 'direction'> & { direction?: 'long' | 'short' }];
  const { direction: _neutral, ...rest } = g;
  void _neutral;
  return [
    { ...rest, entryPrice: Number((g.entryPrice - g.interval).toPrecision(12)) },
    { ...rest, direction: 'short' as const, entryPrice: Number((g.entryPrice + g.interval).toPrecision(12)) },
  ];
}
