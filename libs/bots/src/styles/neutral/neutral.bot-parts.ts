/**
 * The neutral grid in the bot's lifecycle and its capacity figures (issue 32; libs/trading styles/neutral/):
 * what bot.decider.ts and capacity.ts ask of it through the registry. Pure.
 */
import type { BotStyleParts } from '../bot-style';

export const neutralBotParts: BotStyleParts = {
  positionWord: 'neutral grid',
  // both halves: N buys below and N sells above the reference (libs/trading styles/neutral/neutral.halves.ts); its cursor line holds none
  capacity: {
    ordersAtStart: (_bot, rungs) => 2 * rungs,
    mostResting: (_bot, rungs) => 2 * rungs,
  },
};
