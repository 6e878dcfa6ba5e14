/** The neutral futures grid as the bots context knows it (issue 32; libs/trading styles/neutral/): a ladder direction. */
import type { BotStyle } from '../bot-style';
import { neutralBotParts } from './neutral.bot-parts';

export const neutralBotStyle: BotStyle = {
  style: 'neutral',
  namedBy: 'direction',
  parseCreate: (input, options, ladder) => ladder(input, options),
  // decider/view/capacity (bot-style.ts BotStyleParts)
  ...neutralBotParts,
};
