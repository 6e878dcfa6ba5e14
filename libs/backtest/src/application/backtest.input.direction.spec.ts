/**
 * Issue 32: a backtest of a short futures grid trades the short grid (the direction of the body reaches the
 * engine); a neutral futures grid and (style infinity) an infinity spot grid are backtests of their own
 * styles; each on the wrong market gets its field message.
 */
import { ValidationError, type FieldError } from '@gridrocket/shared';
import type { GridConfig } from '@gridrocket/trading/grid';
import { parseBacktestRequest, parseSweepRequest } from './backtest.input';
import { sweepSize } from '../domain/sweep';

const NOW = Date.UTC(2026, 0, 1);
const body = { exchange: 'Binance', symbol: 'LTCUSDT', botType: 'Futures', numOfOrders: 3, orderSize: 0.5, interval: 2, entryPrice: 92, takeProfit: 2, leverage: 5 };

describe('a backtest request with a direction', () => {
  it('short futures: the grid config carries direction short; without one it is long (nothing carried)', () => {
    expect((parseBacktestRequest({ ...body, direction: 'short' }, NOW, 'paper').config as GridConfig).direction).toBe('short');
    expect(parseBacktestRequest(body, NOW, 'paper').config).not.toHaveProperty('direction');
  });

  it('short spot: refused on the direction field', () => {
    let errors: unknown = null;
    try {
      parseBacktestRequest({ ...body, botType: 'Spot', leverage: 1, direction: 'short' }, NOW, 'paper');
    } catch (e) {
      errors = e instanceof ValidationError ? e.errors : e;
    }
    expect(errors).toEqual([{ field: 'direction', message: 'direction short applies to futures bots only: a spot bot buys its ladder (long)' }]);
  });

  it('neutral futures: the neutral grid (direction neutral reaches its backtest), never run as a long grid', () => {
    const r = parseBacktestRequest({ ...body, direction: 'neutral' }, NOW, 'paper');
    expect(r.market).toBe('futures');
    expect(r.config).toEqual({ botType: 'Futures', numOfOrders: 3, orderSize: 0.5, interval: 2, entryPrice: 92, takeProfit: 2, leverage: 5, direction: 'neutral' });
  });

  it('neutral spot: refused on the direction field; a neutral grid with a ladder-only setting: refused on that field', () => {
    expect(errorsOf(() => parseBacktestRequest({ ...body, botType: 'Spot', leverage: 1, direction: 'neutral' }, NOW, 'paper'))).toEqual([
      { field: 'direction', message: 'direction neutral applies to futures bots only: a spot bot buys its ladder (long)' },
    ]);
    expect(errorsOf(() => parseBacktestRequest({ ...body, direction: 'neutral', trailDownLimit: 80 }, NOW, 'paper'))).toEqual([
      { field: 'trailDownLimit', message: "trailDownLimit applies to long and short grids: a neutral grid's stop-loss is a price below its lowest buy" },
    ]);
  });
});

const INFINITY = { style: 'infinity', exchange: 'Binance', symbol: 'LTCUSDT', botType: 'Spot', entryPrice: 100, stepPercent: 2, quoteValue: 20, lowerPrice: 95, initialQuote: 100 };

function errorsOf(run: () => unknown): FieldError[] | unknown {
  try {
    run();
  } catch (e) {
    return e instanceof ValidationError ? e.errors : e;
  }
  return 'no error';
}

describe('a backtest request of an infinity grid (style infinity)', () => {
  it('spot: its own fields become the infinity config, with the period; initialQuote defaults to 0', () => {
    const r = parseBacktestRequest({ ...INFINITY, days: 7, timeframe: '1h' }, NOW, 'paper');
    expect(r).toMatchObject({ exchange: 'Binance', market: 'spot', symbol: 'LTCUSDT', timeframe: '1h', to: NOW, from: NOW - 7 * 86_400_000, source: 'paper' });
    expect(r.config).toEqual({ style: 'infinity', botType: 'Spot', entryPrice: 100, stepPercent: 2, quoteValue: 20, lowerPrice: 95, initialQuote: 100 });
    expect(parseBacktestRequest({ ...INFINITY, initialQuote: undefined }, NOW, 'paper').config).toMatchObject({ initialQuote: 0 });
  });

  it('futures: refused on botType; bad fields and a bad period each get their message together', () => {
    expect(errorsOf(() => parseBacktestRequest({ ...INFINITY, botType: 'Futures' }, NOW, 'paper'))).toEqual([
      { field: 'botType', message: 'style infinity applies to spot bots only: an infinity grid sells and buys the coin itself' },
    ]);
    expect(errorsOf(() => parseBacktestRequest({ ...INFINITY, stepPercent: 60, quoteValue: 'x', days: 0 }, NOW, 'paper'))).toEqual([
      { field: 'stepPercent', message: 'stepPercent must be a percentage greater than 0 and below 50' },
      { field: 'quoteValue', message: 'quoteValue must be a number greater than 0 (USDT per step)' },
      { field: 'days', message: 'days must be from 1 to 365' },
    ]);
    expect(errorsOf(() => parseBacktestRequest({ ...INFINITY, style: 'martingale' }, NOW, 'paper'))).toEqual([{ field: 'style', message: 'style must be ladder or infinity' }]);
  });
});

