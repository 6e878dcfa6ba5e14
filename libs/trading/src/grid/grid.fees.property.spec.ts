/**
 * Fees taken in the coin bought (Binance spot; issue 10 finding 2), as a property: for any price path
 * and any partial fills, what the bot believes it holds equals what the exchange account holds (within
 * float noise; a rest below the amount step stays the bot's), and the take-profit never sells more than
 * the account holds, in whole amount steps.
 */
import fc from 'fast-check';
import { floorToStep, isMultipleOfStep, roundTo } from './decimal';
import { desiredOrders, initialState, processFill } from './grid.engine';
import type { DesiredOrder, GridConfig, GridState, MarketRules } from './grid.types';

const config: GridConfig = { botType: 'Spot', numOfOrders: 5, orderSize: 0.0123, interval: 80, entryPrice: 60000, takeProfit: 0.8, leverage: 1 };
const rules: MarketRules = { priceStep: 0.01, amountStep: 0.00001, minNotional: 5 };

interface Account {
  base: number;
}

const scenario = fc.record({
  /** Venue fee rate taken in the coin on buys (Binance spot 0.1 %, 0.075 % with BNB off, VIP tiers). */
  rate: fc.constantFrom(0.001, 0.00075, 0.0002, 0.00045),
  path: fc.array(fc.integer({ min: 59500, max: 60700 }), { minLength: 5, maxLength: 60 }),
  /** Fraction of a crossing order that fills at each step (1 = all). */
  parts: fc.array(fc.constantFrom(1, 1, 0.5, 0.37), { minLength: 60, maxLength: 60 }),
});

describe('fees in the coin: the bot holds what the account holds', () => {
  it('for any fill sequence, position = account balance, the take-profit sells only whole steps it holds', () => {
    fc.assert(
      fc.property(scenario, ({ rate, path, parts }) => {
        let state: GridState = initialState(config, rules, 'bot-fees');
        const account: Account = { base: 0 };
        let n = 0;
        const fill = (o: DesiredOrder, fraction: number) => {
          const amount = fraction === 1 ? o.amount : Math.max(rules.amountStep, floorToStep(o.amount * fraction, rules.amountStep));
          const feeCost = o.side === 'buy' ? roundTo(amount * rate, 8) : 0;
          const quoteFee = o.side === 'buy' ? feeCost * o.price : amount * o.price * rate;
          if (o.side === 'buy') account.base = roundTo(account.base + amount - feeCost, 10);
          else account.base = roundTo(account.base - amount, 10);
          const r = processFill(state, {
            clientOrderId: o.clientOrderId, fillId: `f${++n}`, price: o.price, amount, fee: roundTo(quoteFee, 8),
            ...(o.side === 'buy' ? { netAmount: roundTo(amount - feeCost, 10) } : {}),
          });
          state = r.state;
        };
        path.forEach((price, step) => {
          for (const o of desiredOrders(config, rules, state)) {
            if (o.side === 'sell') {
              // never more than the account holds, in whole steps
              expect(o.amount).toBeLessThanOrEqual(account.base + 1e-12);
              expect(isMultipleOfStep(o.amount, rules.amountStep)).toBe(true);
            }
            const crosses = o.side === 'buy' ? price <= o.price : price >= o.price;
            if (crosses) {
              fill(o, parts[step % parts.length]);
              break; // one fill per step: the next step plans again
            }
          }
          expect(Math.abs(state.position.amount - account.base)).toBeLessThan(1e-9);
        });
      }),
      { numRuns: 300 },
    );
  });
});
