/**
 * The neutral grid in the dashboard (issue 32, libs/trading grid/neutral.ts): a futures ladder direction that
 * buys below and sells above its reference, each fill answered one line away, with no take-profit.
 */
import type { DashboardStyle } from '../registry';
import { NEUTRAL_WORDS } from './words';

export const NEUTRAL_STYLE: DashboardStyle = {
  name: 'neutral',
  matches: (bot) => bot.direction === 'neutral',
  words: NEUTRAL_WORDS,
  ladderTools: true,
};
