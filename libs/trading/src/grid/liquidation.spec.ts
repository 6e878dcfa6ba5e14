import fc from 'fast-check';
import { marginTiers } from '@gridrocket/exchanges/venues';
import { ladderLiquidation, liquidationProblem, longLiquidationPrice } from './liquidation';
import { buildLadder } from './ladder';

const btc = marginTiers('Binance', 'BTCUSDT').tiers;

describe('liquidation price of a long isolated position', () => {
  it('BTCUSDT 1 BTC at 60000, leverage 10: tier 2 (0.5 %, maintenance amount 50) → 53950 ÷ 0.995', () => {
    expect(btc[1]).toEqual({ notionalCap: 250_000, maintenanceRate: 0.005, maintenanceAmount: 50, maxLeverage: 100 });
    // derived from the tiers, as Binance's own GET /fapi/v1/leverageBracket answer lists them (its `cum`: 1300, 46300, 546300, 103046300)
    expect([btc[2].maintenanceAmount, btc[3].maintenanceAmount, btc[4].maintenanceAmount, btc[9].maintenanceAmount]).toEqual([1300, 46300, 546300, 103046300]);
    expect(longLiquidationPrice(1, 60000, 6000, btc)).toBeCloseTo(53950 / 0.995, 6);
  });

  it('at the liquidation price the margin left equals the maintenance margin (any position)', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.001, max: 50, noNaN: true }), fc.double({ min: 100, max: 100_000, noNaN: true }), fc.integer({ min: 2, max: 100 }), (q, e, lev) => {
        const margin = (q * e) / lev;
        const p = longLiquidationPrice(q, e, margin, btc);
        if (p <= 0) return;
        const tier = btc.find((t) => q * e <= t.notionalCap) ?? btc[btc.length - 1];
        expect(Math.abs(margin + q * (p - e) - (q * p * tier.maintenanceRate - tier.maintenanceAmount))).toBeLessThan(1e-4 * Math.max(1, q * e / 1000));
      }),
    );
  });

  it('a ladder too deep for its leverage is refused, a safe one is not', () => {
    const rules = { priceStep: 0.01, amountStep: 0.001, minNotional: 5 };
    const base = { botType: 'Futures' as const, numOfOrders: 3, orderSize: 0.01, interval: 2000, entryPrice: 60000, takeProfit: 1 };
    const risky = buildLadder({ ...base, leverage: 50 }, rules);
    expect(ladderLiquidation(risky, 50, btc).liquidatedBefore).toEqual({ rung: 1, price: 58000, liquidation: 59036.14457831 });
    expect(liquidationProblem(risky, 50, btc)).toMatch(/liquidated at 59036.14457831, before order 2 of 3 at 58000/);
    const safe = buildLadder({ ...base, leverage: 5 }, rules);
    expect(liquidationProblem(safe, 5, btc)).toBeNull();
    expect(ladderLiquidation(safe, 5, btc).fullLadder).toBeLessThan(56000);
  });
});
