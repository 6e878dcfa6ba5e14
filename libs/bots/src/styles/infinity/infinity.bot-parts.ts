/**
 * The infinity grid in the bot's lifecycle, its view and its capacity figures (issue 32, docs/infinity.md):
 * what bot.decider.ts, bot.view.ts, capacity.ts and the API contract (infinity.schemas.ts) ask of it through the registry. Pure.
 */
import type { BotStyleParts } from '../bot-style';
import { infinityApiSchemas } from './infinity.schemas';

export const infinityBotParts: BotStyleParts = {
  // it has no ladder; after a cancel-all stop its start buys again
  heldStartText: (c, quote, money) =>
    `Starting it trades its infinity grid again: ` +
    `${c.initialQuote ? `an initial buy of ${money(c.initialQuote)} ${quote} if its orders were cancelled, then ` : ''}${money(c.quoteValue ?? 0)} ${quote} bought on each step down to ${c.lowerPrice}. `,
  viewFields: (c) => ({
    style: 'infinity',
    ...(c.stepPercent !== undefined ? { steppercent: c.stepPercent } : {}),
    ...(c.quoteValue !== undefined ? { quotevalue: c.quoteValue } : {}),
    ...(c.lowerPrice !== undefined ? { lowerprice: c.lowerPrice } : {}),
    ...(c.initialQuote !== undefined ? { initialquote: c.initialQuote } : {}),
  }),
  // its start places its initial buy, or without one its first pair of step orders (infinity.engine.ts
  // infinityInitialState); it rests its pair of step orders
  capacity: {
    ordersAtStart: (bot) => ((bot.initialQuote ?? 0) > 0 ? 1 : 2),
    mostResting: () => 2,
  },
  apiSchemas: () => infinityApiSchemas(),
};
