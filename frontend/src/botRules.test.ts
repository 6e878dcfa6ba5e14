/**
 * The bot form's shared validation (libs/bots/src/domain/bot-market.rules.ts): the same module the
 * form uses, with the server's schema inside. Each rule, each message.
 */
import {
  aboveMarket,
  aboveMarketError,
  aboveMarketMessage,
  botFieldErrors,
  ladderCostOf,
  ladderPreview,
  marketFieldErrors,
  maxAffordableGrid,
  takeProfitAfterFirstFill,
  type GridNumbers,
} from '@gridrocket/bots/domain/bot-market.rules';
import { parseCreateBot, parseEditBot } from '@gridrocket/bots/domain/bot.rules';
import { minTakeProfitPercent } from '@gridrocket/exchanges/venues';

const valid = { exchange: 'Binance', symbol: 'BTCUSDT', entryPrice: '100', numOfOrders: '3', orderSize: '2', interval: '10', takeProfit: '1.5' };
const grid: GridNumbers = { entryPrice: 100, numOfOrders: 3, orderSize: 2, interval: 10, takeProfit: 1.5, leverage: 1 };
const market = { priceStep: 0.01, amountStep: 0.001, minNotional: 5 };
/** The field messages a parse refused with (what the API answers in its 400). */
const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return (err as { errors?: unknown }).errors;
  }
  return null;
};

describe('field rules: the server schema, in the form\'s words', () => {
  it('accepts a valid form, as the server does', () => {
    expect(botFieldErrors(valid)).toEqual({});
    expect(() => parseCreateBot({ ...valid, botType: 'Spot' })).not.toThrow();
  });

  it.each([
    ['exchange', '', 'Exchange is required'],
    ['exchange', 'Kraken', 'Exchange must be Binance or Kucoin'],
    ['symbol', '', 'Pair is required'],
    ['symbol', 'DOGEEUR', 'Pair must be a pair of letters and digits quoted in USDT or USDC, e.g. BTCUSDT'],
    ['entryPrice', '', 'Entry Price is required'],
    ['entryPrice', '12345678901', 'Entry Price must be at most 10 characters'],
    ['entryPrice', '-5', 'Entry Price must be a number greater than 0'],
    ['entryPrice', 'abc', 'Entry Price must be a number greater than 0'],
    ['numOfOrders', '', 'Grid size is required'],
    ['numOfOrders', '100', 'Grid size must be at most 2 characters'],
    ['numOfOrders', '0', 'Grid size must be a number greater than 0'],
    ['numOfOrders', '.5', 'Grid size must be a whole number'],
    ['orderSize', '', 'Order size is required'],
    ['orderSize', '1234567890123', 'Order size must be at most 12 characters'],
    ['orderSize', '0', 'Order size must be a number greater than 0'],
    ['interval', '', 'Price interval is required'],
    ['interval', '12345678901', 'Price interval must be at most 10 characters'],
    ['interval', '0', 'Price interval must be a number greater than 0'],
    ['takeProfit', '', 'Take profit is required'],
    ['takeProfit', '12345678901', 'Take profit must be at most 10 characters'],
    ['takeProfit', '0', 'Take profit must be a number greater than 0'],
  ])('%s = %p → "%s"', (field, value, message) => {
    const errors = botFieldErrors({ ...valid, [field]: value });
    expect(errors[field as keyof typeof errors]).toBe(message);
    // and the server refuses the same body with the same rule
    expect(() => parseCreateBot({ ...valid, [field]: value, botType: 'Spot' })).toThrow();
  });

  it('edit has no pair field', () => {
    const { symbol: _s, ...edit } = valid;
    expect(botFieldErrors(edit, 'edit')).toEqual({});
  });
});