describe('a sweep comparing styles', () => {
  const ranges = { interval: { from: 1, to: 2, step: 1 }, numOfOrders: { from: 2, to: 3, step: 1 }, takeProfit: { from: 1, to: 2, step: 1 } };

  it('futures long, short, neutral: 8 + 8 + 4 = 20 combinations (the neutral grid has no take-profit), the styles kept', () => {
    const r = parseSweepRequest({ ...body, ranges, styles: ['long', 'short', 'neutral'] }, NOW, 'paper');
    expect(r.sweep).toEqual({ ranges, measure: 'profit', styles: ['long', 'short', 'neutral'] });
    expect(sweepSize(ranges, r.sweep!.styles)).toBe(20);
    expect(sweepSize(ranges)).toBe(8); // without styles: the ladder's 2 × 2 × 2
  });

  it('a style on the wrong market, a repeated or unknown style, an infinity body: field messages', () => {
    expect(errorsOf(() => parseSweepRequest({ ...body, ranges, styles: ['long', 'infinity'] }, NOW, 'paper'))).toEqual([
      { field: 'styles', message: 'style infinity applies to spot only: an infinity grid sells and buys the coin itself' },
    ]);
    expect(errorsOf(() => parseSweepRequest({ ...body, botType: 'Spot', leverage: 1, ranges, styles: ['neutral', 'short'] }, NOW, 'paper'))).toEqual([
      { field: 'styles', message: 'style neutral applies to futures only: a spot grid buys the coin it sells' },
      { field: 'styles', message: 'style short applies to futures only: a spot grid buys the coin it sells' },
    ]);
    expect(errorsOf(() => parseSweepRequest({ ...body, ranges, styles: ['long', 'long'] }, NOW, 'paper'))).toEqual([{ field: 'styles', message: 'styles must not repeat a style' }]);
    expect(errorsOf(() => parseSweepRequest({ ...body, ranges, styles: 'long' }, NOW, 'paper'))).toEqual([{ field: 'styles', message: 'styles must be a list, e.g. ["long", "neutral"]' }]);
    expect(errorsOf(() => parseSweepRequest({ ...body, ranges, styles: ['grid'] }, NOW, 'paper'))).toEqual([{ field: 'styles.0', message: 'styles must be some of long, short, neutral, infinity' }]);
    expect(errorsOf(() => parseSweepRequest({ ...INFINITY, ranges }, NOW, 'paper'))).toEqual([
      { field: 'style', message: "A sweep tries the ladder's settings (interval, numOfOrders, takeProfit): send the ladder's fields and compare the infinity grid with styles, e.g. ['long', 'infinity']" },
    ]);
  });

  it('the cap counts every style: 40 × 50 × 1 = 2000 for long alone is allowed, with neutral 4000 is not', () => {
    const big = { interval: { from: 0.1, to: 4, step: 0.1 }, numOfOrders: { from: 1, to: 50, step: 1 }, takeProfit: { from: 1, to: 1, step: 1 } };
    const small = { ...body, entryPrice: 300, timeframe: '1h', days: 1 };
    expect(parseSweepRequest({ ...small, ranges: big, styles: ['long'] }, NOW, 'paper').sweep!.styles).toEqual(['long']);
    expect(errorsOf(() => parseSweepRequest({ ...small, ranges: big, styles: ['long', 'neutral'] }, NOW, 'paper'))).toEqual([
      { field: 'ranges', message: 'The sweep has 4000 combinations; at most 2000 are allowed' },
    ]);
  });
});
