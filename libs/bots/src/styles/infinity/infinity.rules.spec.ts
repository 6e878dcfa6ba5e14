import { fieldErrors } from '../../testing/spec-helpers';
import { INFINITY_EDIT_MESSAGE, INFINITY_SPOT_MESSAGE, parseInfinityBot } from './infinity.rules';
import { EDIT_STYLE_MESSAGE, parseCreateBot, parseEditBot } from '../../domain/bot.rules';

const body = { style: 'infinity', exchange: 'Binance', symbol: 'ltcusdt', botType: 'Spot', entryPrice: '100', stepPercent: 2, quoteValue: 20, lowerPrice: 95, initialQuote: 100 };

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

  it('given the create route\'s rules, then a spot infinity body is stored with its own fields and the ladder\'s at 0 (entry price its start)', () => {
    expect(parseCreateBot({ ...body, userId: 'u1' })).toEqual({
      userId: 'u1',
      botType: 'Spot',
      config: { exchange: 'Binance', symbol: 'LTCUSDT', numOfOrders: 0, orderSize: 0, interval: 0, entryPrice: 100, takeProfit: 0, leverage: 1, style: 'infinity', stepPercent: 2, quoteValue: 20, lowerPrice: 95, initialQuote: 100 },
    });
  });

  it('given the create route\'s rules, then a futures infinity bot, a ladder field in an infinity body, another style are refused with field messages', () => {
    expect(fieldErrors(() => parseCreateBot({ ...body, botType: 'Futures' }))).toEqual([{ field: 'botType', message: INFINITY_SPOT_MESSAGE }]);
    expect(fieldErrors(() => parseCreateBot({ ...body, numOfOrders: 5, direction: '' }))).toEqual([
      { field: 'numOfOrders', message: 'numOfOrders does not apply to an infinity grid (its settings: entryPrice, stepPercent, quoteValue, lowerPrice, initialQuote)' },
    ]);
    expect(fieldErrors(() => parseCreateBot({ ...body, userId: 7 }))).toEqual([{ field: 'userId', message: 'userId must be text' }]);
    expect(fieldErrors(() => parseCreateBot({ ...body, leverage: 3 }))).toEqual([{ field: 'leverage', message: 'leverage applies to futures bots only' }]);
    expect(parseCreateBot({ ...body, leverage: '1' }).config.leverage).toBe(1);
    const ladder = { exchange: 'Binance', symbol: 'LTCUSDT', botType: 'Spot', numOfOrders: 2, orderSize: 0.5, interval: 2, entryPrice: 90, takeProfit: 2 };
    expect(fieldErrors(() => parseCreateBot({ ...ladder, style: 'martingale' }))).toEqual([{ field: 'style', message: 'style must be ladder or infinity' }]);
    expect(parseCreateBot({ ...ladder, style: 'ladder' }).config.numOfOrders).toBe(2);
    expect(parseCreateBot(ladder).config.style).toBeUndefined();
  });

  it('given an edit, then an infinity bot\'s is refused, and an edit cannot turn a ladder into another style', () => {
    const edit = { exchange: 'Binance', numOfOrders: 2, orderSize: 0.5, interval: 2, entryPrice: 90, takeProfit: 2 };
    expect(fieldErrors(() => parseEditBot(edit, 'Spot', { style: 'infinity' }))).toEqual([{ field: 'style', message: INFINITY_EDIT_MESSAGE }]);
    expect(fieldErrors(() => parseEditBot({ ...edit, style: 'infinity' }, 'Spot'))).toEqual([{ field: 'style', message: EDIT_STYLE_MESSAGE }]);
    expect(parseEditBot({ ...edit, style: 'ladder' }, 'Spot').config.numOfOrders).toBe(2);
  });
});
