// Over 400 lines: the bot forms' input rules (the ladder's fields, risk settings, numeric bounds, fees, sizing by investment) with their field messages; the styles' own rules are in their folders (issue 42).
import { z } from 'zod';
import { BOT_TYPES, EXCHANGES, FieldError, SYMBOL_MAX_LENGTH, SYMBOL_PATTERN, SYMBOL_SYNTAX_MESSAGE, ValidationError, documentedAs } from '@gridrocket/shared';
import type { BotType, ExchangeName } from '@gridrocket/shared';
import { minTakeProfitPercent, venueRules } from '@gridrocket/exchanges/venues';
import { RISK_FIELDS, type BotConfigEdit, type RiskSettings } from './bot.events';
import { checkedInRangeTerms } from './bot-range.rules';
import { botNameField } from './bot-name.rules';
import { MARGIN_MODES, MARGIN_MODE_SPOT_MESSAGE } from './bot-futures.rules';
import { confirmAboveMarket, shown, toFieldErrors, userId } from './bot-form.parts';
import type { BotStyle, BotStyleRules, CreateBotInput, CreateOptions, OrderSizer } from '../styles/bot-style';
import { BOT_DIRECTIONS, botStyleOf, builtInBotStyles, type BotDirection, type BotStyleName } from '../styles/registry';

export { toFieldErrors } from './bot-form.parts';

/** The style a ladder's `direction` names (a neutral grid's: BotStyle, namedBy 'direction'); undefined: the ladder's own long or short. */
const styleOfDirection = (direction: unknown): BotStyle | undefined => botStyleOf({ direction });

/**
 * Input rules for the bot forms (spec section 5, plus: exchange is Binance or
 * Kucoin, symbol is written as a pair, numbers finite and greater than 0). Whether the account's venue
 * lists the pair is asked at create (issue 39, market-check.ts); the symbol's 10 characters of the spec's
 * form grew to SYMBOL_MAX_LENGTH (20) for the venues' longer pairs (1000PEPEUSDT).
 * Lengths apply to the value as typed (the spec's form limits), so 0.5 is 3
 * characters. Values may arrive as JSON numbers or as query-string text.
 * orderSize: 12, not the spec's 4 (issue 29 finding 8: 0.001 BTC became 0.00): the market's amount
 * step is the real rule (bot-market.rules.ts marketFieldErrors), 12 leaves room for 8 decimals.
 */
const LENGTHS = {
  exchange: [2, 20],
  symbol: [6, SYMBOL_MAX_LENGTH],
  numOfOrders: [1, 2],
  orderSize: [1, 12],
  interval: [1, 10],
  entryPrice: [1, 10],
  takeProfit: [1, 10],
} as const;

type Field = keyof typeof LENGTHS;

const text = (field: Field) =>
  z.preprocess(
    (v) => (typeof v === 'number' && Number.isFinite(v) ? String(v) : v),
    z
      .string({ required_error: `${field} is required`, invalid_type_error: `${field} must be a number or text` })
      .trim()
      .min(1, `${field} is required`)
      .min(LENGTHS[field][0], `${field} must be at least ${LENGTHS[field][0]} characters`)
      .max(LENGTHS[field][1], `${field} must be at most ${LENGTHS[field][1]} characters`),
  );

const positive = (field: Field, integer = false) =>
  documentedAs(positiveText(field, integer), {
    type: integer ? 'integer' : 'number',
    minimum: 0,
    exclusiveMinimum: true,
    description: `${field}: greater than 0${integer ? ', whole' : ''} (its text, as in a query string, is accepted too; at most ${LENGTHS[field][1]} characters written out)`,
  });

const positiveText = (field: Field, integer: boolean) =>
  text(field).transform((s, ctx) => {
    const n = Number(s);
    if (!/^[0-9]*\.?[0-9]+(e[+-]?[0-9]+)?$/i.test(s) || !Number.isFinite(n) || n <= 0) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `${field} must be a number greater than 0` });
      return z.NEVER;
    }
    if (integer && !Number.isInteger(n)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `${field} must be a whole number` });
      return z.NEVER;
    }
    return n;
  });

/**
 * Issue 40: a field a style may go without (a neutral grid's take profit, an order size given by an
 * investment): absent, null or '' is undefined here, and the parse says when it is required
 * (requiredProblems), so every other field's message comes with it.
 */