describe('market rules', () => {
  it('accepts a grid on the market\'s steps, above its minimums and within the balance', () => {
    expect(marketFieldErrors(grid, market, 10_000)).toEqual({});
  });

  it('entry price off the price step', () => {
    expect(marketFieldErrors({ ...grid, entryPrice: 100.005 }, market).entryPrice).toBe("Entry Price must be a multiple of 0.01 (the market's price step)");
  });

  it('interval off the price step', () => {
    expect(marketFieldErrors({ ...grid, interval: 0.004 }, market).interval).toBe("Price interval must be a multiple of 0.01 (the market's price step)");
  });

  it('order size off the amount step', () => {
    expect(marketFieldErrors({ ...grid, orderSize: 0.0005 }, market).orderSize).toBe("Order size must be a multiple of 0.001 (the market's amount step)");
  });

  it('order size below the minimum amount', () => {
    expect(marketFieldErrors({ ...grid, orderSize: 0.5 }, { ...market, minAmount: 1 }).orderSize).toBe("Order size must be at least 1 (the market's minimum amount)");
  });

  it('lowest order below the minimum order value', () => {
    expect(marketFieldErrors({ ...grid, orderSize: 0.06 }, market).orderSize).toBe(
      "The lowest order is worth 4.8 USDT, below the market's minimum order value of 5 USDT",
    );
  });

  it('a ladder that reaches 0: one rule and one message, under Grid size, in the form and in the server', () => {
    const message = 'The lowest order would be at 0: lower the grid size or the price interval';
    expect(botFieldErrors({ ...valid, numOfOrders: '11' })).toEqual({ numOfOrders: message });
    expect(botFieldErrors({ ...valid, numOfOrders: '11' }, 'edit')).toEqual({ numOfOrders: message });
    expect(refusal(() => parseCreateBot({ ...valid, botType: 'Spot', numOfOrders: '11' }))).toEqual([{ field: 'numOfOrders', message }]);
    expect(botFieldErrors({ ...valid, numOfOrders: '12', interval: '10.5' }).numOfOrders).toBe('The lowest order would be at -15.5: lower the grid size or the price interval');
    // the market check does not repeat it (nor price a ladder below 0)
    expect(marketFieldErrors({ ...grid, numOfOrders: 11 }, market, 1)).toEqual({});
    expect(botFieldErrors({ ...valid, numOfOrders: '10' }).numOfOrders).toBeUndefined();
  });

  it('take profit below the round trip of maker fees: one formula, one message, the market\'s maker rate', () => {
    const fees = { ...market, makerFee: 0.001, takerFee: 0.001 };
    const message = 'Take profit must be at least 0.21 %: the buy and the take-profit sell each pay the 0.1 % maker fee';
    expect(minTakeProfitPercent(0.001)).toBe(0.21);
    expect(marketFieldErrors({ ...grid, takeProfit: 0.2 }, fees).takeProfit).toBe(message);
    expect(marketFieldErrors({ ...grid, takeProfit: 0.21 }, fees).takeProfit).toBeUndefined();
    // the parse (the venue's default maker rate, Binance spot 0.1 %) says the very same words
    expect(botFieldErrors({ ...valid, takeProfit: '0.2' })).toEqual({ takeProfit: message });
    // a market whose maker rate is lower (a futures contract: 0.02 %) asks less, whatever its taker rate
    expect(marketFieldErrors({ ...grid, takeProfit: 0.05 }, { ...market, makerFee: 0.0002, takerFee: 0.0005 }).takeProfit).toBeUndefined();
    expect(marketFieldErrors({ ...grid, takeProfit: 0.04 }, { ...market, makerFee: 0.0002, takerFee: 0.0005 }).takeProfit).toBe(
      'Take profit must be at least 0.05 %: the buy and the take-profit sell each pay the 0.02 % maker fee',
    );
    // an edit of a spot bot is held to the spot minimum
    expect(botFieldErrors({ ...valid, takeProfit: '0.2' }, 'edit', 'Spot')).toEqual({ takeProfit: message });
    expect(refusal(() => parseEditBot({ ...valid, takeProfit: '0.2' }, 'Spot'))).toEqual([{ field: 'takeProfit', message }]);
  });

  it('a ladder that costs more than the available balance (the issue\'s 1.2e15 USDT case)', () => {
    const huge: GridNumbers = { entryPrice: 1234567890, numOfOrders: 99, orderSize: 9999, interval: 1, takeProfit: 1, leverage: 1 };
    expect(marketFieldErrors(huge, { priceStep: 0.01, amountStep: 0.001, minNotional: 5 }, 10_000).numOfOrders).toMatch(
      /^The ladder costs [0-9.e+]+ USDT, more than the 10000 USDT available$/,
    );
    expect(marketFieldErrors(grid, market, 539.99).numOfOrders).toBe('The ladder costs 540 USDT, more than the 539.99 USDT available');
  });
});

