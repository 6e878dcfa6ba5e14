/** The infinity spot grid as the bots context knows it (issue 32, docs/infinity.md; libs/trading styles/infinity/). */
import type { BotStyle } from '../bot-style';
import { infinityBotParts } from './infinity.bot-parts';

export const infinityBotStyle: BotStyle = {
  style: 'infinity',
  namedBy: 'style',
  // TODO(issue 42, form work): the infinity create rules move here from domain/bot.rules.ts BUILT_IN_STYLE_RULES
  parseCreate: (input, options, ladder) => ladder(input, options),
  // decider/view/capacity (bot-style.ts BotStyleParts)
  ...infinityBotParts,
};