const optionalPositive = (field: Field, requiredUnless: string) =>
  documentedAs(
    z.preprocess((v) => (v === undefined || v === null || v === '' ? undefined : v), positiveText(field, false).optional()),
    { type: 'number', minimum: 0, exclusiveMinimum: true, description: `${field}: greater than 0 (its text, as in a query string, is accepted too; at most ${LENGTHS[field][1]} characters written out); required unless ${requiredUnless}` },
  );

const exchange = text('exchange').refine((s): s is ExchangeName => (EXCHANGES as readonly string[]).includes(s), {
  message: 'exchange must be Binance or Kucoin',
}) as unknown as z.ZodType<ExchangeName>;

const symbol = text('symbol')
  .transform((s) => s.toUpperCase())
  .refine((s) => SYMBOL_PATTERN.test(s), { message: SYMBOL_SYNTAX_MESSAGE });

const botType = z.enum(BOT_TYPES, {
  errorMap: () => ({ message: 'botType must be Spot or Futures' }),
});

const leverage = z.preprocess(
  (v) => (v === undefined || v === null || v === '' ? undefined : typeof v === 'string' ? Number(v) : v),
  z
    .number({ invalid_type_error: 'leverage must be a whole number from 1 to 125' })
    .int('leverage must be a whole number from 1 to 125')
    .min(1, 'leverage must be a whole number from 1 to 125')
    .max(125, 'leverage must be a whole number from 1 to 125')
    .optional(),
);

// ---- Optional settings beyond the spec (issue 14, docs/risk.md). Absent or '' = off (the spec's bot). ----
const blank = (v: unknown) => (v === undefined || v === null || v === '' ? undefined : typeof v === 'string' ? Number(v) : v);
const optionalNumber = (field: string, min: number, max: number, minIncluded: boolean, what: string) =>
  z.preprocess(
    blank,
    z
      .number({ invalid_type_error: `${field} must be ${what}` })
      .refine((n) => Number.isFinite(n) && (minIncluded ? n >= min : n > min) && n < max, { message: `${field} must be ${what}` })
      .optional(),
  );
const optionalChoice = <T extends string>(field: string, values: readonly [T, ...T[]]) =>
  z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? undefined : v),
    z.enum(values, { errorMap: () => ({ message: `${field} must be ${values.join(' or ')}` }) }).optional(),
  );
export const riskFields = {
  spacing: optionalChoice('spacing', ['absolute', 'percent']),
  sizeScale: z.preprocess(
    blank,
    z
      .number({ invalid_type_error: 'sizeScale must be a number from 1 to 10' })
      .refine((n) => Number.isFinite(n) && n >= 1 && n <= 10, { message: 'sizeScale must be a number from 1 to 10' })
      .optional(),
  ),
  stopLossPercent: optionalNumber('stopLossPercent', 0, 100, false, 'a percentage greater than 0 and below 100'),
  stopLossPrice: optionalNumber('stopLossPrice', 0, Number.MAX_VALUE, false, 'a price greater than 0'),
  trailingDeviation: optionalNumber('trailingDeviation', 0, 100, true, 'a percentage from 0 to below 100'),
  reanchor: optionalChoice('reanchor', ['fixed', 'follow']),
  reanchorLimit: optionalNumber('reanchorLimit', 0, Number.MAX_VALUE, false, 'a price greater than 0'),
  trailDownLimit: optionalNumber('trailDownLimit', 0, Number.MAX_VALUE, false, 'a price greater than 0'),
  stopLossPriceAbove: optionalNumber('stopLossPriceAbove', 0, Number.MAX_VALUE, false, 'a price greater than 0'),
};

/**
 * Issue 32 (libs/trading grid/direction.ts): 'long' (absent: the spec's bot) or 'short', a ladder of
 * sells above the entry with a reduce-only buy-back below the average: futures only; or a style named by its
 * direction (styles/registry.ts BOT_DIRECTIONS, its rules: BotStyle's form rules).
 */
export const direction = optionalChoice('direction', BOT_DIRECTIONS);
/** Issue 40 (bot-futures.rules.ts): isolated (the default) or cross, futures only. */
export const marginMode = optionalChoice('marginMode', MARGIN_MODES);
export const SHORT_SPOT_MESSAGE = 'direction short applies to futures bots only: a spot bot buys its ladder (long)';

