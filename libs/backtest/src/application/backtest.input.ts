/**
 * The bodies of POST /api/backtests and /api/backtests/sweep. The grid fields are the bot form's own
 * (same rules and messages as creating a bot); the rest bounds what a request may cost.
 */
import { z } from 'zod';
import { botFieldProblem, parseCreateBot, toFieldErrors, type SweptBotField } from '@gridrocket/bots';
import { ValidationError, type FieldError } from '@gridrocket/shared';
import type { GridConfig } from '@gridrocket/trading/grid';
import { TIMEFRAMES, type Timeframe } from '../domain/candle';
import type { BacktestRequest } from '../domain/backtest.events';
import { MAX_CANDLES } from '../candles/candle-source.port';
import { SWEEP_MEASURES, expandRange, sweepSize, type SweepMeasure, type SweepRanges } from '../domain/sweep';

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
});

function parseWith<T extends z.ZodTypeAny>(schema: T, input: unknown): z.output<T> {
  const r = schema.safeParse(input ?? {});
  if (!r.success) throw new ValidationError(toFieldErrors(r.error));
  return r.data;
}

export interface ParsedBacktest {
  request: BacktestRequest;
}

export const NEUTRAL_BACKTEST_MESSAGE = 'Backtests of a neutral grid are not available yet: backtest its long and short halves';

/** A single backtest: the bot form's fields, plus `days` (1–365, default 30) and `timeframe` (default 1m). */
export function parseBacktestRequest(body: unknown, now: number, source: 'paper' | 'exchange'): BacktestRequest {
  const errors: FieldError[] = [];
  let bot: ReturnType<typeof parseCreateBot> | null = null;
  try {
    bot = parseCreateBot(body);
  } catch (err) {
    if (err instanceof ValidationError) errors.push(...err.errors);
    else throw err;
  }
  let p: z.output<typeof backtestPeriodSchema> = {};
  try {
    p = parseWith(backtestPeriodSchema, body);
  } catch (err) {
    if (err instanceof ValidationError) errors.push(...err.errors);
    else throw err;
  }
  if (errors.length || !bot) throw new ValidationError(errors);
  // issue 32: the neutral grid has its own backtest (domain/neutral-backtest.ts), not yet a job of this route
  if (bot.config.direction === 'neutral') throw new ValidationError([{ field: 'direction', message: NEUTRAL_BACKTEST_MESSAGE }]);
  const timeframe = p.timeframe ?? '1m';
  const days = p.days ?? 30;
  const tf = TIMEFRAMES[timeframe];
  if ((days * DAY) / tf > MAX_CANDLES) {
    throw new ValidationError([{ field: 'days', message: `${days} days of ${timeframe} candles is more than ${MAX_CANDLES} candles: choose fewer days or a longer timeframe` }]);
  }
  const to = Math.floor(now / tf) * tf;
  const config: GridConfig = { botType: bot.botType, ...bot.config, direction: bot.config.direction === 'short' ? 'short' : bot.config.direction === 'long' ? 'long' : undefined };
  return {
    exchange: bot.config.exchange,
    market: bot.botType === 'Futures' ? 'futures' : 'spot',
    symbol: bot.config.symbol,
    config: {
      botType: config.botType,
      numOfOrders: config.numOfOrders,
      orderSize: config.orderSize,
      interval: config.interval,
      entryPrice: config.entryPrice,
      takeProfit: config.takeProfit,
      leverage: config.leverage,
      ...(config.direction === 'short' ? { direction: 'short' as const } : {}), // issue 32
      ...(config.trailDownLimit !== undefined ? { trailDownLimit: config.trailDownLimit } : {}), // issue 32: trailing down is traded by the backtest too
    },
    timeframe,
    from: to - days * DAY,
    to,
    source,
    ...(p.candles ? { candlesId: p.candles.toLowerCase() } : {}),
  };
}

/**
 * A sweep: a single backtest's body plus `ranges` {interval, numOfOrders, takeProfit: {from, to, step}} and `measure`.
 * `rowsOf` counts the candles the request will run over (an upload's rows); by default the period's.
 */
export function parseSweepRequest(body: unknown, now: number, source: 'paper' | 'exchange', rowsOf: (request: BacktestRequest) => number = periodCandles): BacktestRequest {
  const errors: FieldError[] = [];
  let base: BacktestRequest | null = null;
  try {
    base = parseBacktestRequest(body, now, source);
  } catch (err) {
    if (err instanceof ValidationError) errors.push(...err.errors);
    else throw err;
  }
  let sweep: { ranges: SweepRanges; measure?: SweepMeasure } | null = null;
  try {
    sweep = parseWith(sweepSchema, body);
  } catch (err) {
    if (err instanceof ValidationError) errors.push(...err.errors);
    else throw err;
  }
  if (errors.length || !base || !sweep) throw new ValidationError(errors);
  const rangeErrors = sweepRangeProblems(sweep.ranges, { exchange: base.exchange, botType: base.config.botType });
  if (rangeErrors.length) throw new ValidationError(rangeErrors);
  const size = sweepSize(sweep.ranges);
  if (size > MAX_API_SWEEP) {
    throw new ValidationError([{ field: 'ranges', message: `The sweep has ${size} combinations; at most ${MAX_API_SWEEP} are allowed` }]);
  }
  const work = sweepWorkProblem(size, rowsOf(base));
  if (work) throw new ValidationError([work]);
  return { ...base, sweep: { ranges: sweep.ranges, measure: sweep.measure ?? 'profit' } };
}
