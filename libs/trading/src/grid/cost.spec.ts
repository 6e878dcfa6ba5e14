import fc from 'fast-check';
import { gridCost, ladderCost } from './cost';
import { validateGrid } from './ladder';
import type { GridConfig } from './grid.types';

describe('gridCost (spec section 5: Σ size × price ÷ leverage, the price falling by interval)', () => {
  it('given 3 orders of 1 from 100 falling by 1, then the cost is 100 + 99 + 98', () => {
    expect(gridCost({ numOfOrders: 3, orderSize: 1, interval: 1, entryPrice: 100 })).toBe(297);
  });

  it('given form strings and leverage 10, then the cost is divided by the leverage', () => {
    expect(gridCost({ numOfOrders: '3', orderSize: '1', interval: '1', entryPrice: '100', leverage: '10' })).toBe(29.7);
  });

  it('given an empty leverage, then leverage 1 is used', () => {
    expect(gridCost({ numOfOrders: 2, orderSize: 0.5, interval: 10, entryPrice: 100, leverage: '' })).toBe(95);
  });

  it.each([
    ['numOfOrders', { numOfOrders: 0 }],
    ['orderSize', { orderSize: -1 }],
    ['interval', { interval: 'abc' }],
    ['entryPrice', { entryPrice: '' }],
    ['leverage', { leverage: 0 }],
  ])('given %s not a number above 0, then there is no cost (null)', (_f, patch) => {
    expect(gridCost({ numOfOrders: 3, orderSize: 1, interval: 1, entryPrice: 100, ...patch })).toBeNull();
  });

  it('given decimal inputs, then the cost has no float artefacts', () => {
    // 0.1·0.3 + 0.1·0.2 + 0.1·0.1 = 0.06 (naive float sum: 0.060000000000000005)
    expect(gridCost({ numOfOrders: 3, orderSize: 0.1, interval: 0.1, entryPrice: 0.3 })).toBe(0.06);
  });

  it('given market steps, then the cost is that of the rounded ladder (what the exchange locks)', () => {
    // prices 27350.5, 27230.25→27230.2, 27110; size 0.00155→0.0015
    const cost = gridCost(
      { numOfOrders: 3, orderSize: 0.00155, interval: 120.25, entryPrice: 27350.5 },
      { priceStep: 0.1, amountStep: 0.0001 },
    );
    expect(cost).toBe(122.53605);
  });

  it('given a huge order count, then the closed form answers without looping', () => {
    expect(gridCost({ numOfOrders: 1e9, orderSize: 1, interval: 1e-9, entryPrice: 10 })).toBeCloseTo(1e10 - 0.5e9, -2);
  });

  it('property: the cost equals validateGrid\'s ladder cost, and the raw formula when steps are fine', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 1, max: 20 }),
        (n, sizeUnits, intervalCents, leverage) => {
          const entryPrice = n * intervalCents / 100 + 50;
          const config: GridConfig = {
            botType: 'Futures', numOfOrders: n, orderSize: sizeUnits / 1000, interval: intervalCents / 100,
            entryPrice, takeProfit: 1, leverage,
          };
          const v = validateGrid(config, { priceStep: 0.01, amountStep: 0.001, minNotional: 0 });
          expect(v.ok).toBe(true);
          if (!v.ok) return;
          const withSteps = gridCost(config, { priceStep: 0.01, amountStep: 0.001 });
          expect(withSteps).toBe(v.cost);
          expect(ladderCost(v.ladder, leverage)).toBe(v.cost);
          expect(gridCost(config)).toBeCloseTo(v.cost, 6);
        },
      ),
    );
  });
});
