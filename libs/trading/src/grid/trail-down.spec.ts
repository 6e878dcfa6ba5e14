import fc from 'fast-check';
import { applyFill, desiredOrders, initialState, processFill } from './grid.engine';
import { fillOf, rules } from './grid.fixtures';
import { decidePrice } from './risk';
import { riskProblem } from './risk-settings';
import { trailDownBook, trailDownTarget, trailDownTrigger } from './trail-down';
import type { Fill, GridConfig, GridState } from './grid.types';

// 3 buys of 1 at 100, 98, 96 (interval 2); take-profit 1 % above the average; never trail below 80.
const config: GridConfig = { botType: 'Spot', numOfOrders: 3, orderSize: 1, interval: 2, entryPrice: 100, takeProfit: 1, leverage: 1, trailDownLimit: 80 };

function fillAll(s: GridState): GridState {
  for (const o of desiredOrders(config, rules, s).filter((d) => d.role === 'buy')) s = applyFill(s, fillOf(o, { rate: 0 }));
  return s;
}

describe('trailing down a long grid (trail-down.ts)', () => {
  it('waits until every rung has filled and the price is more than one interval below the lowest rung', () => {
    const s = initialState(config, rules, 'trail-bot');
    expect(trailDownTrigger(config, s)).toBeNull(); // rungs still open
    const [b100, b98] = desiredOrders(config, rules, s);
    const two = applyFill(applyFill(s, fillOf(b100, { rate: 0 })), fillOf(b98, { rate: 0 }));
    expect(decidePrice(config, rules, two, 50, null).type).not.toBe('trail-down'); // the 96 rung is still open
    const all = fillAll(s);
    // lowest rung 96, one interval 2: the trigger is 96 − 2 = 94, strictly below
    expect(trailDownTrigger(config, all)).toBe(94);
    expect(decidePrice(config, rules, all, 94, null)).toEqual({ type: 'none', peak: null });
    expect(decidePrice(config, rules, all, 93.99, null)).toEqual({ type: 'trail-down', from: 100, to: 93.99 });
    // never below the limit: at 70 the anchor is the limit 80
    expect(trailDownTarget(config, rules, all, 70)).toEqual({ from: 100, to: 80 });
    // without a limit nothing trails
    const { trailDownLimit: _, ...fixed } = config;
    expect(decidePrice(fixed, rules, all, 50, null)).toEqual({ type: 'none', peak: null });
  });

  it('keeps the position and its take-profit (nothing sold), re-places the take-profit under a new id, arms the new ladder', () => {
    const all = fillAll(initialState(config, rules, 'trail-bot'));
    // held 3 for 100 + 98 + 96 = 294, average 98; take-profit 98 × 1.01 = 98.98
    const before = desiredOrders(config, rules, all);
    expect(before.map((o) => `${o.role} ${o.side} ${o.price} ${o.amount}`)).toEqual(['take-profit sell 98.98 3']);
    const moved = trailDownBook(all, config, rules, 93);
    expect(moved.position).toEqual(all.position);
    expect(moved.cycle).toBe(2);
    expect(moved.anchor).toBe(93);
    const after = desiredOrders(config, rules, moved);
    // the same take-profit (98.98 for 3), a new id; buys 93, 91, 89
    expect(after.map((o) => `${o.role} ${o.side} ${o.price} ${o.amount}`)).toEqual(['take-profit sell 98.98 3', 'buy buy 93 1', 'buy buy 91 1', 'buy buy 89 1']);
    expect(after[0].clientOrderId).not.toBe(before[0].clientOrderId);
    // a buy of the new ladder lowers the average: 294 + 93 = 387 for 4 → 96.75; take-profit 96.75 × 1.01 = 97.7175, rounded up to the step → 97.72
    const bought = applyFill(moved, fillOf(after[1], { rate: 0 }));
    expect(bought.position).toMatchObject({ amount: 4, cost: 387, averageEntry: 96.75 });
    expect(desiredOrders(config, rules, bought)[0]).toMatchObject({ role: 'take-profit', price: 97.72, amount: 4 });
  });

  it('a fill of the old take-profit that raced its cancel still sells the carried position', () => {
    const all = fillAll(initialState(config, rules, 'trail-bot'));
    const oldTp = desiredOrders(config, rules, all)[0];
    const moved = trailDownBook(all, config, rules, 93);
    const raced: Fill = { clientOrderId: oldTp.clientOrderId, fillId: 'race-1', price: 98.98, amount: 3, fee: 0 };
    const { state, effects } = processFill(moved, raced);
    // sold 3 at 98.98 = 296.94 for a cost of 294: profit 2.94, the cycle completes
    expect(effects.map((e) => e.type)).toEqual(['TakeProfitFilled', 'CycleCompleted']);
    expect(state.profit).toBe(2.94);
    expect(state.position.amount).toBe(0);
  });

  it('stops at the limit: a ladder anchored at the limit does not trail again', () => {
    const all = fillAll(initialState(config, rules, 'trail-bot'));
    const atLimit = trailDownBook(all, config, rules, 80); // rungs 80, 78, 76
    let s = atLimit;
    for (const o of desiredOrders(config, rules, s).filter((d) => d.role === 'buy')) s = applyFill(s, fillOf(o, { rate: 0 }));
    expect(trailDownTrigger(config, s)).toBe(74); // 76 − 2
    expect(trailDownTarget(config, rules, s, 60)).toBeNull(); // the anchor would be the limit 80, not below the lowest rung 76
  });

  it('is checked with the other settings: below the entry, above a stop-loss price, long grids only', () => {
    expect(riskProblem(config)).toBeNull();
    expect(riskProblem({ ...config, trailDownLimit: 100 })).toBe('The trail-down limit 100 must be below the entry price 100');
    expect(riskProblem({ ...config, trailDownLimit: -1 })).toBe('The trail-down limit must be greater than 0 (got -1)');
    expect(riskProblem({ ...config, stopLossPrice: 85 })).toBe('The trail-down limit 80 must be above the stop-loss price 85');
    expect(riskProblem({ ...config, botType: 'Futures', leverage: 2, direction: 'short', entryPrice: 100 })).toBe('A short grid does not trail down: the trail-down limit is for a long grid');
  });
});

