/**
 * Property tests of the grid engine (fast-check). A small exchange model executes the engine's desired
 * orders in random amounts, lets cancelled orders fill in the race before their cancel lands, and
 * re-delivers old fills, while the invariants are checked after every step.
 */
import fc from 'fast-check';
import { CLIENT_ORDER_ID_MAX_LENGTH } from './client-order-id';
import { floorToStep, fromSteps, roundMoney, subClean } from './decimal';
import { applyFill, applyFills, desiredOrders, initialState, processFill, stalledReason, takeProfitPrice } from './grid.engine';
import { feeOf } from './grid.fixtures';
import { validateGrid } from './ladder';
import type { DesiredOrder, Fill, GridConfig, GridState, MarketRules } from './grid.types';

const BOT = 'prop-bot';

interface Grid {
  config: GridConfig;
  rules: MarketRules;
}

const gridArb: fc.Arbitrary<Grid> = fc
  .record({
    futures: fc.boolean(),
    numOfOrders: fc.integer({ min: 1, max: 8 }),
    entryCents: fc.integer({ min: 1_000, max: 5_000_000 }),
    intervalBp: fc.integer({ min: 1, max: 1_000 }), // basis points of the entry, ≤ 10 %
    sizeUnits: fc.integer({ min: 1, max: 500 }),
    takeProfit: fc.double({ min: 0.01, max: 15, noNaN: true, noDefaultInfinity: true }),
    leverage: fc.integer({ min: 1, max: 20 }),
    priceStep: fc.constantFrom(0.01, 0.1, 0.5),
    amountStep: fc.constantFrom(0.001, 0.0001, 0.01, 1),
    minNotional: fc.constantFrom(0, 1),
  })
  .map((g) => {
    const entryPrice = g.entryCents / 100;
    const config: GridConfig = {
      botType: g.futures ? 'Futures' : 'Spot',
      numOfOrders: g.numOfOrders,
      orderSize: fromSteps(g.sizeUnits, g.amountStep),
      interval: Math.max(g.priceStep, floorToStep((entryPrice * g.intervalBp) / 10_000, g.priceStep)),
      entryPrice,
      takeProfit: g.takeProfit,
      leverage: g.futures ? g.leverage : 1,
    };
    return { config, rules: { priceStep: g.priceStep, amountStep: g.amountStep, minNotional: g.minNotional } };
  })
  .filter(({ config, rules }) => validateGrid(config, rules).ok);

type Action =
  | { kind: 'fill'; pick: number; quarters: number } // fill 1/4 … 4/4 of a desired order
  | { kind: 'race'; pick: number } // an order cancelled in the last step fills before the cancel lands
  | { kind: 'dup'; pick: number }; // an old fill is delivered again

const actionArb: fc.Arbitrary<Action> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('fill' as const), pick: fc.nat(), quarters: fc.integer({ min: 1, max: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('race' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('dup' as const), pick: fc.nat() }) },
);

interface Trace {
  states: GridState[];
  fills: Fill[];
}

