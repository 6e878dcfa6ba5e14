/** The toy grid's form rules: a ladder's fields (one order, the entry, the interval above it, the size), its style kept. */
import type { BotStyleRules } from '@gridrocket/bots';

export const toyRules: BotStyleRules = {
  style: 'toy',
  parseCreate(input, options, ladder) {
    const bot = ladder(input && typeof input === 'object' ? { ...(input as object), style: undefined } : input, options);
    return { ...bot, config: { ...bot.config, style: 'toy' } };
  },
};
