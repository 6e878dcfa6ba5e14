/**
 * Issue 40: forms that say why (point 7: a neutral grid needs no take profit), bot names, and the
 * investment-based form, in the server's bot rules (bot.rules.ts, bot-name.rules.ts) and the decider.
 */
import { fieldErrors as errorsOf } from '../testing/spec-helpers';
import { botDecider } from './bot.decider';
import type { BotEvent } from './bot.events';
import { investmentSizer } from './bot-investment.rules';
import { INVESTMENT_NOT_HERE, parseCreateBot, parseEditBot } from './bot.rules';
import { foldBot as fold, futuresBody, viewOfBot as viewOf } from './bot.rules.fixtures';

const { takeProfit: _tp, ...futures } = futuresBody;
const spot = { exchange: 'Binance', symbol: 'BTCUSDT', botType: 'Spot', numOfOrders: 5, orderSize: 0.001, interval: 1000, entryPrice: 60000, takeProfit: 1 };

describe('point 7: a neutral grid has no take profit of its own', () => {
  it('is created without one (absent or empty): its take profit is stored as 0, as an infinity grid\'s unused fields', () => {
    expect(parseCreateBot({ ...futures, direction: 'neutral' }).config).toMatchObject({ direction: 'neutral', takeProfit: 0 });
    expect(parseCreateBot({ ...futures, direction: 'neutral', takeProfit: '' }).config.takeProfit).toBe(0);
  });

  it('a long or short grid still needs one, named with every other missing field, in the body\'s order', () => {
    expect(errorsOf(() => parseCreateBot(futures))).toEqual([{ field: 'takeProfit', message: 'takeProfit is required' }]);
    expect(errorsOf(() => parseCreateBot({ ...futures, direction: 'short', interval: undefined }))).toEqual([
      { field: 'interval', message: 'interval is required' },
      { field: 'takeProfit', message: 'takeProfit is required' },
    ]);
  });

  it('one given to a neutral grid is not held to the fees it never pays (it is kept for a switch back)', () => {
    expect(parseCreateBot({ ...futures, direction: 'neutral', takeProfit: 0.01 }).config.takeProfit).toBe(0.01);
    expect(errorsOf(() => parseCreateBot({ ...futures, takeProfit: 0.01 }))[0].field).toBe('takeProfit');
  });

  it('an edit of a neutral grid without one keeps the stored one; an edit back to long needs one', () => {
    const edit = parseEditBot({ ...futures, symbol: undefined }, 'Futures', { direction: 'neutral' });
    expect(edit.config).not.toHaveProperty('takeProfit');
    const created: BotEvent = { type: 'BotCreated', data: { botId: 'b1', userId: 'u1', botType: 'Futures', ...parseCreateBot({ ...futures, direction: 'neutral', takeProfit: 1.5 }).config } };
    const edited = botDecider.decide({ type: 'EditBot', botId: 'b1', userId: 'u1', config: edit.config }, fold([created]));
    expect(viewOf([created, ...edited]).takeprofit).toBe(1.5);
    expect(errorsOf(() => parseEditBot({ ...futures, direction: 'long' }, 'Futures', { direction: 'neutral' }))).toEqual([{ field: 'takeProfit', message: 'takeProfit is required' }]);
  });
});

describe('bot names', () => {
  it('a name is trimmed and stored; blanks are no name', () => {
    expect(parseCreateBot({ ...spot, name: '  Night grid  ' }).config.name).toBe('Night grid');
    expect(parseCreateBot({ ...spot, name: '   ' }).config).not.toHaveProperty('name');
    expect(parseCreateBot(spot).config).not.toHaveProperty('name');
    expect(parseCreateBot({ style: 'infinity', exchange: 'Binance', symbol: 'BTCUSDT', botType: 'Spot', entryPrice: 100, stepPercent: 1, quoteValue: 10, lowerPrice: 80, name: ' Slow ' }).config.name).toBe('Slow');
  });

  it('at most 60 characters, text, no control characters nor direction overrides', () => {
    expect(parseCreateBot({ ...spot, name: 'x'.repeat(60) }).config.name).toHaveLength(60);
    expect(errorsOf(() => parseCreateBot({ ...spot, name: 'x'.repeat(61) }))).toEqual([{ field: 'name', message: 'name must be at most 60 characters' }]);
    const control = [{ field: 'name', message: 'name must not contain control characters (tabs, line breaks) or direction overrides' }];
    expect(errorsOf(() => parseCreateBot({ ...spot, name: 'Night\ngrid' }))).toEqual(control);
    expect(errorsOf(() => parseCreateBot({ ...spot, name: 'a\tb' }))).toEqual(control);
    expect(errorsOf(() => parseCreateBot({ ...spot, name: 'grid \u202Egnp.exe' }))).toEqual(control);
    expect(errorsOf(() => parseCreateBot({ ...spot, name: 42 }))).toEqual([{ field: 'name', message: 'name must be text' }]);
  });

  it('an edit renames the bot, removes the name with \'\', and keeps it when it sends none', () => {
    const created: BotEvent = { type: 'BotCreated', data: { botId: 'b1', userId: 'u1', botType: 'Spot', ...parseCreateBot({ ...spot, name: 'Night grid' }).config } };
    expect(viewOf([created]).name).toBe('Night grid');
    const edit = (body: Record<string, unknown>) => botDecider.decide({ type: 'EditBot', botId: 'b1', userId: 'u1', config: parseEditBot(body, 'Spot').config }, fold([created]));
    const renamed = edit({ ...spot, name: 'Day grid' });
    expect(renamed[0]).toMatchObject({ type: 'BotEdited', data: { name: 'Day grid' } });
    expect(viewOf([created, ...renamed]).name).toBe('Day grid');
    expect(viewOf([created, ...edit({ ...spot, name: '' })])).not.toHaveProperty('name');
    expect(viewOf([created, ...edit({ ...spot, name: null })])).not.toHaveProperty('name');
    expect(viewOf([created, ...edit(spot)]).name).toBe('Night grid');
  });
});

