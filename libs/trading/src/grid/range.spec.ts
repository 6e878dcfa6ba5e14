import { buildLadder } from './ladder';
import { ladderToRange, rangeProblems, rangeToLadder, type RangeSetup } from './range';
import type { GridConfig } from './grid.types';

const rest: Omit<GridConfig, 'entryPrice' | 'interval' | 'numOfOrders' | 'spacing'> = { botType: 'Spot', orderSize: 1, takeProfit: 1, leverage: 1 };
const cents = { priceStep: 0.01, amountStep: 0.001, minNotional: 0 };

function ladderOf(r: RangeSetup, priceStep = 0.01) {
  const result = rangeToLadder(r, priceStep);
  if (!result.ok) throw new Error(`expected a ladder, got ${JSON.stringify(result.problems)}`);
  return result.ladder;
}
const prices = (r: RangeSetup, priceStep = 0.01) => buildLadder({ ...rest, ...ladderOf(r, priceStep) }, { ...cents, priceStep }).map((l) => l.price);

describe('range setup (lower, upper, levels) ↔ the ladder fields', () => {
  it('given 50000 to 60000 in 5 arithmetic levels, then the entry is 60000 and the interval 2500, absolute', () => {
    // interval = (60000 − 50000) ÷ (5 − 1) = 10000 ÷ 4 = 2500
    expect(ladderOf({ lower: 50000, upper: 60000, levels: 5, kind: 'arithmetic' })).toEqual({ entryPrice: 60000, numOfOrders: 5, interval: 2500, spacing: 'absolute' });
    // 60000 − i × 2500 for i = 0 … 4
    expect(prices({ lower: 50000, upper: 60000, levels: 5, kind: 'arithmetic' })).toEqual([60000, 57500, 55000, 52500, 50000]);
  });

  it('given an interval finer than the price step, then it is rounded DOWN and the last rung stays inside the range', () => {
    // (110 − 100) ÷ 3 = 3.3333… → 3.33 at a step of 0.01; rungs 110, 110 − 3.33 = 106.67, 106.67 − 3.33 = 103.34, 103.34 − 3.33 = 100.01 ≥ 100
    expect(ladderOf({ lower: 100, upper: 110, levels: 4, kind: 'arithmetic' }).interval).toBe(3.33);
    expect(prices({ lower: 100, upper: 110, levels: 4, kind: 'arithmetic' })).toEqual([110, 106.67, 103.34, 100.01]);
  });

  it('given an upper price off the step, then the entry is rounded DOWN to it and the interval is the rounded entry’s', () => {
    // 110.005 → 110.00 at 0.01; interval (110 − 100) ÷ 2 = 5
    expect(ladderOf({ lower: 100, upper: 110.005, levels: 3, kind: 'arithmetic' })).toEqual({ entryPrice: 110, numOfOrders: 3, interval: 5, spacing: 'absolute' });
  });

  it('given 50 to 100 in 5 geometric levels, then each rung is the same percentage below the previous and the last is at 50', () => {
    // ratio = (50 ÷ 100)^(1/4) = 0.5^0.25 = 0.840896415…; interval = (1 − 0.840896415…) × 100 = 15.9103584…% → 15.910358 (6 decimals, down)
    expect(ladderOf({ lower: 50, upper: 100, levels: 5, kind: 'geometric' })).toEqual({ entryPrice: 100, numOfOrders: 5, interval: 15.910358, spacing: 'percent' });
    // 100 × 0.84089642^i: 100, 84.089642 → 84.08, 70.710677… → 70.71, 59.460355… → 59.46, 50.0000011… → 50 (each floored to 0.01)
    expect(prices({ lower: 50, upper: 100, levels: 5, kind: 'geometric' })).toEqual([100, 84.08, 70.71, 59.46, 50]);
  });

  describe('a short futures grid (issue 32): sells from the bottom of the range up', () => {
    const shortRest = { ...rest, botType: 'Futures' as const, direction: 'short' as const };
    const shortLadder = (r: RangeSetup, priceStep: number) => {
      const result = rangeToLadder(r, priceStep, 'short');
      if (!result.ok) throw new Error(`expected a ladder, got ${JSON.stringify(result.problems)}`);
      return result.ladder;
    };
    const shortPrices = (r: RangeSetup, priceStep: number) => buildLadder({ ...shortRest, ...shortLadder(r, priceStep) }, { ...cents, priceStep }).map((l) => l.price);

    it('given 90000.05 to 95000 in 4 arithmetic levels at 0.1, then the entry is the lower price rounded UP and the last sell stays at or below the upper', () => {
      // entry = ceil(90000.05 to 0.1) = 90000.1; interval = floor((95000 − 90000.1) ÷ 3 = 1666.633…) = 1666.6
      expect(shortLadder({ lower: 90000.05, upper: 95000, levels: 4, kind: 'arithmetic' }, 0.1)).toEqual({ entryPrice: 90000.1, numOfOrders: 4, interval: 1666.6, spacing: 'absolute' });
      // 90000.1 + i × 1666.6: 90000.1, 91666.7, 93333.3, 94999.9 ≤ 95000
      expect(shortPrices({ lower: 90000.05, upper: 95000, levels: 4, kind: 'arithmetic' }, 0.1)).toEqual([90000.1, 91666.7, 93333.3, 94999.9]);
    });

    it('given 80000 to 95000 in 4 geometric levels, then each sell is the same percentage above the previous and the last is at 95000', () => {
      // ratio = (95000 ÷ 80000)^(1/3) = 1.1875^(1/3) = 1.05895589…; interval = 5.8955896…% → 5.895589 (6 decimals, down)
      expect(shortLadder({ lower: 80000, upper: 95000, levels: 4, kind: 'geometric' }, 0.01)).toEqual({ entryPrice: 80000, numOfOrders: 4, interval: 5.895589, spacing: 'percent' });
      // 80000 × 1.05895589^i: 80000, 84716.4712 → 84716.48, 89711.0061… → 89711.01, 94999.9983… → 95000 (each ceiled to 0.01)
      expect(shortPrices({ lower: 80000, upper: 95000, levels: 4, kind: 'geometric' }, 0.01)).toEqual([80000, 84716.48, 89711.01, 95000]);
    });

    it('given a short ladder, then its range is the entry as lower and the last sell as upper', () => {
      // 90000.1 + 3 × 1666.6 = 94999.9
      expect(ladderToRange({ entryPrice: 90000.1, interval: 1666.6, numOfOrders: 4, spacing: 'absolute', direction: 'short' }, 0.1)).toEqual({ lower: 90000.1, upper: 94999.9, levels: 4, kind: 'arithmetic' });
    });

    it('given a lower price that rounds up to the upper, then it is refused on lower', () => {
      // ceil(99.95 to 1) = 100, not below 100
      expect(rangeToLadder({ lower: 99.95, upper: 100, levels: 2, kind: 'arithmetic' }, 1, 'short')).toEqual({ ok: false, problems: [{ field: 'lower', message: "lower rounds up to 100 at the market's price step of 1, not below upper" }] });
    });
  });

  it('given a range too narrow for its levels at the price step, then it is refused on levels', () => {
    // (100.03 − 100) ÷ 4 = 0.0075 → 0 at a step of 0.01: every rung would be at 100.03
    const result = rangeToLadder({ lower: 100, upper: 100.03, levels: 5, kind: 'arithmetic' }, 0.01);
    expect(result).toEqual({
      ok: false,
      problems: [{ field: 'levels', message: "The range 100 to 100.03 is too narrow for 5 levels at the market's price step of 0.01: choose fewer levels or a wider range" }],
    });
  });

  it('given a geometric range whose lowest rungs fall within one step, then it is refused on levels', () => {
    // 1 to 1.05 in 20 levels at a step of 0.01: about 0.26 % apart, 0.0026 at the bottom, less than a step
    const result = rangeToLadder({ lower: 1, upper: 1.05, levels: 20, kind: 'geometric' }, 0.01);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems[0].field).toBe('levels');
  });

  it('given lower not below upper, fewer than 2 levels or an unknown kind, then each is a field message', () => {
    expect(rangeProblems({ lower: 100, upper: 100, levels: 1, kind: 'linear' as never })).toEqual([
      { field: 'upper', message: 'upper must be above lower' },
      { field: 'levels', message: 'levels must be a whole number of at least 2' },
      { field: 'kind', message: 'kind must be arithmetic or geometric' },
    ]);
    expect(rangeProblems({ lower: 0, upper: -1, levels: 2.5 })).toEqual([
      { field: 'lower', message: 'lower must be a price greater than 0' },
      { field: 'upper', message: 'upper must be a price greater than 0' },
      { field: 'levels', message: 'levels must be a whole number of at least 2' },
    ]);
  });

  it('given a bot’s ladder fields, then its range is the entry, the last rung and the levels, and a range comes back as given', () => {
    // 60000 − 4 × 2500 = 50000
    expect(ladderToRange({ entryPrice: 60000, interval: 2500, numOfOrders: 5, spacing: 'absolute' }, 0.01)).toEqual({ lower: 50000, upper: 60000, levels: 5, kind: 'arithmetic' });
    // a spec bot (no spacing): 100 − 9 × 1.5 = 86.5
    expect(ladderToRange({ entryPrice: 100, interval: 1.5, numOfOrders: 10 }, 0.01)).toEqual({ lower: 86.5, upper: 100, levels: 10, kind: 'arithmetic' });
    for (const r of [
      { lower: 50000, upper: 60000, levels: 5, kind: 'arithmetic' },
      { lower: 50, upper: 100, levels: 5, kind: 'geometric' },
    ] as RangeSetup[]) {
      expect(ladderToRange(ladderOf(r), 0.01)).toEqual(r);
    }
    // the rounded interval moves lower up to the last rung: 100.01 (above)
    expect(ladderToRange(ladderOf({ lower: 100, upper: 110, levels: 4, kind: 'arithmetic' }), 0.01)).toEqual({ lower: 100.01, upper: 110, levels: 4, kind: 'arithmetic' });
  });
});
