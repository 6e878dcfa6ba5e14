/**
 * The neutral grid in the dashboard (issue 32, libs/trading grid/neutral.ts): a futures ladder direction that
 * buys below and sells above its reference, each fill answered one line away, with no take-profit.
 */
import { neutralLiquidation } from '@gridrocket/trading/styles/neutral';
import type { DashboardStyle } from '../style';
import { NEUTRAL_FORM } from './botForm';
import { NEUTRAL_WORDS } from './words';

export const NEUTRAL_STYLE: DashboardStyle = {
  name: 'neutral',
  matches: (bot) => bot.direction === 'neutral',
  words: NEUTRAL_WORDS,
  ladderTools: true,
  // both sides open: the long position with every buy filled, the short with every sell filled
  liquidation: (config, rules, tiers) => {
    const l = neutralLiquidation({ ...config, direction: 'neutral' } as never, rules, tiers);
    return { long: l.long, short: l.short };
  },
  form: NEUTRAL_FORM,
};