/** The optional settings present in the input (cross-field checks as field errors; `short`: the stops and limits mirrored). */
function riskSettings(v: { [K in keyof typeof riskFields]?: unknown } & { interval: number; entryPrice: number; numOfOrders?: number; direction?: string }, short = false): RiskSettings {
  const out: Record<string, unknown> = {};
  for (const key of RISK_FIELDS) if (v[key] !== undefined) out[key] = v[key];
  const errors: FieldError[] = [];
  // a style of the ladder's direction may check its stops its own way (BotStyle.stopProblems: the neutral grid's outside its lines)
  const ownStops = styleOfDirection(v.direction)?.stopProblems;
  if (ownStops && typeof v.numOfOrders === 'number') {
    throwIfAny(ownStops({ entryPrice: v.entryPrice, interval: v.interval, numOfOrders: v.numOfOrders }, out));
    return out as RiskSettings;
  }
  if (out.stopLossPriceAbove !== undefined) errors.push({ field: 'stopLossPriceAbove', message: 'stopLossPriceAbove applies to neutral grids only: a long or short grid has one stop-loss (stopLossPrice)' });
  if (out.spacing === 'percent' && !(v.interval < 100)) errors.push({ field: 'interval', message: 'interval must be below 100 (%) with percent spacing' });
  if (short) {
    if (typeof out.stopLossPrice === 'number' && out.stopLossPrice <= v.entryPrice) errors.push({ field: 'stopLossPrice', message: 'stopLossPrice must be above the entry price of a short grid' });
    if (typeof out.reanchorLimit === 'number' && out.reanchorLimit >= v.entryPrice) errors.push({ field: 'reanchorLimit', message: 'reanchorLimit must be below the entry price of a short grid' });
    if (out.trailDownLimit !== undefined) errors.push({ field: 'trailDownLimit', message: 'trailDownLimit applies to long grids only: a short grid does not trail down' });
  } else {
    if (typeof out.stopLossPrice === 'number' && out.stopLossPrice >= v.entryPrice) errors.push({ field: 'stopLossPrice', message: 'stopLossPrice must be below the entry price' });
    if (typeof out.reanchorLimit === 'number' && out.reanchorLimit <= v.entryPrice) errors.push({ field: 'reanchorLimit', message: 'reanchorLimit must be above the entry price' });
    if (typeof out.trailDownLimit === 'number' && out.trailDownLimit >= v.entryPrice) errors.push({ field: 'trailDownLimit', message: 'trailDownLimit must be below the entry price' });
    // Binance: the trailing down limit "should be higher than ... Stop Loss Price for the long grid"
    // (https://www.binance.com/en/support/faq/how-to-use-the-trailing-up-and-trailing-down-functions-in-usd%25E2%2593%25A2-m-futures-grid-trading-7a7bb22420404385991dee3a0930207d)
    if (typeof out.trailDownLimit === 'number' && typeof out.stopLossPrice === 'number' && out.stopLossPercent === undefined && out.trailDownLimit <= out.stopLossPrice) {
      errors.push({ field: 'trailDownLimit', message: 'trailDownLimit must be above the stop-loss price' });
    }
  }
  if (errors.length) throw new ValidationError(errors);
  return out as RiskSettings;
}

function isCleared(input: unknown, key: string): boolean {
  if (!input || typeof input !== 'object') return false;
  const o = input as Record<string, unknown>;
  return key in o && (o[key] === '' || o[key] === null);
}

/** An edit that sends an optional setting empty ('' or null) turns it off: null in BotEdited, dropped from the config. */
function clearedRiskSettings(input: unknown): Record<string, null> {
  const out: Record<string, null> = {};
  if (!input || typeof input !== 'object') return out;
  const o = input as Record<string, unknown>;
  for (const key of RISK_FIELDS) if (key in o && (o[key] === '' || o[key] === null)) out[key] = null;
  return out;
}

/**
 * Issue 40, the investment-based form: the total USDT the bot's orders lock (futures: their margin), in
 * place of `orderSize` (or an infinity grid's `quoteValue`): the server sizes the orders from it at the
 * market's steps and minimums (bot-investment.rules.ts) and stores both, so an edit shows it.
 */
export const investmentField = documentedAs(
  z.preprocess(
    blank,
    z
      .number({ invalid_type_error: 'investment must be a number of USDT greater than 0' })
      .refine((n) => Number.isFinite(n) && n > 0, { message: 'investment must be a number of USDT greater than 0' })
      .refine((n) => n <= 1_000_000_000, { message: 'investment must be at most 1000000000 USDT' })
      .refine((n) => decimalsOf(n) <= MAX_DECIMALS, { message: 'investment must have at most 8 decimals' })
      .optional(),
  ),
  {
    type: 'number',
    minimum: 0,
    exclusiveMinimum: true,
    maximum: 1_000_000_000,
    description: "issue 40: the total investment in USDT (futures: margin) in place of orderSize (an infinity grid's quoteValue): the server sizes the orders from it at the market's amount step, minimum amount and minimum order value, refuses one too small for them with the numbers, and stores it; on an edit '' or null removes it",
  },
);

