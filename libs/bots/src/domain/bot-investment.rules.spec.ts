/** Issue 40: the investment-based form's sizing, known answers worked by hand (bot-investment.rules.ts; the infinity grid's: styles/infinity/infinity.sizing.ts). */
import { sizeLadder } from './bot-investment.rules';
import { infinitySteps, sizeInfinity } from '../styles/infinity/infinity.sizing';

// Binance spot BTCUSDT-like: LOT_SIZE stepSize 0.00001, minQty 0.00001, NOTIONAL minNotional 5
const btcSpot = { priceStep: 0.01, amountStep: 0.00001, minAmount: 0.00001, minNotional: 5 };

describe('a long ladder sized by its investment', () => {
  // rungs 60000, 59000, 58000, 57000, 56000: Σ = 290000 USDT per coin of each order
  const ladder = { numOfOrders: 5, interval: 1000, entryPrice: 60000, leverage: 1 };

  it('1000 USDT: 1000 ÷ 290000 = 0.003448… BTC, rounded down to the step: 0.00344 BTC, 997.60 USDT locked', () => {
    const s = sizeLadder(ladder, 1000, btcSpot, 'BTC');
    expect(s).toEqual({ style: 'ladder', investment: 1000, orderSize: 0.00344, orders: 5, cost: 997.6, minimum: 26.1, problem: null });
  });

  it('the smallest investment: the lowest order (56000) worth 5 USDT needs 0.0000893 → 0.00009 BTC, × 290000 = 26.10 USDT', () => {
    expect(sizeLadder(ladder, 26.1, btcSpot, 'BTC')).toMatchObject({ orderSize: 0.00009, cost: 26.1, problem: null });
    expect(sizeLadder(ladder, 26.09, btcSpot, 'BTC')).toMatchObject({
      orderSize: 0.00008,
      problem:
        'An investment of 26.09 USDT is too small for this grid: its 5 orders would be 0.00008 BTC each, and the smallest would be worth 4.48 USDT, below the market\'s minimum order value of 5 USDT. The smallest investment for this grid is 26.10 USDT',
    });
  });

  it('an investment that rounds to nothing says so, with the step', () => {
    expect(sizeLadder(ladder, 1, btcSpot, 'BTC').problem).toBe(
      "An investment of 1.00 USDT is too small for this grid: its 5 orders would be 0 BTC each: the investment rounds down to nothing at the market's amount step of 0.00001 BTC. The smallest investment for this grid is 26.10 USDT",
    );
  });
});

describe('a futures short ladder: the investment is margin', () => {
  // rungs 100, 102, 104 (a short ladder rises from the entry): Σ 306, ÷ leverage 5 = 61.2 USDT of margin per coin
  const short = { numOfOrders: 3, interval: 2, entryPrice: 100, leverage: 5, direction: 'short' as const };
  const market = { priceStep: 0.01, amountStep: 0.01, minAmount: 0.1, minNotional: 5 };

  it('100 USDT: 100 ÷ 61.2 = 1.6339… → 1.63 coins, 99.756 USDT of margin', () => {
    expect(sizeLadder(short, 100, market, 'SOL')).toMatchObject({ orderSize: 1.63, orders: 3, cost: 99.756, problem: null });
  });

  it('the minimum amount (0.1) decides: 0.1 × 61.2 = 6.12 USDT; 6 USDT sizes 0.09 and is refused', () => {
    expect(sizeLadder(short, 6.12, market, 'SOL')).toMatchObject({ orderSize: 0.1, minimum: 6.12, problem: null });
    expect(sizeLadder(short, 6, market, 'SOL').problem).toBe(
      "An investment of 6.00 USDT is too small for this grid: its 3 orders would be 0.09 SOL each, below the market's minimum amount of 0.1 SOL. The smallest investment for this grid is 6.12 USDT",
    );
  });
});

describe('a neutral grid: its buys below and its sells above', () => {
  // buys 59900, 59800, 59700 and sells 60100, 60200, 60300: Σ 360000, ÷ 5 = 72000 USDT of margin per coin
  const neutral = { numOfOrders: 3, interval: 100, entryPrice: 60000, leverage: 5, direction: 'neutral' as const };
  // Binance USDⓈ-M BTCUSDT-like: stepSize 0.001, minQty 0.001, MIN_NOTIONAL 100
  const usdm = { priceStep: 0.1, amountStep: 0.001, minAmount: 0.001, minNotional: 100 };

  it('500 USDT over its 6 orders: 500 ÷ 72000 = 0.00694 → 0.006 BTC, 432 USDT of margin', () => {
    expect(sizeLadder(neutral, 500, usdm, 'BTC')).toMatchObject({ orderSize: 0.006, orders: 6, cost: 432, problem: null });
  });

  it('the lowest buy (59700) worth 100 USDT needs 0.002 BTC: 0.002 × 72000 = 144 USDT at least', () => {
    expect(sizeLadder(neutral, 144, usdm, 'BTC')).toMatchObject({ orderSize: 0.002, minimum: 144, problem: null });
    expect(sizeLadder(neutral, 143.99, usdm, 'BTC').problem).toBe(
      "An investment of 143.99 USDT is too small for this grid: its 6 orders would be 0.001 BTC each, and the smallest would be worth 59.7 USDT, below the market's minimum order value of 100 USDT. The smallest investment for this grid is 144.00 USDT",
    );
  });
});

describe('an infinity grid: the initial buy and a value per step down to the lower price', () => {
  const grid = { entryPrice: 100, stepPercent: 1, lowerPrice: 95, initialQuote: 50 };
  const market = { priceStep: 0.01, amountStep: 0.001, minNotional: 5 };

  it('its buys, priced as the engine prices them: 99, 98.01, 97.02, 96.04, 95.07 (94.11 is below 95): 5 steps', () => {
    expect(infinitySteps(grid, market)).toBe(5);
  });

  it('300 USDT: (300 − 50) ÷ 5 = 50 USDT per step', () => {
    expect(sizeInfinity(grid, 300, market)).toEqual({ style: 'infinity', investment: 300, quoteValue: 50, steps: 5, cost: 300, minimum: 75.25, problem: null });
  });

  it('the first sell at 101 needs 0.05 coin (5.05 USDT): 50 + 5 × 5.05 = 75.25 USDT at least', () => {
    expect(sizeInfinity(grid, 75.25, market)).toMatchObject({ quoteValue: 5.05, problem: null });
    expect(sizeInfinity(grid, 75, market).problem).toBe(
      "An investment of 75.00 USDT is too small for this grid: after the initial buy of 50.00 USDT it buys 5.00 USDT on each of the 5 steps down to 95, below the market's minimum order (value 5 USDT). The smallest investment for this grid is 75.25 USDT",
    );
  });

  it('a lower price within one step leaves nothing to size', () => {
    expect(sizeInfinity({ ...grid, lowerPrice: 99.5 }, 300, market).problem).toBe(
      'There is no buy between the entry price 100 and the lower price 99.5 with a step of 1 %: an investment has nothing to size; set the value per step instead',
    );
  });
});