describe('the investment-based form in the bot rules', () => {
  // Binance spot BTCUSDT-like: rungs 60000 … 56000, Σ 290000 USDT per coin (bot-investment.rules.spec.ts)
  const market = { priceStep: 0.01, amountStep: 0.00001, minAmount: 0.00001, minNotional: 5 };
  const sized = (body: Record<string, unknown>) => parseCreateBot(body, { sizeOrders: investmentSizer(market, 'BTC') });
  const { orderSize: _size, ...byInvestment } = spot;

  it('the investment sizes the orders (1000 USDT → 0.00344 BTC) and is stored beside them', () => {
    expect(sized({ ...byInvestment, investment: 1000 }).config).toMatchObject({ orderSize: 0.00344, investment: 1000 });
    expect(sized({ ...byInvestment, investment: '1000' }).config.investment).toBe(1000);
  });

  it('an investment too small for the market is refused on investment, with the numbers', () => {
    expect(errorsOf(() => sized({ ...byInvestment, investment: 26.09 }))).toEqual([
      {
        field: 'investment',
        message: "An investment of 26.09 USDT is too small for this grid: its 5 orders would be 0.00008 BTC each, and the smallest would be worth 4.48 USDT, below the market's minimum order value of 5 USDT. The smallest investment for this grid is 26.10 USDT",
      },
    ]);
  });

  it('the other fields are checked first; a bad investment is named with them', () => {
    expect(errorsOf(() => sized({ ...byInvestment, interval: undefined, investment: -5 }))).toEqual([
      { field: 'interval', message: 'interval is required' },
      { field: 'investment', message: 'investment must be a number of USDT greater than 0' },
    ]);
  });

  it('an order size given as well must be the one the investment sizes', () => {
    expect(sized({ ...byInvestment, investment: 1000, orderSize: 0.00344 }).config.orderSize).toBe(0.00344);
    expect(errorsOf(() => sized({ ...byInvestment, investment: 1000, orderSize: 0.001 }))).toEqual([
      { field: 'orderSize', message: 'orderSize 0.001 is not what the investment sizes: 1000 USDT sizes 0.00344; give one of them' },
    ]);
  });

  it('without the market to size at (a backtest, a template), an investment is refused: the order size is asked', () => {
    expect(errorsOf(() => parseCreateBot({ ...byInvestment, investment: 1000 }))).toEqual([{ field: 'investment', message: INVESTMENT_NOT_HERE }]);
    expect(errorsOf(() => parseCreateBot(byInvestment))).toEqual([{ field: 'orderSize', message: 'orderSize is required' }]);
  });

  it('an infinity grid: the investment sizes its value per step', () => {
    const inf = { style: 'infinity', exchange: 'Binance', symbol: 'BTCUSDT', botType: 'Spot', entryPrice: 100, stepPercent: 1, lowerPrice: 95, initialQuote: 50, investment: 300 };
    const config = parseCreateBot(inf, { sizeOrders: investmentSizer({ priceStep: 0.01, amountStep: 0.001, minNotional: 5 }) }).config;
    expect(config).toMatchObject({ style: 'infinity', quoteValue: 50, investment: 300 });
  });

  it('an edit sized by an investment stores it; an edit that gives the order size by hand removes it', () => {
    const edit = parseEditBot({ ...byInvestment, investment: 1000 }, 'Spot', {}, { sizeOrders: investmentSizer(market, 'BTC') });
    expect(edit.config).toMatchObject({ orderSize: 0.00344, investment: 1000 });
    expect(parseEditBot(spot, 'Spot', { investment: 1000 }).config.investment).toBeNull();
    expect(parseEditBot(spot, 'Spot', {}).config).not.toHaveProperty('investment');
  });
});