const editFields = {
  exchange,
  numOfOrders: positive('numOfOrders', true),
  // issue 40: required unless an investment sizes it (requiredProblems)
  orderSize: optionalPositive('orderSize', 'an investment sizes it'),
  interval: positive('interval'),
  entryPrice: positive('entryPrice'),
  // issue 40: required unless the grid is neutral, which has no take profit of its own (requiredProblems)
  takeProfit: optionalPositive('takeProfit', "the grid is neutral (direction neutral: it has no take profit of its own; an edit without one keeps the bot's)"),
  leverage,
  ...riskFields,
  direction,
  name: botNameField,
  investment: investmentField,
  marginMode,
};

export const createBotSchema = z.object({ ...editFields, userId, symbol, botType, confirmAboveMarket });
export const editBotSchema = z.object({ ...editFields, userId, confirmAboveMarket });

function parse<T extends z.ZodTypeAny>(schema: T, input: unknown, required: FieldError[] = []): z.output<T> {
  const result = schema.safeParse(input ?? {});
  if (result.success && required.length === 0) return result.data;
  const errors = result.success ? [] : toFieldErrors(result.error);
  for (const e of required) if (!errors.some((x) => x.field === e.field)) errors.push(e);
  throw new ValidationError(inFieldOrder(errors));
}

/** Field messages in the body's field order, as the schema reports them (stable within a field). */
function inFieldOrder(errors: FieldError[]): FieldError[] {
  const order = Object.keys(editFields);
  const at = (f: string) => (order.includes(f) ? order.indexOf(f) : order.length);
  return errors.map((e, i) => ({ e, i })).sort((a, b) => at(a.e.field) - at(b.e.field) || a.i - b.i).map(({ e }) => e);
}

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/**
 * Issue 40, "fields a style does not use are hidden or optional": the take profit is required of a long or
 * short grid, not of a neutral one (its pairs earn one interval each, libs/trading styles/neutral/neutral.engine.ts); the
 * order size is required unless an investment sizes it (sizedByInvestment). `direction`: the grid's, the
 * stored one on an edit that does not change it.
 */
function requiredProblems(input: unknown, direction: unknown): FieldError[] {
  const body = input && typeof input === 'object' ? (input as Record<string, unknown>) : {};
  const out: FieldError[] = [];
  if (isBlank(body.orderSize)) out.push({ field: 'orderSize', message: 'orderSize is required' });
  if (isBlank(body.takeProfit) && styleOfDirection(direction)?.requiresTakeProfit !== false) out.push({ field: 'takeProfit', message: 'takeProfit is required' });
  return out;
}

/** The direction a body asks for ('' or null: back to the spec's long grid), else `stored`. */
function directionAsked(input: unknown, stored?: string): unknown {
  const body = input && typeof input === 'object' ? (input as Record<string, unknown>) : {};
  if (body.direction === '' || body.direction === null) return undefined;
  return body.direction ?? stored;
}

export const INVESTMENT_NOT_HERE = 'investment is taken where the market is known (POST /api/bots, PUT /api/bots/{id}): give orderSize here';

/**
 * A body with an investment (issue 40): its other fields are checked first (with a stand-in size), then
 * the investment sizes the orders (`sizer`), and the body is parsed with that size, the investment kept in
 * the config. A size given as well must be the one the investment sizes. Without an investment: `run` alone.
 */
