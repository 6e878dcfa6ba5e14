import fc from 'fast-check';
import type { GridConfig, MarketRules } from '@gridrocket/trading/grid';
import { runBacktest } from './backtest.engine';
import { randomWalkCandles } from './synthetic-candles';

const rules: MarketRules = { priceStep: 0.01, amountStep: 0.001, minNotional: 5 };

describe('the fast path gives exactly what desiredOrders after every fill gives', () => {
  it('property: same fills, fees, profit and drawdown over random walks and grids (spot, futures long and short)', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 8 }),
        fc.integer({ min: 2, max: 40 }),
        fc.integer({ min: 5, max: 300 }),
        fc.integer({ min: 1, max: 40 }),
        fc.boolean(),
        fc.integer({ min: 2, max: 30 }),
        fc.boolean(),
        fc.boolean(),
        (seed, n, intervalCents, tpTenths, futures, bps, venueLike, shortIfFutures) => {
          const short = futures && shortIfFutures; // issue 32: the short grid's mirrored walk
          // venueLike: taker fee and current price on placement, spot buy fees in the coin (the newer paper venue)
          const fees = venueLike
            ? { feeBps: futures ? 2 : 10, takerFeeBps: futures ? 5 : 10, crossingFill: 'market' as const, buyFeeIn: futures ? ('quote' as const) : ('base' as const) }
            : { feeBps: futures ? 2 : 10 };
          const series = randomWalkCandles({ seed, startPrice: 140, priceStep: 0.01, from: 0, count: 3000, timeframeMs: 60_000, maxMoveBps: bps });
          const config: GridConfig = {
            botType: futures ? 'Futures' : 'Spot', numOfOrders: n, orderSize: 0.2, interval: intervalCents / 100,
            entryPrice: short ? 139 : 141, takeProfit: tpTenths / 10, leverage: futures ? 5 : 1,
            ...(short ? { direction: 'short' as const } : {}),
          };
          let fast;
          try {
            fast = runBacktest(series, { config, rules, ...fees, recordFills: true });
          } catch (err) {
            expect(() => runBacktest(series, { config, rules, ...fees, fullRefresh: true })).toThrow((err as Error).message);
            return;
          }
          const reference = runBacktest(series, { config, rules, ...fees, recordFills: true, fullRefresh: true });
          expect(fast).toEqual(reference);
        },
      ),
      { numRuns: 120 },
    );
  });
});
