/** The neutral grid's pure parts (style-parts.ts), in the pure registry (pure-registry.ts): a bot with `direction: 'neutral'`. */
import type { StyleParts } from '../style-parts';
import { neutralHalves } from './neutral.halves';
import { neutralStopsBeyondLiquidation } from './neutral.stops';

export const neutralParts = {
  name: 'neutral',
  claims: (c) => c.direction === 'neutral',
  direction: 'neutral',
  halves: neutralHalves,
  stopsBeyondLiquidation: neutralStopsBeyondLiquidation,
  // its engine realises each answer on the pair it closes (neutral.engine.ts), and the fill's profit says so
  closesOnPair: true,
  // every order (opening or answering) is a row of its table; there is no single take-profit
  answersInTable: true,
} as const satisfies StyleParts;