function sizedByInvestment<T extends { config: object }>(input: unknown, field: string, sizer: OrderSizer | undefined, run: (body: unknown) => T): T {
  const body = input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : null;
  if (!body || isBlank(body.investment)) return run(input);
  const errors: FieldError[] = [];
  const investment = investmentField.safeParse(body.investment);
  if (!investment.success) errors.push(...toFieldErrors(investment.error).map((e) => ({ ...e, field: 'investment' })));
  let probe: T | null = null;
  try {
    probe = run({ ...body, investment: undefined, [field]: 1 });
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    errors.push(...err.errors.filter((e) => e.field !== field));
  }
  if (errors.length || !probe || !investment.success || investment.data === undefined) throw new ValidationError(inFieldOrder(errors));
  if (!sizer) throw new ValidationError([{ field: 'investment', message: INVESTMENT_NOT_HERE }]);
  const size = sizer(probe.config as Parameters<OrderSizer>[0], investment.data);
  if (!isBlank(body[field]) && Number(body[field]) !== size) {
    throw new ValidationError([{ field, message: `${field} ${String(body[field])} is not what the investment sizes: ${shown(investment.data)} USDT sizes ${shown(size)}; give one of them` }]);
  }
  const out = run({ ...body, investment: undefined, [field]: size });
  return { ...out, config: { ...out.config, investment: investment.data } };
}

/** The venue's default maker rate of a bot's market (a fraction), when the market's own is not known. */
export function defaultMakerRate(exchange: ExchangeName, botType: BotType): number {
  return venueRules(exchange, botType === 'Futures' ? 'futures' : 'spot').fees.maker;
}

/**
 * A take-profit that cannot cover the round trip of maker fees books a loss as "profit" (issue 10):
 * refused with the minimum of the one formula (libs/exchanges/src/venues, docs/exchanges.md). Maker,
 * not taker: the grid's buys and its take-profit rest on the book. The one message of this rule, for
 * the parse (venue default rate), the server's market check and the form (the market's rate).
 */
export function takeProfitFeeError(takeProfit: number, makerRate: number): FieldError | null {
  const min = minTakeProfitPercent(makerRate);
  if (takeProfit >= min) return null;
  return {
    field: 'takeProfit',
    message: `Take profit must be at least ${shown(min)} %: the buy and the take-profit sell each pay the ${shown(makerRate * 100)} % maker fee`,
  };
}

/**
 * Issue 32: a body may give the ladder as a range (lower, upper, levels, kind: bot-range.rules.ts),
 * converted at `priceStep` (the market's, when the caller could ask it) before the checks below.
 */
/**
 * Issue 32, issue 42: a body's `style` names a style of the registry (styles/registry.ts, or a plug-in's
 * in options.styleRules), parsed by its own rules (the infinity grid's: styles/infinity/infinity.rules.ts);
 * anything else but 'ladder' is refused.
 */
export function parseCreateBot(input: unknown, options: CreateOptions = {}): CreateBotInput {
  const style = input && typeof input === 'object' ? (input as Record<string, unknown>).style : undefined;
  const builtIn = builtInStyleRules();
  const rules = styleRulesFor(style, [...(options.styleRules ?? []), ...builtIn]);
  if (rules) {
    // a style whose investment sizes a field of its own (BotStyle.sizedField) is sized before its parse
    const sized = (rules as Partial<Pick<BotStyle, 'sizedField'>>).sizedField;
    const run = (body: unknown) => rules.parseCreate(body, options, parseCreateLadderBody);
    return sized ? sizedByInvestment(input, sized, options.sizeOrders, run) : run(input);
  }
  if (style !== undefined && style !== null && style !== '' && style !== 'ladder') {
    throw new ValidationError([{ field: 'style', message: `style must be ladder or ${[...builtIn, ...(options.styleRules ?? [])].map((r) => r.style).join(' or ')}` }]);
  }
  return parseCreateLadderBody(input, options);
}

/** A ladder's create body (long, short, neutral by `direction`), a range and an investment converted first. */
function parseCreateLadderBody(input: unknown, options: CreateOptions): CreateBotInput {
  return checkedInRangeTerms(input, options.priceStep, NUMERIC_BOUNDS.numOfOrders.max, (body) => sizedByInvestment(body, 'orderSize', options.sizeOrders, parseCreateLadder));
}

/**
 * The form's built-in styles besides the ladder: the registry's styles that a body names by its `style`
 * (plug-ins add theirs through options.styleRules; the style-names rule reads their names).
 */
export function builtInStyleRules(): readonly BotStyle[] {
  return builtInBotStyles().filter((s) => s.namedBy === 'style');
}

/** A body asking an edit for a style is refused (a style's own refusal of its edits: BotStyle.editRefusal). */
export const EDIT_STYLE_MESSAGE = 'style cannot be changed by an edit: a bot keeps the style it was created with';

