/** The infinity spot grid as the bots context knows it (issue 32, docs/infinity.md; libs/trading styles/infinity/). */
import type { BotStyle } from '../bot-style';
import { infinityBotParts } from './infinity.bot-parts';
import { INFINITY_EDIT_MESSAGE, INFINITY_SPOT_MESSAGE, NOT_INFINITY_FIELDS, infinityMarketProblem, parseCreateInfinity } from './infinity.rules';
import { sizeInfinity } from './infinity.sizing';

export const infinityBotStyle: BotStyle = {
  style: 'infinity',
  namedBy: 'style',
  // ---- form rules (infinity.rules.ts, infinity.sizing.ts)
  parseCreate: parseCreateInfinity,
  marketProblem: infinityMarketProblem,
  onlyBotType: { botType: 'Spot', message: INFINITY_SPOT_MESSAGE },
  editRefusal: INFINITY_EDIT_MESSAGE,
  notLadderFields: NOT_INFINITY_FIELDS,
  sizedField: 'quoteValue',
  sizeInvestment: (c, investment, market) => {
    const r = sizeInfinity({ entryPrice: c.entryPrice, stepPercent: c.stepPercent ?? 0, lowerPrice: c.lowerPrice ?? 0, initialQuote: c.initialQuote ?? 0 }, investment, market);
    return { value: r.quoteValue, problem: r.problem };
  },
  // ---- decider/view/capacity (bot-style.ts BotStyleParts)
  ...infinityBotParts,
};
