/** The neutral futures grid as the bots context knows it (issue 32; libs/trading styles/neutral/): a ladder direction. */
import type { BotStyle } from '../bot-style';

export const neutralBotStyle: BotStyle = {
  style: 'neutral',
  namedBy: 'direction',
  parseCreate: (input, options, ladder) => ladder(input, options),
};