function parseCreateLadder(input: unknown): CreateBotInput {
  const v = parse(createBotSchema, input, requiredProblems(input, directionAsked(input)));
  throwIfAny(numericBoundProblems({ ...v, short: v.direction === 'short' }));
  if (v.leverage !== undefined && v.botType === 'Spot' && v.leverage !== 1) {
    throw new ValidationError([{ field: 'leverage', message: 'leverage applies to futures bots only' }]);
  }
  const own = styleOfDirection(v.direction);
  if (v.direction === 'short' && v.botType !== 'Futures') throw new ValidationError([{ field: 'direction', message: SHORT_SPOT_MESSAGE }]);
  if (own?.onlyBotType && v.botType !== own.onlyBotType.botType) throw new ValidationError([{ field: 'direction', message: own.onlyBotType.message }]);
  if (v.marginMode !== undefined && v.botType !== 'Futures') throw new ValidationError([{ field: 'marginMode', message: MARGIN_MODE_SPOT_MESSAGE }]);
  throwIfAny(own?.formProblems?.(v) ?? []);
  // (a style without a take profit of its own, BotStyle.requiresTakeProfit: one given is kept for a switch back, checked then)
  const feeError = own?.requiresTakeProfit === false || v.takeProfit === undefined ? null : takeProfitFeeError(v.takeProfit, defaultMakerRate(v.exchange, v.botType));
  if (feeError) throw new ValidationError([feeError]);
  return {
    userId: v.userId,
    botType: v.botType,
    ...(v.confirmAboveMarket ? { confirmAboveMarket: true } : {}),
    config: {
      exchange: v.exchange,
      symbol: v.symbol,
      numOfOrders: v.numOfOrders,
      orderSize: v.orderSize!,
      interval: v.interval,
      entryPrice: v.entryPrice,
      // a neutral grid without one stores 0, as an infinity grid's unused ladder fields (bot.events.ts)
      takeProfit: v.takeProfit ?? 0,
      leverage: v.botType === 'Futures' ? (v.leverage ?? 1) : 1,
      ...(v.marginMode !== undefined ? { marginMode: v.marginMode } : {}),
      ...riskSettings(v, v.direction === 'short'),
      ...(v.direction !== undefined ? { direction: v.direction } : {}),
      ...(v.name ? { name: v.name } : {}),
    },
  };
}

/**
 * `botType`: the edited bot's type when the caller knows it; without it the take-profit is checked
 * against the lower (futures) fees of the exchange, which never refuses a valid edit.
 */
export function parseEditBot(
  input: unknown,
  botType: BotType = 'Futures',
  /** Issue 14: the bot's stored spacing, which stands when the edit does not change it (checks only); issue 32: its direction too. */
  /** Issue 40: `investment`, the bot's stored investment (an order size given by hand replaces it). */
  stored: { spacing?: 'absolute' | 'percent'; direction?: BotDirection; style?: BotStyleName; investment?: number } = {},
  /** Issue 32: the market's price step, for a body that gives a range (bot-range.rules.ts); issue 40: the sizing of an investment. */
  options: { priceStep?: number; sizeOrders?: OrderSizer } = {},
): EditBotInput {
  const refusal = botStyleOf({ style: stored.style })?.editRefusal;
  if (refusal) throw new ValidationError([{ field: 'style', message: refusal }]);
  const style = input && typeof input === 'object' ? (input as Record<string, unknown>).style : undefined;
  if (style !== undefined && style !== null && style !== '' && style !== 'ladder') throw new ValidationError([{ field: 'style', message: EDIT_STYLE_MESSAGE }]);
  const edit = checkedInRangeTerms(input, options.priceStep, NUMERIC_BOUNDS.numOfOrders.max, (body) => sizedByInvestment(body, 'orderSize', options.sizeOrders, (b) => parseEditLadder(b, botType, stored)));
  // issue 40: an edit that gives the order size (or clears the investment) no longer follows the stored investment
  const c = edit.config as { investment?: number | null };
  if (c.investment === undefined && (stored.investment !== undefined || isCleared(input, 'investment'))) c.investment = null;
  return edit;
}

/** An edit's settings: a take profit left out keeps the stored one (a neutral grid's, issue 40); `name` and `investment` null remove them. */
type EditBotInput = { userId?: string; confirmAboveMarket?: boolean; config: BotConfigEdit };

