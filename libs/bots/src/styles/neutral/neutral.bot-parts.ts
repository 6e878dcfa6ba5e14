/**
 * The neutral grid in the bot's lifecycle and its capacity figures (issue 32; libs/trading styles/neutral/):
 * what bot.decider.ts and capacity.ts ask of it through the registry. Pure.
 */
import { NEUTRAL_SPOT_MESSAGE } from '../../domain/bot.rules';
import type { BotStyleParts } from '../bot-style';

export const neutralBotParts: BotStyleParts = {
  spotRefusal: () => ({ field: 'direction', message: NEUTRAL_SPOT_MESSAGE }),
  positionWord: 'neutral grid',
  // both halves: N buys below and N sells above the reference (libs/trading styles/neutral/neutral.halves.ts); its cursor line holds none
  capacity: {
    ordersAtStart: (_bot, rungs) => 2 * rungs,
    mostResting: (_bot, rungs) => 2 * rungs,
  },
};
