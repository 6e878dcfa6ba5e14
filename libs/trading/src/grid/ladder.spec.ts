import fc from 'fast-check';
import { isMultipleOfStep } from './decimal';
import { buildLadder, validateGrid } from './ladder';
import type { GridConfig, MarketRules } from './grid.types';

const config: GridConfig = {
  botType: 'Spot', numOfOrders: 5, orderSize: 1, interval: 1, entryPrice: 100, takeProfit: 1, leverage: 1,
};
const rules: MarketRules = { priceStep: 0.01, amountStep: 0.001, minNotional: 5 };

function reasonOf(c: Partial<GridConfig>, r: Partial<MarketRules> = {}): string {
  const v = validateGrid({ ...config, ...c }, { ...rules, ...r });
  if (v.ok) throw new Error('expected an invalid grid');
  return v.reason;
}

describe('ladder', () => {
  it('given entry 100, interval 1 and 5 orders of 1, then the ladder is 100, 99, 98, 97, 96 and costs 490', () => {
    const v = validateGrid(config, rules);
    expect(v).toEqual({
      ok: true,
      cost: 490,
      ladder: [100, 99, 98, 97, 96].map((price, index) => ({ index, price, amount: 1 })),
    });
  });

  it('given prices and sizes finer than the market, then each price and amount is rounded DOWN to the steps', () => {
    const ladder = buildLadder(
      { ...config, entryPrice: 27350.57, interval: 120.25, orderSize: 0.00159, numOfOrders: 3 },
      { priceStep: 0.1, amountStep: 0.0001, minNotional: 5 },
    );
    expect(ladder).toEqual([
      { index: 0, price: 27350.5, amount: 0.0015 },
      { index: 1, price: 27230.3, amount: 0.0015 },
      { index: 2, price: 27110, amount: 0.0015 },
    ]);
  });

  it('given decimal intervals, then the rounded prices carry no float artefacts', () => {
    const ladder = buildLadder({ ...config, entryPrice: 0.3, interval: 0.1, numOfOrders: 3 }, { ...rules, priceStep: 0.1 });
    expect(ladder.map((l) => l.price)).toEqual([0.3, 0.2, 0.1]);
  });

  it('given a futures grid, then the cost is divided by the leverage', () => {
    const v = validateGrid({ ...config, botType: 'Futures', leverage: 10 }, rules);
    expect(v.ok && v.cost).toBe(49);
  });

  describe('invalid configurations say why', () => {
    it('given a ladder that reaches zero, then the first order at or below zero is named with its numbers', () => {
      expect(reasonOf({ entryPrice: 100, interval: 15, numOfOrders: 10 })).toBe(
        'Order 8 of 10 would be priced at or below zero: 100 − 7 × 15 = -5 (entry 100, interval 15)',
      );
    });

    it('given a last price that rounds down to 0, then the rounding is named', () => {
      expect(reasonOf({ entryPrice: 1.005, interval: 1, numOfOrders: 2 }, { minNotional: 0 })).toBe(
        "Order 2 of 2 would be priced at 0 after rounding 0.005 down to the market's price step of 0.01 (entry 1.005, interval 1)",
      );
    });

    it('given a level below the minimum notional, then the order, its value and the minimum are named', () => {
      expect(reasonOf({ entryPrice: 10, interval: 2, numOfOrders: 5, orderSize: 1 }, { minNotional: 5 })).toBe(
        "Order 4 of 5 would be worth 4 (1 × 4), below the market's minimum order value of 5",
      );
    });

    it('given an order size that rounds to 0, then the amount step is named', () => {
      expect(reasonOf({ orderSize: 0.0004 })).toBe("Order size 0.0004 rounds down to 0 at the market's amount step of 0.001");
    });

    it('given an order size below the minimum amount, then it is refused', () => {
      expect(reasonOf({ orderSize: 0.5 }, { minAmount: 1 })).toBe("Order size 0.5 is below the market's minimum amount of 1");
    });

    it('given an interval finer than the price step, then two orders would share a price', () => {
      expect(reasonOf({ interval: 0.001 })).toBe(
        "Orders 2 and 3 would both be priced at 99.99: the interval 0.001 is too small for the market's price step of 0.01",
      );
    });

    it.each([
      [{ numOfOrders: 0 }, 'The number of orders must be a whole number from 1 to 1000 (got 0)'],
      [{ numOfOrders: 2.5 }, 'The number of orders must be a whole number from 1 to 1000 (got 2.5)'],
      [{ orderSize: 0 }, 'Order size must be a number greater than 0 (got 0)'],
      [{ interval: Number.NaN }, 'Price interval must be a number greater than 0 (got NaN)'],
      [{ entryPrice: -1 }, 'Entry price must be a number greater than 0 (got -1)'],
      [{ takeProfit: 0 }, 'Take profit must be a number greater than 0 (got 0)'],
      [{ leverage: 3 }, 'A spot bot trades without leverage: leverage must be 1 (got 3)'],
      [{ botType: 'Futures', leverage: 0.5 }, 'Leverage must be a number of at least 1 (got 0.5)'],
    ] as [Partial<GridConfig>, string][])('given %p, then: %s', (patch, reason) => {
      expect(reasonOf(patch)).toBe(reason);
    });

    it('given market rules without a price step, then the market is blamed', () => {
      expect(reasonOf({}, { priceStep: 0 })).toBe("The market's price step must be greater than 0 (got 0)");
    });
  });

  it('property: a valid ladder has numOfOrders strictly descending positive prices on the steps, each above the minimum', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 1, max: 5000 }),
        fc.constantFrom(0.01, 0.1, 0.5, 1e-4),
        fc.constantFrom(0.001, 1e-5, 1),
        fc.constantFrom(0, 5, 10),
        (n, entryCents, intervalCents, sizeUnits, priceStep, amountStep, minNotional) => {
          const c: GridConfig = {
            ...config, numOfOrders: n, entryPrice: entryCents / 100, interval: intervalCents / 1000, orderSize: sizeUnits * 0.0007,
          };
          const r: MarketRules = { priceStep, amountStep, minNotional };
          const v = validateGrid(c, r);
          if (!v.ok) {
            expect(v.reason.length).toBeGreaterThan(10);
            return;
          }
          expect(v.ladder).toHaveLength(n);
          v.ladder.forEach((l, i) => {
            expect(l.price).toBeGreaterThan(0);
            expect(isMultipleOfStep(l.price, priceStep)).toBe(true);
            expect(isMultipleOfStep(l.amount, amountStep)).toBe(true);
            expect(l.price).toBeLessThanOrEqual(c.entryPrice - i * c.interval + 1e-9);
            expect(l.price * l.amount).toBeGreaterThanOrEqual(minNotional - 1e-9);
            if (i > 0) expect(l.price).toBeLessThan(v.ladder[i - 1].price);
          });
        },
      ),
    );
  });
});
