/**
 * The infinity grid's part of the OpenAPI document (issue 32, docs/infinity.md): its bot body and its
 * backtest body, which apps/api openapi/contract.ts merges through the registry (BotStyle.apiSchemas).
 */
import type { ApiSchema, BotStyleApi } from '../bot-style';

const ref = (name: string): ApiSchema => ({ $ref: `#/components/schemas/${name}` });
const str: ApiSchema = { type: 'string' };

/** Fresh objects on each call (the document is built from them). */
export function infinityApiSchemas(): BotStyleApi {
  return {
    schemas: {
      CreateInfinityBot: {
        allOf: [
          ref('InfinityBacktest'),
          {
            type: 'object',
            properties: {
              userId: { type: 'string', maxLength: 128 },
              confirmAboveMarket: { type: 'boolean' },
              name: { type: 'string', maxLength: 60, description: "issue 40: the bot's name (trimmed, no control characters)" },
              investment: { type: 'number', description: 'issue 40: the initial buy plus one value per step on every step down to the lower price, in USDT, in place of quoteValue: the server sizes quoteValue from it and stores it' },
            },
          },
        ],
        description: 'Issue 32: an infinity spot grid bot (docs/infinity.md); a ladder field in its body is refused (400); issue 40: quoteValue or investment',
      },
      InfinityBacktest: {
        type: 'object',
        description: 'Issue 32: an infinity spot grid, for a bot (CreateInfinityBot) or a backtest (docs/infinity.md; its rules and messages: libs/bots/src/domain/bot-infinity.rules.ts; described here by hand, that zod schema is not exported)',
        properties: {
          style: { type: 'string', enum: ['infinity'] },
          exchange: { type: 'string', enum: ['Binance', 'Kucoin'] },
          symbol: str,
          botType: { type: 'string', enum: ['Spot'], description: 'an infinity grid trades spot only' },
          entryPrice: { type: 'number', description: 'the initial buy\'s limit price and the first reference price (> 0)' },
          stepPercent: { type: 'number', description: 'one step, in % of the reference price (0 < p < 50)' },
          quoteValue: { type: 'number', description: 'USDT sold on each step up and bought on each step down (> 0)' },
          lowerPrice: { type: 'number', description: 'no buy below this price (0 < lowerPrice < entryPrice)' },
          initialQuote: { type: 'number', description: 'USDT spent on coin at the start (≥ 0, default 0)' },
        },
        // (quoteValue: a backtest's is required; a bot's may be sized from an investment instead, issue 40)
        required: ['style', 'exchange', 'symbol', 'botType', 'entryPrice', 'stepPercent', 'lowerPrice'],
      },
    },
    createBodies: ['CreateInfinityBot'],
    backtestBody: (period) => ({ allOf: [ref('InfinityBacktest'), period, { type: 'object', properties: { quoteValue: { type: 'number', description: 'required of a backtest' } }, required: ['quoteValue'] }] }),
  };
}
