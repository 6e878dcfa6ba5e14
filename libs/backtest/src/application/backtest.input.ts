/**
 * The bodies of POST /api/backtests and /api/backtests/sweep. The grid fields are the bot form's own
 * (same rules and messages as creating a bot); the rest bounds what a request may cost.
 */
import { z } from 'zod';
import { botFieldProblem, parseCreateBot, toFieldErrors, type BotStyleRules, type SweptBotField } from '@gridrocket/bots';
import { documentedAs, stylePluginParts, ValidationError, type FieldError } from '@gridrocket/shared';
import { TIMEFRAMES, type Timeframe } from '../domain/candle';
import type { BacktestRequest } from '../domain/backtest.events';
import { MAX_CANDLES } from '../candles/candle-source.port';
import { SWEEP_MEASURES, expandRange, sweepSize, type SweepRanges } from '../domain/sweep';
import { BACKTEST_STYLES, backtestStyles, bodyStyles, bodyWalk, ladderBodyGrid, stylesListExample, styleMarketProblem, styleOf, sweepsFrom, walkNamed, type BacktestStyle, type StyledGrid } from '../domain/styles';
import type { BacktestWalk, BodyGrid } from '../domain/walks/backtest-walk';

/** Most combinations of one sweep over the API, and most candle-runs (combinations × candles). */
export const MAX_API_SWEEP = 2000;
export const MAX_SWEEP_WORK = 400_000_000;

/** The candles a request's period holds: (to − from) ÷ timeframe (the paper history has exactly these). */
export function periodCandles(request: Pick<BacktestRequest, 'from' | 'to' | 'timeframe'>): number {
  return Math.ceil((request.to - request.from) / TIMEFRAMES[request.timeframe]);
}

/**
 * The cap on a sweep's work, counted on the candles it really runs over (`rows`: an upload's rows, the
 * period's candles otherwise): a field message, or null.
 */
export function sweepWorkProblem(combinations: number, rows: number): FieldError | null {
  if (combinations * rows <= MAX_SWEEP_WORK) return null;
  return { field: 'ranges', message: `The sweep is too large: ${combinations} combinations × ${rows} candles; at most ${MAX_SWEEP_WORK} candle-runs` };
}

const SWEPT_FIELDS: readonly SweptBotField[] = ['interval', 'numOfOrders', 'takeProfit'];

/** Every value a sweep tries must be one the bot form accepts (its rules and message); one error per range. */
export function sweepRangeProblems(ranges: SweepRanges, market: Parameters<typeof botFieldProblem>[2]): FieldError[] {
  const errors: FieldError[] = [];
  for (const field of SWEPT_FIELDS) {
    for (const value of expandRange(ranges[field])) {
      const problem = botFieldProblem(field, value, market);
      if (problem) {
        errors.push({ field: `ranges.${field}`, message: `${problem} (the range has ${value})` });
        break;
      }
    }
  }
  return errors;
}
const DAY = 86_400_000;

const num = (field: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z.number({ required_error: `${field} is required`, invalid_type_error: `${field} must be a number` }).finite(`${field} must be a number`),
  );

export const backtestPeriodSchema = z.object({
  days: num('days').pipe(z.number().int('days must be a whole number').min(1, 'days must be from 1 to 365').max(365, 'days must be from 1 to 365')).optional(),
  candles: z.string({ invalid_type_error: 'candles must be the id of an uploaded CSV' }).uuid('candles must be the id of an uploaded CSV').optional(),
  timeframe: z
    .enum(Object.keys(TIMEFRAMES) as [Timeframe, ...Timeframe[]], { errorMap: () => ({ message: `timeframe must be one of ${Object.keys(TIMEFRAMES).join(', ')}` }) })
    .optional(),
});

const range = (field: string, integer: boolean) =>
  z
    .object(
      {
        from: num(`${field}.from`).pipe(z.number().positive(`${field}.from must be greater than 0`)),
        to: num(`${field}.to`).pipe(z.number().positive(`${field}.to must be greater than 0`)),
        step: num(`${field}.step`).pipe(z.number().positive(`${field}.step must be greater than 0`)),
      },
      { required_error: `${field} range is required`, invalid_type_error: `${field} must be a range {from, to, step}` },
    )
    .superRefine((r, ctx) => {
      if (r.to < r.from) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['to'], message: `${field}.to must be at least ${field}.from` });
      if (integer && (!Number.isInteger(r.from) || !Number.isInteger(r.step))) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: `${field} must be whole numbers` });
      }
    });