describe('issue 29: order size by the market\'s step, the entry against the market, the take-profit ceiling', () => {
  const btc = { priceStep: 0.01, amountStep: 0.00001, minNotional: 5, minAmount: 0.00001 };
  const btcGrid: GridNumbers = { entryPrice: 95000, numOfOrders: 5, orderSize: 0.001, interval: 100, takeProfit: 1, leverage: 1 };

  it('0.001 BTC (5 characters, the spec\'s 4 would cut it to 0.00) passes the form and the server where the market\'s step allows it', () => {
    expect(botFieldErrors({ ...valid, orderSize: '0.001' })).toEqual({});
    expect(botFieldErrors({ ...valid, orderSize: '0.00001' })).toEqual({});
    expect(parseCreateBot({ ...valid, botType: 'Spot', orderSize: '0.001' }).config.orderSize).toBe(0.001);
    expect(marketFieldErrors(btcGrid, btc)).toEqual({});
    // the market's step is the rule: off it, below its minimum value
    expect(marketFieldErrors({ ...btcGrid, orderSize: 0.000015 }, btc).orderSize).toBe("Order size must be a multiple of 0.00001 (the market's amount step)");
    expect(marketFieldErrors({ ...btcGrid, orderSize: 0.00005 }, btc).orderSize).toBe("The lowest order is worth 4.73 USDT, below the market's minimum order value of 5 USDT");
  });

  it('an entry more than 0.5 % above the market: which rungs fill at once, how much, at what cost; within 0.5 % nothing', () => {
    const big: GridNumbers = { entryPrice: 190000, numOfOrders: 5, orderSize: 0.01, interval: 500, takeProfit: 1, leverage: 1 };
    const a = aboveMarket(big, 95447, 0.001)!;
    expect(a).toEqual({ price: 95447, percent: 99.06, rungs: 5, of: 5, amount: 0.05, cost: 4772.35, fee: 4.77235 });
    expect(aboveMarketMessage(a, 'BTC')).toBe(
      'The entry price is 99.06 % above the current price of 95,447.00 USDT: 5 of the 5 buy orders (0.05 BTC) would fill at once as taker orders, for about 4,772.35 USDT plus 4.77 USDT taker fee',
    );
    expect(aboveMarketError(a, 'BTC')).toBe(`${aboveMarketMessage(a, 'BTC')}. To place them anyway, confirm it (confirmAboveMarket: true).`);
    expect(aboveMarket({ ...big, entryPrice: 95924 }, 95447)).toBeNull(); // 0.4998 %: the tolerance
    expect(aboveMarket({ ...big, entryPrice: 95925 }, 95447)).toMatchObject({ rungs: 1, amount: 0.01, fee: 0 }); // 0.5008 %: one rung at once
    expect(aboveMarket({ ...big, entryPrice: 94000 }, 95447)).toBeNull(); // below the market
    expect(aboveMarket(big, null)).toBeNull(); // no price known: not judged
  });

  it('a take-profit above 100 % is refused by the form and the server, in words', () => {
    const message = 'Take profit must be at most 100 %: above it the price would have to more than double before the first sale';
    expect(botFieldErrors({ ...valid, takeProfit: '500' })).toEqual({ takeProfit: message });
    expect(botFieldErrors({ ...valid, takeProfit: '100' })).toEqual({});
    expect(refusal(() => parseCreateBot({ ...valid, botType: 'Spot', takeProfit: 500 }))).toEqual([{ field: 'takeProfit', message: message.replace('Take profit', 'takeProfit') }]);
  });
});

describe('preview and help', () => {
  it('lists every rung\'s price and size and the take-profit after the first fill', () => {
    expect(ladderPreview(grid)).toEqual([
      { price: 100, size: 2 },
      { price: 90, size: 2 },
      { price: 80, size: 2 },
    ]);
    expect(takeProfitAfterFirstFill(grid)).toBe(101.5);
    // a short grid (issue 32) buys back below its first sell: 100 × (1 − 1.5 / 100) = 98.5
    expect(takeProfitAfterFirstFill({ ...grid, direction: 'short' })).toBe(98.5);
    expect(ladderCostOf(grid)).toBe(540);
    expect(ladderCostOf({ ...grid, leverage: 10 })).toBe(54);
  });

  it('max affordable grid: the most rungs the balance pays for', () => {
    expect(maxAffordableGrid(grid, 540)).toBe(3);
    expect(maxAffordableGrid(grid, 539)).toBe(2);
    expect(maxAffordableGrid(grid, 100)).toBe(0);
    // never past a rung at or below 0
    expect(maxAffordableGrid(grid, 1e9)).toBe(10);
  });
});
