/**
 * Input rules of an infinity grid bot (issue 32, docs/infinity.md; the engine: libs/trading
 * styles/infinity/infinity.engine.ts): `style: 'infinity'`, spot only, with its own fields. Bad input is a list of
 * field messages (ValidationError → 400), never a throw of anything else. The market's own limits (price
 * and amount steps, minimum order value) are checked where the market is known, by the engine's
 * `infinityProblem`.
 *
 * The create route takes it through parseCreateBot (domain/bot.rules.ts), which asks the style registry
 * (styles/registry.ts) for the style a body names: this folder's infinityBotStyle (infinity.bot-style.ts)
 * parses it with parseCreateInfinity; the bot is stored as `infinityBotConfig` says (bot.events.ts BotConfig:
 * the ladder's fields 0, its own beside them). Pure: the dashboard's form imports it too.
 */
import { z } from 'zod';
import { EXCHANGES, SYMBOL_SYNTAX_MESSAGE, ValidationError, normalSymbol, type ExchangeName, type FieldError } from '@gridrocket/shared';
import type { MarketRules } from '@gridrocket/trading/grid';
import { infinityProblem, type InfinityConfig } from '@gridrocket/trading/styles/infinity';
import type { BotConfig } from '../../domain/bot.events';
import { confirmAboveMarket, toFieldErrors, userId } from '../../domain/bot-form.parts';
import { botNameField } from '../../domain/bot-name.rules';
import type { CreateBotInput } from '../bot-style';

export interface InfinityBotInput {
  exchange: ExchangeName;
  symbol: string;
  botType: 'Spot';
  style: 'infinity';
  entryPrice: number;
  stepPercent: number;
  quoteValue: number;
  lowerPrice: number;
  initialQuote: number;
}

const num = (field: string, what: string, ok: (n: number) => boolean, optional = false) => {
  const base = z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? undefined : typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z.number({ required_error: `${field} is required`, invalid_type_error: `${field} must be ${what}` }).refine((n) => Number.isFinite(n) && ok(n), { message: `${field} must be ${what}` }),
  );
  return optional ? base.optional() : base;
};

export const INFINITY_SPOT_MESSAGE = 'style infinity applies to spot bots only: an infinity grid sells and buys the coin itself';

const schema = z.object({
  style: z.literal('infinity', { errorMap: () => ({ message: 'style must be infinity' }) }),
  exchange: z.string({ required_error: 'exchange is required' }).refine((s) => (EXCHANGES as readonly string[]).includes(s), { message: 'exchange must be Binance or Kucoin' }),
  symbol: z.string({ required_error: 'symbol is required' }).transform((s) => s.trim().toUpperCase()).refine((s) => normalSymbol(s) !== null, { message: SYMBOL_SYNTAX_MESSAGE }),
  botType: z.literal('Spot', { errorMap: () => ({ message: INFINITY_SPOT_MESSAGE }) }),
  entryPrice: num('entryPrice', 'a number greater than 0', (n) => n > 0),
  stepPercent: num('stepPercent', 'a percentage greater than 0 and below 50', (n) => n > 0 && n < 50),
  quoteValue: num('quoteValue', 'a number greater than 0 (USDT per step)', (n) => n > 0),
  lowerPrice: num('lowerPrice', 'a price greater than 0', (n) => n > 0),
  initialQuote: num('initialQuote', 'a number of 0 or more (USDT)', (n) => n >= 0, true),
});

/** The infinity bot's fields, or a ValidationError with one message per field. */
export function parseInfinityBot(input: unknown): InfinityBotInput {
  const r = schema.safeParse(input ?? {});
  if (!r.success) {
    const errors: FieldError[] = [];
    for (const issue of r.error.issues) {
      const field = String(issue.path[0] ?? 'body');
      if (!errors.some((e) => e.field === field)) errors.push({ field, message: issue.message });
    }
    throw new ValidationError(errors);
  }
  const v = r.data as Omit<InfinityBotInput, 'initialQuote' | 'exchange'> & { exchange: string; initialQuote?: number };
  if (v.lowerPrice >= v.entryPrice) throw new ValidationError([{ field: 'lowerPrice', message: 'lowerPrice must be below the entry price' }]);
  return { ...v, exchange: v.exchange as ExchangeName, initialQuote: v.initialQuote ?? 0 };
}

/** Fields of a ladder that an infinity grid does not have: given (not empty) in an infinity body, they are refused, not ignored. */
export const NOT_INFINITY_FIELDS = ['numOfOrders', 'orderSize', 'interval', 'takeProfit', 'direction', 'spacing', 'sizeScale', 'stopLossPercent', 'stopLossPrice', 'stopLossPriceAbove', 'trailingDeviation', 'reanchor', 'reanchorLimit', 'trailDownLimit', 'lower', 'upper', 'levels', 'kind'] as const;