export const sweepSchema = z.object({
  ranges: z.object(
    { interval: range('interval', false), numOfOrders: range('numOfOrders', true), takeProfit: range('takeProfit', false) },
    { required_error: 'ranges are required', invalid_type_error: 'ranges must be an object' },
  ),
  measure: z.enum(SWEEP_MEASURES, { errorMap: () => ({ message: `measure must be one of ${SWEEP_MEASURES.join(', ')}` }) }).optional(),
  // issue 32: the grid styles compared on the same candles, each one more dimension of the cells
  styles: z
    .array(
      // the styles of the walk table (styles.ts backtestStyles: the built-in ones and a plug-in's); the contract names the built-in ones
      documentedAs(
        z.unknown().superRefine((v, ctx) => {
          if (typeof v !== 'string' || !backtestStyles().includes(v)) ctx.addIssue({ code: z.ZodIssueCode.custom, message: `styles must be some of ${backtestStyles().join(', ')}` });
        }).transform((v) => v as BacktestStyle),
        { type: 'string', enum: [...BACKTEST_STYLES] },
      ),
      { invalid_type_error: `styles must be a list, e.g. [${stylesListExample().map((s) => `"${s}"`).join(', ')}]` },
    )
    .min(1, 'styles must name at least one style')
    .max(BACKTEST_STYLES.length, `styles has at most ${BACKTEST_STYLES.length} styles`)
    .refine((list) => new Set(list).size === list.length, { message: 'styles must not repeat a style' })
    .optional(),
});

function parseWith<T extends z.ZodTypeAny>(schema: T, input: unknown): z.output<T> {
  const r = schema.safeParse(input ?? {});
  if (!r.success) throw new ValidationError(toFieldErrors(r.error));
  return r.data;
}

export interface ParsedBacktest {
  request: BacktestRequest;
}

/**
 * Issue 32: the `style` of a backtest body: the ladder's fields (absent, or 'ladder'; a walk may claim the bot
 * by its `direction`, BacktestWalk.fromLadderBot) or a walk's own body (BacktestWalk.body): the message lists
 * them from the walk table ('style must be ladder or infinity' today).
 */
const styleMessage = (): string => `style must be ${bodyStyles().join(' or ')}`;

function styleField(body: unknown): unknown {
  return body && typeof body === 'object' ? (body as Record<string, unknown>).style : undefined;
}

/** Runs one parse: its value, or null with its field errors added to `errors` (the caller throws them all together). */
function collect<T>(errors: FieldError[], parse: () => T): T | null {
  try {
    return parse();
  } catch (err) {
    if (err instanceof ValidationError) {
      errors.push(...err.errors);
      return null;
    }
    throw err;
  }
}

/**
 * The period of a backtest: `days` (1–365, default 30) of `timeframe` candles (default 1m), within
 * MAX_CANDLES, ending at the start of today (UTC). Issue 40: the same request gives the same result all day
 * (a period ending at the current minute was another period every minute); the last 30 days are the 30
 * whole days before today, which every timeframe divides.
 */
function periodOf(p: z.output<typeof backtestPeriodSchema>, now: number): Pick<BacktestRequest, 'timeframe' | 'from' | 'to'> {
  const timeframe = p.timeframe ?? '1m';
  const days = p.days ?? 30;
  const tf = TIMEFRAMES[timeframe];
  if ((days * DAY) / tf > MAX_CANDLES) {
    throw new ValidationError([{ field: 'days', message: `${days} days of ${timeframe} candles is more than ${MAX_CANDLES} candles: choose fewer days or a longer timeframe` }]);
  }
  const to = Math.floor(now / DAY) * DAY;
  return { timeframe, from: to - days * DAY, to };
}

/**
 * A single backtest: the bot form's fields, plus `days` (1–365, default 30) and `timeframe` (default 1m).
 * Issue 32: the ladder long or short, or a style of the ladder's fields by its `direction` (the neutral
 * futures grid: its walk claims it, walks/neutral.walk.ts; creating a neutral BOT stays refused by the
 * bots controller); or, with `style` naming a walk's own body, that style's fields (the infinity spot grid's:
 * the infinity bot's rules and messages) for backtests only; or a plug-in style's bot body.
 */
