/** The neutral futures grid as the bots context knows it (issue 32; libs/trading styles/neutral/): a ladder direction. */
import type { BotStyle } from '../bot-style';
import { neutralBotParts } from './neutral.bot-parts';
import { NEUTRAL_SPOT_MESSAGE, neutralProblems, neutralStopProblems } from './neutral.rules';

export const neutralBotStyle: BotStyle = {
  style: 'neutral',
  namedBy: 'direction',
  parseCreate: (input, options, ladder) => ladder(input, options),
  // ---- form rules (neutral.rules.ts)
  onlyBotType: { botType: 'Futures', message: NEUTRAL_SPOT_MESSAGE },
  requiresTakeProfit: false,
  formProblems: neutralProblems,
  stopProblems: neutralStopProblems,
  // ---- decider/view/capacity (bot-style.ts BotStyleParts)
  ...neutralBotParts,
};
