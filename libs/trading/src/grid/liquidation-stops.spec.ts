import { marginTiers } from '@gridrocket/exchanges/venues';
import { stopsBeyondLiquidation } from '../styles/pure-registry';
import type { GridConfig } from './grid.types';

/**
 * Issue 40 point 3: a stop-loss beyond the liquidation price never sells (the venue liquidates first).
 * Binance LTCUSDT falls in the conservative 50x table: 1 % maintenance and amount 0 up to 5,000 notional,
 * so every position here is liquidated at (Q·E − W) ÷ (Q·0.99) long, (Q·E + W) ÷ (Q·1.01) short.
 */
const tiers = marginTiers('Binance', 'LTCUSDT').tiers;
const rules = { priceStep: 0.01, amountStep: 0.001, minNotional: 5 };
const base: GridConfig = { botType: 'Futures', numOfOrders: 3, orderSize: 1, interval: 1, entryPrice: 100, takeProfit: 1, leverage: 20 };

describe('a stop-loss beyond the liquidation price', () => {
  it('long: rungs 100, 99, 98 filled = 3 at 99, margin 297 ÷ 20 = 14.85: liquidated at (297 − 14.85) ÷ 2.97 = 95; a stop at 95 is refused, 95.01 is not', () => {
    const [f] = stopsBeyondLiquidation({ ...base, stopLossPrice: 95 }, rules, tiers);
    expect(f).toMatchObject({ field: 'stopLossPrice', side: 'long', stop: 95, liquidation: 95, amount: 3, averageEntry: 99 });
    expect(f.message).toBe('stopLossPrice 95 is at or below the liquidation price 95: at leverage 20 the venue would liquidate the long position (every order of the ladder filled: 3 at 99 on average) before the stop-loss closes it. Set the stop-loss above 95 or lower the leverage');
    expect(stopsBeyondLiquidation({ ...base, stopLossPrice: 95.01 }, rules, tiers)).toEqual([]);
    // leverage 10 (margin 29.7): (297 − 29.7) ÷ 2.97 = 90, so 95 is safe
    expect(stopsBeyondLiquidation({ ...base, leverage: 10, stopLossPrice: 95 }, rules, tiers)).toEqual([]);
  });

  it('long with a percentage: 4 % below the full ladder\'s 99 is 95.04 (above 95: fine), 4.1 % is 94.94 (refused); the partial ladders meet no stop (it lies below their next rung)', () => {
    expect(stopsBeyondLiquidation({ ...base, stopLossPercent: 4 }, rules, tiers)).toEqual([]);
    expect(stopsBeyondLiquidation({ ...base, stopLossPercent: 4.1 }, rules, tiers)).toMatchObject([{ field: 'stopLossPercent', stop: 94.94, liquidation: 95 }]);
  });

  it('a stop between rungs meets the position of the rungs above it: 98.5 with 100 and 99 filled (2 at 99.5, margin 9.95: liquidated at 95.48) is fine; at 25× (margin 7.96) too', () => {
    expect(stopsBeyondLiquidation({ ...base, stopLossPrice: 98.5 }, rules, tiers)).toEqual([]);
    // at 100× the first rung alone (1 at 100, margin 1) is liquidated at 99 ÷ 0.99 = 100: a stop at 99.5 is beyond it
    expect(stopsBeyondLiquidation({ ...base, leverage: 100, stopLossPrice: 99.5 }, rules, tiers)).toMatchObject([{ stop: 99.5, liquidation: 100, amount: 1, averageEntry: 100 }]);
  });

  it('short: sells 100, 101, 102 = 3 at 101, margin 15.15: liquidated at (303 + 15.15) ÷ 3.03 = 105; a stop at 105 is refused, 104.99 is not', () => {
    const short = { ...base, direction: 'short' as const };
    const [f] = stopsBeyondLiquidation({ ...short, stopLossPrice: 105 }, rules, tiers);
    expect(f).toMatchObject({ field: 'stopLossPrice', side: 'short', stop: 105, liquidation: 105, amount: 3, averageEntry: 101 });
    expect(f.message).toMatch(/^stopLossPrice 105 is at or above the liquidation price 105: .* Set the stop-loss below 105 or lower the leverage$/);
    expect(stopsBeyondLiquidation({ ...short, stopLossPrice: 104.99 }, rules, tiers)).toEqual([]);
  });

  it('neutral (the issue\'s case): reference 137, 4 lines each side 1 apart, 25×: long 4 at 134.5 (margin 21.52) liquidated at 516.48 ÷ 3.96 = 130.4242…, short 4 at 139.5 (margin 22.32) at 580.32 ÷ 4.04 = 143.6436…; stops 120 and 155 are both refused, 131 and 143 are not', () => {
    const neutral = { ...base, direction: 'neutral', entryPrice: 137, numOfOrders: 4 } as unknown as GridConfig;
    const found = stopsBeyondLiquidation({ ...neutral, leverage: 25, stopLossPrice: 120, stopLossPriceAbove: 155 }, rules, tiers);
    expect(found.map((f) => [f.field, f.stop, f.liquidation, f.amount, f.averageEntry])).toEqual([
      ['stopLossPrice', 120, 130.42424242, 4, 134.5],
      ['stopLossPriceAbove', 155, 143.64356436, 4, 139.5],
    ]);
    expect(found[0].message).toMatch(/^stopLossPrice 120 is at or below the liquidation price 130.43: at leverage 25 the venue would liquidate the long position \(every buy of the grid filled: 4 at 134.5 on average\)/);
    expect(found[1].message).toMatch(/^stopLossPriceAbove 155 is at or above the liquidation price 143.64: .* Set the stop-loss below 143.64 or lower the leverage$/);
    expect(stopsBeyondLiquidation({ ...neutral, leverage: 25, stopLossPrice: 131, stopLossPriceAbove: 143 }, rules, tiers)).toEqual([]);
  });

  it('spot bots and bots without a stop are never refused', () => {
    expect(stopsBeyondLiquidation({ ...base, botType: 'Spot', stopLossPrice: 95 }, rules, tiers)).toEqual([]);
    expect(stopsBeyondLiquidation({ ...base, leverage: 100 }, rules, tiers)).toEqual([]);
  });
});