/** One message per ladder field an infinity body gives. */
export function notInfinityFieldErrors(input: unknown): FieldError[] {
  if (!input || typeof input !== 'object') return [];
  const body = input as Record<string, unknown>;
  return NOT_INFINITY_FIELDS.filter((f) => body[f] !== undefined && body[f] !== null && body[f] !== '').map((field) => ({ field, message: `${field} does not apply to an infinity grid (its settings: entryPrice, stepPercent, quoteValue, lowerPrice, initialQuote)` }));
}

/**
 * The create body of an infinity bot (the registry's parseCreate of this style): its own fields
 * (parseInfinityBot), the fields every body has (userId, confirmAboveMarket, name), and a message for each
 * ladder field it gives; spot only, so a leverage other than 1 is refused. An investment is sized before
 * (BotStyle.sizedField: quoteValue).
 */
const infinityExtras = z.object({ userId, confirmAboveMarket, name: botNameField });

export function parseCreateInfinity(input: unknown): CreateBotInput {
  const errors: FieldError[] = [];
  let bot: InfinityBotInput | null = null;
  try {
    bot = parseInfinityBot(input);
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    errors.push(...err.errors);
  }
  const extras = infinityExtras.safeParse(input ?? {});
  if (!extras.success) errors.push(...toFieldErrors(extras.error));
  for (const e of notInfinityFieldErrors(input)) if (!errors.some((x) => x.field === e.field)) errors.push(e);
  const leverage = input && typeof input === 'object' ? (input as Record<string, unknown>).leverage : undefined;
  if (leverage !== undefined && leverage !== null && leverage !== '' && Number(leverage) !== 1) errors.push({ field: 'leverage', message: 'leverage applies to futures bots only' });
  if (errors.length || !bot || !extras.success) throw new ValidationError(errors);
  const name = extras.data.name ? { name: extras.data.name } : {};
  return { userId: extras.data.userId, botType: 'Spot', ...(extras.data.confirmAboveMarket ? { confirmAboveMarket: true } : {}), config: { ...infinityBotConfig(bot), ...name } };
}

/** An edit of an infinity bot (issue 32): refused, its settings are not editable yet (BotStyle.editRefusal; the decider refuses it too). */
export const INFINITY_EDIT_MESSAGE = 'An infinity bot cannot be edited yet: stop it, delete it and create a new one';

/**
 * The stored configuration of an infinity bot (bot.events.ts BotConfig): its own fields beside the
 * ladder's, which it does not use and which hold 0 (leverage 1, `entryPrice` its start), so every reader
 * of a bot reads it unchanged.
 */
export function infinityBotConfig(v: InfinityBotInput): BotConfig {
  return {
    exchange: v.exchange,
    symbol: v.symbol,
    numOfOrders: 0,
    orderSize: 0,
    interval: 0,
    entryPrice: v.entryPrice,
    takeProfit: 0,
    leverage: 1,
    style: 'infinity',
    stepPercent: v.stepPercent,
    quoteValue: v.quoteValue,
    lowerPrice: v.lowerPrice,
    initialQuote: v.initialQuote,
  };
}

/**
 * An infinity bot against its market (issue 32, docs/infinity.md): the engine's own check (infinity.engine.ts
 * infinityProblem: the step against the price step, a step's value and the initial buy against the minimum
 * order) as one field message, null when it trades. The server asks it at a create (BotStyleRules.marketProblem).
 */
export function infinityMarketProblem(config: BotConfig, rules: Pick<MarketRules, 'priceStep' | 'amountStep' | 'minNotional'> & { minAmount?: number }): FieldError | null {
  const engine: InfinityConfig = { style: 'infinity', botType: 'Spot', entryPrice: config.entryPrice, stepPercent: config.stepPercent ?? 0, quoteValue: config.quoteValue ?? 0, lowerPrice: config.lowerPrice ?? 0, initialQuote: config.initialQuote ?? 0 };
  const problem = infinityProblem(engine, { priceStep: rules.priceStep, amountStep: rules.amountStep, minNotional: rules.minNotional, minAmount: rules.minAmount || undefined });
  return problem ? { field: infinityProblemField(problem), message: problem } : null;
}

/** The field an infinity problem is about (infinity.engine.ts infinityProblem's messages); pure, so the dashboard's form may import it (frontend/src/bots/infinity.ts restates it). */
export function infinityProblemField(problem: string): string {
  if (problem.startsWith('The initial buy')) return 'initialQuote';
  if (problem.startsWith('Entry price')) return 'entryPrice';
  if (problem.startsWith('The lower price')) return 'lowerPrice';
  if (/^(The step|A step of [0-9.e+-]+ %)/.test(problem)) return 'stepPercent';
  return 'quoteValue';
}
