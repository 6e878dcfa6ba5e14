/**
 * Issue 39, "Any pair the venue lists": the venue's maximums at create (bot-market.rules.ts maximumErrors,
 * through marketFieldErrors), each refusal naming the venue's rule. Values: Binance spot BTCUSDT as the venue
 * reports it (BS-SNAP, venues/markets.ts): LOT_SIZE maxQty 9000, NOTIONAL maxNotional 9,000,000,
 * MAX_NUM_ORDERS 200, PERCENT_PRICE_BY_SIDE 5 / 0.2.
 */
import { marketFieldErrors } from './bot-market.rules';
import { parseCreateBot } from './bot.rules';

const btc = {
  priceStep: 0.01, amountStep: 0.00001, minNotional: 5, minAmount: 0.00001,
  maxAmount: 9000, maxNotional: 9_000_000, maxNumOrders: 200, percentPrice: { bidUp: 5, bidDown: 0.2, askUp: 5, askDown: 0.2 },
  ruleNames: { maxAmount: 'LOT_SIZE maxQty', maxNotional: 'NOTIONAL maxNotional', maxNumOrders: 'MAX_NUM_ORDERS maxNumOrders', percentPrice: 'PERCENT_PRICE_BY_SIDE' },
};
const grid = { numOfOrders: 5, orderSize: 0.01, interval: 500, entryPrice: 95000, takeProfit: 1 };
const at = { exchange: 'Binance', symbol: 'BTCUSDT', price: 95447 };

describe('the venue\'s maximums at create (issue 39)', () => {
  it('a grid within every maximum passes', () => {
    expect(marketFieldErrors(grid, btc, undefined, at)).toEqual({});
  });

  it('an order above the largest amount per order is refused on orderSize, naming LOT_SIZE maxQty', () => {
    expect(marketFieldErrors({ ...grid, orderSize: 12345 }, btc, undefined, at).orderSize).toBe("Order size 12345 BTC is above Binance's maximum of 9000 BTC per order (LOT_SIZE maxQty)");
    expect(marketFieldErrors({ ...grid, orderSize: 9000 }, { ...btc, maxNotional: undefined }, undefined, at).orderSize).toBeUndefined();
  });

  it('with a size scale, the largest rung is what is compared', () => {
    const scaled = { ...grid, orderSize: 5000, sizeScale: 2, numOfOrders: 2, entryPrice: 1000, interval: 10 };
    expect(marketFieldErrors(scaled, { ...btc, maxNotional: undefined }, undefined, {}).orderSize).toBe("The largest order is 10000, above the venue's maximum of 9000 per order (LOT_SIZE maxQty)");
  });

  it('an order worth more than the largest order value is refused on orderSize, naming NOTIONAL maxNotional', () => {
    expect(marketFieldErrors({ ...grid, orderSize: 100 }, btc, undefined, at).orderSize).toBe(
      "The largest order is worth 9500000 USDT, above Binance's maximum order value of 9000000 USDT (NOTIONAL maxNotional)",
    );
  });

  it('more open orders on the symbol than MAX_NUM_ORDERS allows is refused on numOfOrders', () => {
    expect(marketFieldErrors(grid, { ...btc, maxNumOrders: 5 }, undefined, at).numOfOrders).toBe(
      "Grid size 5 keeps up to 6 orders open on BTCUSDT, more than Binance's maximum of 5 open orders per symbol (MAX_NUM_ORDERS maxNumOrders)",
    );
    // a neutral grid keeps both halves open: the caller says how many
    expect(marketFieldErrors(grid, btc, undefined, { ...at, openOrders: 198 }).numOfOrders).toBeUndefined();
    expect(marketFieldErrors(grid, btc, undefined, { ...at, openOrders: 201 }).numOfOrders).toMatch(/keeps up to 201 orders open on BTCUSDT/);
  });

  it('a buy below bidMultiplierDown × the price is refused on numOfOrders, one above bidMultiplierUp on entryPrice (PERCENT_PRICE_BY_SIDE)', () => {
    const deep = { ...grid, numOfOrders: 20, interval: 4000 }; // lowest buy 95000 − 19 × 4000 = 19000 < 0.2 × 95447
    expect(marketFieldErrors(deep, btc, undefined, at).numOfOrders).toBe(
      "The lowest buy order at 19000 USDT is below Binance's limit of 19089.4 USDT, 0.2 × the current price of 95447 USDT (PERCENT_PRICE_BY_SIDE)",
    );
    expect(marketFieldErrors({ ...grid, entryPrice: 500000 }, btc, undefined, at).entryPrice).toBe(
      "The highest buy order at 500000 USDT is above Binance's limit of 477235 USDT, 5 × the current price of 95447 USDT (PERCENT_PRICE_BY_SIDE)",
    );
    // without a price the band is not checked
    expect(marketFieldErrors(deep, btc, undefined, { ...at, price: null })).toEqual({});
  });

  it('a short grid\'s sells are held to the ask multipliers', () => {
    const short = { ...grid, direction: 'short' as const, entryPrice: 15000, interval: 1 }; // lowest sell 15000 < 0.2 × 95447
    expect(marketFieldErrors(short, btc, undefined, at).entryPrice).toMatch(/^The lowest sell order at 15000 USDT is below Binance's limit of 19089\.4 USDT/);
  });

  it('12,345 BTC passes the parse (its bounds) and is refused by the market check, as the server does at create', () => {
    const parsed = parseCreateBot({ exchange: 'Binance', symbol: 'BTCUSDT', botType: 'Spot', numOfOrders: 5, orderSize: '12345', interval: 500, entryPrice: 95000, takeProfit: 1 });
    expect(marketFieldErrors({ ...parsed.config, direction: undefined }, btc, undefined, at).orderSize).toMatch(/\(LOT_SIZE maxQty\)$/);
  });
});

describe('the pair as written (issue 39)', () => {
  const body = (symbol: unknown) => ({ exchange: 'Binance', symbol, botType: 'Spot', numOfOrders: 5, orderSize: '0.01', interval: 500, entryPrice: 95000, takeProfit: 1 });
  it('any pair of letters and digits quoted in USDT or USDC is accepted by the parse, upper-cased; the venue decides whether it exists', () => {
    expect(parseCreateBot(body('adausdt')).config.symbol).toBe('ADAUSDT');
    expect(parseCreateBot(body('1000PEPEUSDT')).config.symbol).toBe('1000PEPEUSDT');
  });
  it.each([['DOGEEUR'], ['BTC'], ['BTC-USDT'], ['PEPE USDT'], ['ABCDEFGHIJKLMNOPQUSDT']])('%s is refused on symbol', (symbol) => {
    expect(() => parseCreateBot(body(symbol))).toThrow(expect.objectContaining({ errors: [expect.objectContaining({ field: 'symbol' })] }));
  });
});