export function parseBacktestRequest(body: unknown, now: number, source: 'paper' | 'exchange'): BacktestRequest {
  const style = styleField(body);
  const plugin = typeof style === 'string' ? walkNamed(style) : undefined;
  if (plugin?.fromBot) return pluginBacktest(plugin.fromBot, body, now, source);
  const own = bodyWalk(style)?.body;
  if (!own && style !== undefined && style !== null && style !== '' && style !== 'ladder') {
    throw new ValidationError([{ field: 'style', message: styleMessage() }]);
  }
  const errors: FieldError[] = [];
  const grid = collect(errors, () => (own ? own.parse(body) : ladderBody(body)));
  const p = collect(errors, () => parseWith(backtestPeriodSchema, body)) ?? {};
  if (errors.length || !grid) throw new ValidationError(errors);
  const period = periodOf(p, now);
  const candles = p.candles ? { candlesId: p.candles.toLowerCase() } : {};
  return { ...grid, ...period, source, ...candles };
}

/** A body of the ladder's fields: the bot form's (its rules and messages), the grid of the walk that claims the bot. */
function ladderBody(body: unknown): BodyGrid<StyledGrid> {
  // (a body without the style is the ladder's: its style field is dropped, as the bot form's)
  const b = parseCreateBot(body && typeof body === 'object' ? { ...(body as object), style: undefined } : body);
  const core = {
    botType: b.botType,
    numOfOrders: b.config.numOfOrders,
    orderSize: b.config.orderSize,
    interval: b.config.interval,
    entryPrice: b.config.entryPrice,
    takeProfit: b.config.takeProfit,
    leverage: b.config.leverage,
  };
  return { exchange: b.config.exchange, market: b.botType === 'Futures' ? 'futures' : 'spot', symbol: b.config.symbol, config: ladderBodyGrid(b.config, core) };
}

/** Issue 42: a plug-in style's backtest: its bot's create body (its own rules: libs/bots bot.rules.ts BotStyleRules), its walk's grid of it. */
function pluginBacktest(fromBot: NonNullable<BacktestWalk['fromBot']>, body: unknown, now: number, source: 'paper' | 'exchange'): BacktestRequest {
  const errors: FieldError[] = [];
  const bot = collect(errors, () => parseCreateBot(body, { styleRules: stylePluginParts<BotStyleRules>('rules') }));
  const p = collect(errors, () => parseWith(backtestPeriodSchema, body)) ?? {};
  if (errors.length || !bot) throw new ValidationError(errors);
  const candles = p.candles ? { candlesId: p.candles.toLowerCase() } : {};
  const market = bot.botType === 'Futures' ? 'futures' : 'spot';
  return { exchange: bot.config.exchange, market, symbol: bot.config.symbol, config: fromBot(bot.config, bot.botType), ...periodOf(p, now), source, ...candles };
}

/**
 * A sweep: a single backtest's body plus `ranges` {interval, numOfOrders, takeProfit: {from, to, step}},
 * `measure`, and (issue 32) `styles`, the grid styles to compare on the same candles (each on its markets:
 * the walks' marketProblem; domain/sweep.ts says how each reads the ranges). Its base body is the ladder's
 * fields: a body of a style a sweep cannot start from gets that walk's message (its body's sweepProblem).
 * `rowsOf` counts the candles the request will run over (an upload's rows); by default the period's.
 */
export function parseSweepRequest(body: unknown, now: number, source: 'paper' | 'exchange', rowsOf: (request: BacktestRequest) => number = periodCandles): BacktestRequest {
  const errors: FieldError[] = [];
  const refused = bodyWalk(styleField(body))?.body?.sweepProblem;
  if (refused) errors.push({ field: 'style', message: refused });
  const base = errors.length ? null : collect(errors, () => parseBacktestRequest(body, now, source));
  const sweep = collect(errors, () => parseWith(sweepSchema, body));
  if (base && sweep?.styles) {
    for (const style of sweep.styles) {
      const problem = styleMarketProblem(style, base.market);
      if (problem) errors.push({ field: 'styles', message: problem });
    }
  }
  if (errors.length || !base || !sweep || !sweepsFrom(base.config)) throw new ValidationError(errors);
  const rangeErrors = sweepRangeProblems(sweep.ranges, { exchange: base.exchange, botType: base.config.botType });
  if (rangeErrors.length) throw new ValidationError(rangeErrors);
  const size = sweepSize(sweep.ranges, sweep.styles ?? [styleOf(base.config)]);
  if (size > MAX_API_SWEEP) {
    throw new ValidationError([{ field: 'ranges', message: `The sweep has ${size} combinations; at most ${MAX_API_SWEEP} are allowed` }]);
  }
  const work = sweepWorkProblem(size, rowsOf(base));
  if (work) throw new ValidationError([work]);
  return { ...base, sweep: { ranges: sweep.ranges, measure: sweep.measure ?? 'profit', ...(sweep.styles ? { styles: sweep.styles } : {}) } };
}