function parseEditLadder(input: unknown, botType: BotType, stored: { spacing?: 'absolute' | 'percent'; direction?: BotDirection }): EditBotInput {
  const v = parse(editBotSchema, input, requiredProblems(input, directionAsked(input, stored.direction)));
  const cleared = clearedRiskSettings(input);
  const spacing = v.spacing ?? ('spacing' in cleared ? undefined : stored.spacing);
  // an edit without a direction keeps the bot's; '' or null turns it back to the spec's long grid
  const clearsDirection = isCleared(input, 'direction');
  const short = (v.direction ?? (clearsDirection ? undefined : stored.direction)) === 'short';
  if (v.direction === 'short' && botType === 'Spot') throw new ValidationError([{ field: 'direction', message: SHORT_SPOT_MESSAGE }]);
  const asked = styleOfDirection(v.direction)?.onlyBotType;
  if (asked && botType !== asked.botType) throw new ValidationError([{ field: 'direction', message: asked.message }]);
  if (v.marginMode !== undefined && botType === 'Spot') throw new ValidationError([{ field: 'marginMode', message: MARGIN_MODE_SPOT_MESSAGE }]);
  throwIfAny(styleOfDirection(v.direction ?? (clearsDirection ? undefined : stored.direction))?.formProblems?.({ ...v, spacing }) ?? []);
  throwIfAny(numericBoundProblems({ ...v, spacing, short }));
  if (spacing === 'percent' && v.spacing === undefined) riskSettings({ ...v, spacing }, short); // the percent interval's bound
  const noTakeProfit = styleOfDirection(directionAsked(input, stored.direction))?.requiresTakeProfit === false;
  const feeError = noTakeProfit || v.takeProfit === undefined ? null : takeProfitFeeError(v.takeProfit, defaultMakerRate(v.exchange, botType));
  if (feeError) throw new ValidationError([feeError]);
  return {
    userId: v.userId,
    ...(v.confirmAboveMarket ? { confirmAboveMarket: true } : {}),
    config: {
      exchange: v.exchange,
      numOfOrders: v.numOfOrders,
      orderSize: v.orderSize!,
      interval: v.interval,
      entryPrice: v.entryPrice,
      // a neutral grid's edit without one keeps the stored take profit (issue 40)
      ...(v.takeProfit !== undefined ? { takeProfit: v.takeProfit } : {}),
      leverage: v.leverage,
      // issue 40: a name given is set, '' or null removes it, absent keeps it
      ...(v.name ? { name: v.name } : isCleared(input, 'name') || v.name === '' ? { name: null } : {}),
      ...(v.marginMode !== undefined ? { marginMode: v.marginMode } : {}),
      ...riskSettings({ ...v, direction: v.direction ?? (clearsDirection ? undefined : stored.direction) }, short),
      ...cleared,
      ...(v.direction !== undefined ? { direction: v.direction } : clearsDirection ? ({ direction: null } as Record<string, null>) : {}),
    },
  };
}

// ---- numeric bounds (issue 11, finding 3) -----------------------------------
// Every number a bot carries is finite and within sane bounds before it is stored, so a bot can never
// be created or edited into a state its runner cannot trade (9e300 overflowed the ladder maths, 1e-9
// rounded to a zero amount, an interval above the entry price gave negative prices). Pure: the
// dashboard's form calls the same functions.

/** Smallest step a price or amount may have (8 decimals, the precision every venue we offer quotes in). */
export const MAX_DECIMALS = 8;

/** The take-profit's ceiling, in words (docs/risk.md): a grid trades around the market, not for a doubling. */
export const TAKE_PROFIT_MAX_MESSAGE = 'takeProfit must be at most 100 %: above it the price would have to more than double before the first sale';

/** Inclusive bounds of each numeric field. */
export const NUMERIC_BOUNDS = {
  numOfOrders: { min: 1, max: 99 },
  orderSize: { min: 0.00000001, max: 1_000_000 },
  interval: { min: 0.00000001, max: 1_000_000_000 },
  entryPrice: { min: 0.00000001, max: 1_000_000_000 },
  /** At most 100 % (issue 29 finding 3): the price would have to double before the first sale. */
  takeProfit: { min: 0.00000001, max: 100 },
  leverage: { min: 1, max: 125 },
} as const;

export type BoundedField = keyof typeof NUMERIC_BOUNDS;

/** The numeric fields of a bot form, as numbers (NaN or undefined where not given). */
export interface NumericBotFields {
  numOfOrders?: number;
  orderSize?: number;
  interval?: number;
  entryPrice?: number;
  takeProfit?: number;
  leverage?: number;
  /** Issue 14: with 'percent' the interval is a percentage (checked below 100 with the risk settings). */
  spacing?: 'absolute' | 'percent';
  /** Issue 32: a short grid's ladder rises from the entry: it never reaches zero. */
  short?: boolean;
}