/** Runs the market story, asserting the invariants after every step. */
function simulate({ config, rules }: Grid, actions: Action[]): Trace {
  let state = initialState(config, rules, BOT);
  const states = [state];
  const fills: Fill[] = [];
  const book = new Map<string, { order: DesiredOrder; remaining: number }>();
  let cancelled: { order: DesiredOrder; remaining: number }[] = [];
  let seq = 0;
  const cycleFlows = { buys: 0, sells: 0, fees: 0 };

  const sync = () => {
    const desired = desiredOrders(config, rules, state);
    checkDesired(config, rules, state, desired);
    const ids = new Set(desired.map((o) => o.clientOrderId));
    cancelled = [];
    for (const [id, entry] of book) {
      if (!ids.has(id)) {
        book.delete(id);
        if (entry.remaining > 0) cancelled.push(entry);
      }
    }
    for (const order of desired) {
      const resting = book.get(order.clientOrderId);
      // an adopted order: what rests on the exchange is exactly what the engine wants to rest
      if (resting) expect(resting.remaining).toBe(order.amount);
      else book.set(order.clientOrderId, { order, remaining: order.amount });
    }
    return desired;
  };

  const apply = (fill: Fill) => {
    const before = state;
    const { state: after, effects } = processFill(state, fill);
    state = after;
    const isTp = effects.some((e) => e.type === 'TakeProfitFilled');
    for (const e of effects) {
      if (e.type === 'BuyFilled') {
        cycleFlows.buys += e.price * e.amount;
        cycleFlows.fees += e.fee;
      } else if (e.type === 'TakeProfitFilled') {
        expect(e.oversold).toBe(0);
        cycleFlows.sells += e.price * e.amount;
        cycleFlows.fees += e.fee;
      } else if (e.type === 'CycleCompleted') {
        // a closed cycle: everything bought was sold, so profit = sells − buys − all fees
        expect(Math.abs(e.profit - (cycleFlows.sells - cycleFlows.buys - cycleFlows.fees))).toBeLessThan(1e-6);
        cycleFlows.buys = cycleFlows.sells = cycleFlows.fees = 0;
      }
    }
    // the cycle restarts only when the position is fully closed, by a take-profit fill
    if (after.cycle !== before.cycle) {
      expect(after.cycle).toBe(before.cycle + 1);
      expect(isTp).toBe(true);
      expect(fill.amount).toBeGreaterThanOrEqual(before.position.amount);
      expect(after.position.amount).toBe(0);
    } else {
      expect(after.position.amount > 0 || after.tp === null).toBe(true);
    }
    expect(after.position.amount).toBeGreaterThanOrEqual(0);
    expect(after.profit).toBe(roundMoney(after.profit));
    fills.push(fill);
    states.push(state);
  };

  sync();
  for (const action of actions) {
    if (action.kind === 'fill') {
      const desired = desiredOrders(config, rules, state);
      if (desired.length === 0) {
        // only possible when a race left a position below the market minimum with the ladder all bought
        expect(stalledReason(config, rules, state)).toMatch(/below the market's minimum/);
        continue;
      }
      const order = desired[action.pick % desired.length];
      const entry = book.get(order.clientOrderId)!;
      const units = Math.round(entry.remaining / rules.amountStep);
      const k = action.quarters === 4 ? units : Math.max(1, Math.floor((units * action.quarters) / 4));
      const amount = fromSteps(k, rules.amountStep);
      entry.remaining = subClean(entry.remaining, amount);
      apply({ clientOrderId: order.clientOrderId, fillId: `f${++seq}`, price: order.price, amount, fee: feeOf(order.price, amount) });
      sync();
    } else if (action.kind === 'race') {
      if (cancelled.length === 0) continue;
      const { order, remaining } = cancelled[action.pick % cancelled.length];
      // a cancelled take-profit can only sell what the bot holds (balance on spot, reduce-only on futures)
      const amount = order.role === 'take-profit' ? Math.min(remaining, state.position.amount) : remaining;
      cancelled = [];
      if (amount <= 0) continue;
      apply({ clientOrderId: order.clientOrderId, fillId: `f${++seq}`, price: order.price, amount, fee: feeOf(order.price, amount) });
      sync();
    } else {
      if (fills.length === 0) continue;
      const again = fills[action.pick % fills.length];
      expect(applyFill(state, again)).toBe(state); // a repeat changes nothing at all
    }
  }
  return { states, fills };
}

function checkDesired(config: GridConfig, rules: MarketRules, state: GridState, desired: DesiredOrder[]): void {
  const buys = desired.filter((o) => o.role === 'buy');
  const tps = desired.filter((o) => o.role === 'take-profit');
  expect(buys.length).toBeLessThanOrEqual(config.numOfOrders);
  expect(tps.length).toBeLessThanOrEqual(1);
  expect(new Set(desired.map((o) => o.clientOrderId)).size).toBe(desired.length);
  for (const o of desired) {
    expect(o.clientOrderId.length).toBeLessThanOrEqual(CLIENT_ORDER_ID_MAX_LENGTH);
    expect(o.clientOrderId).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(o.amount).toBeGreaterThan(0);
  }
  // the ladder is the same in every cycle
  const ladder = validateGrid(config, rules);
  if (!ladder.ok) throw new Error(ladder.reason);
  for (const b of buys) expect(b.price).toBe(ladder.ladder[b.level!].price);
  if (desired.length > 0) expect(stalledReason(config, rules, state)).toBeNull();
  if (state.position.amount > 0 && state.tp) {
    // one take-profit for the whole position, strictly above the average entry
    const tp = tps[0];
    if (tp) {
      expect(tp.price).toBeGreaterThan(state.position.averageEntry);
      expect(tp.amount).toBe(floorToStep(state.position.amount, rules.amountStep));
      expect(tp.reduceOnly).toBe(config.botType === 'Futures');
    }
  } else {
    expect(tps).toHaveLength(0);
  }
}

describe('grid engine properties', () => {
  it('under random fills, races and re-deliveries: ≤ numOfOrders buys, one take-profit above the average entry, unique ids, exact cycle profit', () => {
    fc.assert(
      fc.property(gridArb, fc.array(actionArb, { minLength: 1, maxLength: 60 }), (grid, actions) => {
        simulate(grid, actions);
      }),
      { numRuns: 200 },
    );
  });

  it('profit is never counted twice: replaying the fills with duplicates anywhere after the originals gives the same state', () => {
    fc.assert(
      fc.property(
        gridArb,
        fc.array(actionArb, { minLength: 1, maxLength: 40 }),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 30 }),
        (grid, actions, dups) => {
          const { states, fills } = simulate(grid, actions);
          const final = states[states.length - 1];
          const replay = fills.map((f) => [f]);
          for (const [which, after] of dups) {
            if (fills.length === 0) break;
            const i = which % fills.length;
            const j = i + (after % (fills.length - i)); // at or after the original
            replay[j].push(fills[i]);
          }
          const withDuplicates = replay.flat();
          const start = initialState(grid.config, grid.rules, BOT);
          expect(withDuplicates.reduce(applyFill, start)).toEqual(final);
          expect(applyFills(start, withDuplicates)).toEqual(final);
          expect(applyFills(final, fills)).toBe(final); // a runner replaying everything it saw after a restart
        },
      ),
      { numRuns: 200 },
    );
  });

  it('scenario: 3 levels fill, one take-profit for the sum fills, profit equals the hand formula, the next cycle has the same ladder; futures the same with cost ÷ leverage', () => {
    fc.assert(
      fc.property(
        gridArb.filter((g) => g.config.numOfOrders >= 3),
        fc.integer({ min: 2, max: 25 }),
        ({ config, rules }, leverage) => {
          const spot: GridConfig = { ...config, botType: 'Spot', leverage: 1 };
          const futures: GridConfig = { ...config, botType: 'Futures', leverage };
          const ladder = validateGrid(spot, rules);
          if (!ladder.ok) throw new Error(ladder.reason);
          const [l0, l1, l2] = ladder.ladder;
          const a = l0.amount;
          const avg = (l0.price + l1.price + l2.price) / 3;
          const tpPrice = takeProfitPrice(avg, config.takeProfit, rules.priceStep);
          const fees = [l0, l1, l2].reduce((s, l) => s + feeOf(l.price, a), 0) + feeOf(tpPrice, 3 * a);
          const expected = 3 * a * tpPrice - a * (l0.price + l1.price + l2.price) - fees;

          const profits = [spot, futures].map((cfg) => {
            let state = initialState(cfg, rules, BOT);
            const first = desiredOrders(cfg, rules, state);
            for (const level of [0, 1, 2]) {
              const buy = desiredOrders(cfg, rules, state).find((o) => o.level === level)!;
              state = applyFill(state, { clientOrderId: buy.clientOrderId, fillId: `b${level}`, price: buy.price, amount: buy.amount, fee: feeOf(buy.price, buy.amount) });
            }
            const tps = desiredOrders(cfg, rules, state).filter((o) => o.role === 'take-profit');
            expect(tps).toHaveLength(1);
            expect(tps[0].amount).toBe(fromSteps(3 * Math.round(a / rules.amountStep), rules.amountStep));
            expect(tps[0].price).toBe(tpPrice);
            expect(tps[0].price).toBeGreaterThan(avg);
            state = applyFill(state, { clientOrderId: tps[0].clientOrderId, fillId: 'tp', price: tps[0].price, amount: tps[0].amount, fee: feeOf(tps[0].price, tps[0].amount) });
            expect(state.cycle).toBe(2);
            expect(desiredOrders(cfg, rules, state).map((o) => [o.price, o.amount])).toEqual(first.map((o) => [o.price, o.amount]));
            return state.profit;
          });
          expect(Math.abs(profits[0] - expected)).toBeLessThan(1e-7); // to the cent, and far beyond
          expect(profits[1]).toBe(profits[0]); // leverage does not change the profit of the position
          const futuresCost = validateGrid(futures, rules);
          expect(futuresCost.ok && futuresCost.cost).toBeCloseTo(ladder.cost / leverage, 6);
        },
      ),
      { numRuns: 200 },
    );
  });
});