describe('trailing down along random price paths (property)', () => {
  it('the anchor never goes below the limit, nothing is sold by a move, and the books balance whenever flat', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -300, max: 300 }), { minLength: 20, maxLength: 200 }), fc.integer({ min: 2, max: 5 }), fc.integer({ min: 50, max: 95 }), (moves, n, limit) => {
        const c: GridConfig = { botType: 'Spot', numOfOrders: n, orderSize: 1, interval: 1, entryPrice: 100, takeProfit: 1, leverage: 1, trailDownLimit: limit };
        let s = initialState(c, rules, 'prop-bot');
        let price = 100.5;
        let bought = 0;
        let sold = 0;
        let k = 0;
        let trails = 0;
        for (const m of moves) {
          price = Math.max(1, Math.round((price + m / 100) * 100) / 100);
          for (let guard = 0; guard < 50; guard++) {
            const crossed = desiredOrders(c, rules, s).find((o) => (o.side === 'buy' ? price <= o.price : price >= o.price));
            if (crossed) {
              const f: Fill = { clientOrderId: crossed.clientOrderId, fillId: `p${++k}`, price: crossed.price, amount: crossed.amount, fee: 0 };
              if (crossed.side === 'buy') bought += f.price * f.amount;
              else sold += f.price * f.amount;
              s = applyFill(s, f);
              continue;
            }
            const d = decidePrice(c, rules, s, price, null);
            if (d.type !== 'trail-down') break;
            const held = s.position.amount;
            s = trailDownBook(s, c, rules, d.to);
            trails++;
            expect(d.to).toBeGreaterThanOrEqual(limit);
            expect(s.position.amount).toBe(held); // a move sells nothing
          }
          if (s.position.amount === 0) expect(s.profit).toBeCloseTo(sold - bought, 6);
        }
        // each move goes more than n intervals down, never below the limit: at most ⌊(100 − limit) ÷ n⌋ + 1 moves
        expect(trails).toBeLessThanOrEqual(Math.floor((100 - limit) / n) + 1);
      }),
      { numRuns: 200 },
    );
  });
});
