import { ValidationError } from '@gridrocket/shared';
import { INFINITY_SPOT_MESSAGE, parseInfinityBot } from './bot-infinity.rules';
import { INFINITY_NOT_YET_MESSAGE, parseCreateBot } from './bot.rules';

const body = { style: 'infinity', exchange: 'Binance', symbol: 'ltcusdt', botType: 'Spot', entryPrice: '100', stepPercent: 2, quoteValue: 20, lowerPrice: 95, initialQuote: 100 };
function fieldErrors(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    if (e instanceof ValidationError) return e.errors;
    throw e;
  }
  return [];
}

describe('infinity bot input rules', () => {
  it('given a spot infinity bot, then its fields are numbers and the initial buy defaults to 0', () => {
    expect(parseInfinityBot(body)).toEqual({ ...body, symbol: 'LTCUSDT', entryPrice: 100 });
    const { initialQuote: _q, ...without } = body;
    expect(parseInfinityBot(without).initialQuote).toBe(0);
  });

  it('given a futures bot, then it is refused on botType with the spot-only message', () => {
    expect(fieldErrors(() => parseInfinityBot({ ...body, botType: 'Futures' }))).toEqual([{ field: 'botType', message: INFINITY_SPOT_MESSAGE }]);
  });

  it('given bad values, then one message per field', () => {
    expect(fieldErrors(() => parseInfinityBot({ ...body, stepPercent: 50, quoteValue: 'x', lowerPrice: undefined, initialQuote: -1 }))).toEqual([
      { field: 'stepPercent', message: 'stepPercent must be a percentage greater than 0 and below 50' },
      { field: 'quoteValue', message: 'quoteValue must be a number greater than 0 (USDT per step)' },
      { field: 'lowerPrice', message: 'lowerPrice is required' },
      { field: 'initialQuote', message: 'initialQuote must be a number of 0 or more (USDT)' },
    ]);
    expect(fieldErrors(() => parseInfinityBot({ ...body, lowerPrice: 100 }))).toEqual([{ field: 'lowerPrice', message: 'lowerPrice must be below the entry price' }]);
  });

  it('given the create route\'s rules, then a body asking for an infinity bot is refused on style, never taken for a ladder', () => {
    const ladder = { exchange: 'Binance', symbol: 'LTCUSDT', botType: 'Spot', numOfOrders: 2, orderSize: 0.5, interval: 2, entryPrice: 90, takeProfit: 2 };
    expect(fieldErrors(() => parseCreateBot({ ...ladder, style: 'infinity' }))).toEqual([{ field: 'style', message: INFINITY_NOT_YET_MESSAGE }]);
    expect(parseCreateBot({ ...ladder, style: 'ladder' }).config.numOfOrders).toBe(2);
  });
});