/** How many decimals a finite number has when written out (1e-9 has 9, 0.5 has 1, 1e21 has 0). */
export function decimalsOf(n: number): number {
  if (!Number.isFinite(n)) return Infinity;
  const [mantissa, exp] = Math.abs(n).toString().split('e');
  const frac = mantissa.split('.')[1]?.length ?? 0;
  return Math.max(0, frac - Number(exp ?? 0));
}

/** Written out without exponent, for messages: 0.00000001, 1000000000. */
function plain(n: number): string {
  return n.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: MAX_DECIMALS });
}

/** One field's bound problem, or null: finite, within [min, max], at most MAX_DECIMALS decimals. */
export function fieldBoundProblem(field: BoundedField, value: number | undefined): string | null {
  if (value === undefined) return null;
  const { min, max } = NUMERIC_BOUNDS[field];
  if (typeof value !== 'number' || !Number.isFinite(value)) return `${field} must be a finite number`;
  if (value < min) return `${field} must be at least ${plain(min)}`;
  if (value > max) return field === 'takeProfit' ? TAKE_PROFIT_MAX_MESSAGE : `${field} must be at most ${plain(max)}`;
  if (decimalsOf(value) > MAX_DECIMALS) return `${field} must have at most ${MAX_DECIMALS} decimals`;
  return null;
}

/**
 * The grid as a whole: the ladder is entryPrice − i·interval for i = 0 … numOfOrders−1, so the lowest
 * order must still be priced above 0 (and the interval lie below the entry price). The one rule and
 * message of a ladder reaching zero, shown by the form under Grid size and answered by the server.
 */
export function ladderBoundProblems(v: NumericBotFields): FieldError[] {
  const { numOfOrders: n, interval, entryPrice } = v;
  if (v.spacing === 'percent') return []; // geometric: every rung stays above 0 (docs/risk.md)
  if (v.short) return []; // short (issue 32): entry + i·interval, every rung above the entry
  if (![n, interval, entryPrice].every((x) => typeof x === 'number' && Number.isFinite(x) && x > 0)) return [];
  const lowest = entryPrice! - (n! - 1) * interval!;
  if (lowest <= 0) {
    const at = shown(Math.round(lowest * 1e8) / 1e8);
    return [{ field: 'numOfOrders', message: `The lowest order would be at ${at}: lower the grid size or the price interval` }];
  }
  if (interval! >= entryPrice!) return [{ field: 'interval', message: 'interval must be below the entry price' }];
  return [];
}

/** Every numeric bound problem of a bot form, as field messages (empty when the numbers are sane). */
export function numericBoundProblems(v: NumericBotFields): FieldError[] {
  const errors: FieldError[] = [];
  for (const field of Object.keys(NUMERIC_BOUNDS) as BoundedField[]) {
    const message = fieldBoundProblem(field, v[field]);
    if (message) errors.push({ field, message });
  }
  return errors.length > 0 ? errors : ladderBoundProblems(v);
}

function throwIfAny(errors: FieldError[]): void {
  if (errors.length > 0) throw new ValidationError(errors);
}

/** The fields a sweep may vary (libs/backtest): each value it tries is a value the bot form accepts. */
export type SweptBotField = 'interval' | 'numOfOrders' | 'takeProfit';

/**
 * One value of a bot field, as the bot form judges it: the form's text rules (length, number > 0,
 * whole number), the numeric bounds and, for the take-profit, the round trip of the venue's default
 * maker fee. The same schema and functions as parseCreateBot; the message, or null when valid.
 */
export function botFieldProblem(field: SweptBotField, value: number, market: { exchange: ExchangeName; botType: BotType }): string | null {
  const parsed = createBotSchema.shape[field].safeParse(value);
  if (!parsed.success) return parsed.error.issues[0].message;
  const bound = fieldBoundProblem(field, parsed.data);
  if (bound) return bound;
  if (parsed.data === undefined) return `${field} is required`;
  if (field === 'takeProfit') return takeProfitFeeError(parsed.data, defaultMakerRate(market.exchange, market.botType))?.message ?? null;
  return null;
}

/** The rules of the style a body names among `rules` (a plug-in's before the built-in ones); undefined for the ladder or an unknown style. */
export function styleRulesFor(style: unknown, rules: readonly BotStyleRules[]): BotStyleRules | undefined {
  return typeof style === 'string' ? rules.find((r) => r.style === style) : undefined;
}
