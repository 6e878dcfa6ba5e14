import { buyOrderId, takeProfitOrderId } from './client-order-id';
import {
  applyFill,
  applyFills,
  desiredOrders,
  initialState,
  processFill,
  reconcile,
  stalledReason,
  takeProfitPrice,
} from './grid.engine';
import { buyAt, feeOf, fillOf, priceFallsThrough, rules, run, spotConfig, takeProfitOf } from './grid.fixtures';
import type { GridConfig, GridState, MarketRules } from './grid.types';

const BOT = 'bot-7f3a';
const start = (config: GridConfig = spotConfig, r: MarketRules = rules): GridState => initialState(config, r, BOT);

describe('grid engine', () => {
  describe('given a spot bot that has just started (5 buys of 1 from 100, interval 1, take profit 1 %)', () => {
    it('then it wants the whole ladder and no take-profit', () => {
      const orders = desiredOrders(spotConfig, rules, start());
      expect(orders.map((o) => [o.clientOrderId, o.side, o.price, o.amount])).toEqual(
        [100, 99, 98, 97, 96].map((price, i) => [buyOrderId(BOT, 1, i), 'buy', price, 1]),
      );
      expect(orders.every((o) => !o.reduceOnly)).toBe(true);
    });

    it('then an invalid configuration cannot start', () => {
      expect(() => start({ ...spotConfig, entryPrice: 3 }, { ...rules, minNotional: 0 })).toThrow(
        'Invalid grid: Order 4 of 5 would be priced at or below zero: 3 − 3 × 1 = 0 (entry 3, interval 1)',
      );
    });
  });

  describe('scenario: the price falls through 3 levels, then rises to the take-profit', () => {
    const given = () => priceFallsThrough(spotConfig, rules, start(), [0, 1, 2]);

    it('when 3 buys fill, then one take-profit sells the sum at avg × 1.01 and 2 buys remain', () => {
      const { state } = given();
      const orders = desiredOrders(spotConfig, rules, state);
      expect(orders).toHaveLength(3);
      expect(orders[0]).toEqual({
        clientOrderId: takeProfitOrderId(BOT, 1, 3), // the 3rd take-profit of the cycle: one per buy fill
        role: 'take-profit',
        side: 'sell',
        type: 'limit',
        price: 99.99, // average 99 × 1.01
        amount: 3,
        reduceOnly: false,
        cycle: 1,
        tpSeq: 3,
      });
      expect(orders.slice(1).map((o) => o.price)).toEqual([97, 96]);
      expect(state.position).toEqual({ amount: 3, cost: 297, averageEntry: 99, buyFees: 0.297 });
    });

    it('when the take-profit fills, then the profit is the hand-computed 2.37303 and cycle 2 has the same ladder', () => {
      const { state: bought } = given();
      const { state, effects } = run(bought, [fillOf(takeProfitOf(spotConfig, rules, bought))]);
      // sold 3 × 99.99 = 299.97; bought 100 + 99 + 98 = 297;
      // fees 0.1 % of each: 0.1 + 0.099 + 0.098 + 0.29997 = 0.59697 → 299.97 − 297 − 0.59697 = 2.37303
      expect(state.profit).toBe(2.37303);
      expect(state.profit.toFixed(2)).toBe('2.37');
      expect(state.cycle).toBe(2);
      expect(state.cyclesCompleted).toBe(1);
      expect(state.position).toEqual({ amount: 0, cost: 0, averageEntry: 0, buyFees: 0 });
      expect(effects.filter((e) => e.type === 'CycleCompleted')).toEqual([
        { type: 'CycleCompleted', cycle: 1, profit: 2.37303, nextCycle: 2 },
      ]);
      const next = desiredOrders(spotConfig, rules, state);
      expect(next.map((o) => [o.price, o.amount])).toEqual(desiredOrders(spotConfig, rules, start()).map((o) => [o.price, o.amount]));
      // levels that bought are re-armed under cycle 2; the ones that never filled keep their resting orders
      expect(next.map((o) => o.clientOrderId)).toEqual([
        buyOrderId(BOT, 2, 0), buyOrderId(BOT, 2, 1), buyOrderId(BOT, 2, 2), buyOrderId(BOT, 1, 3), buyOrderId(BOT, 1, 4),
      ]);
    });

    it('when the same fills are replayed (a restart), then the state is identical and the profit is not counted twice', () => {
      const { state: bought, fills } = given();
      const tp = fillOf(takeProfitOf(spotConfig, rules, bought));
      const once = applyFills(start(), [...fills, tp]);
      const twice = applyFills(start(), [...fills, tp, ...fills, tp, tp]);
      expect(twice).toEqual(once);
      expect(applyFill(once, tp)).toBe(once);
      expect(processFill(once, tp).effects).toEqual([{ type: 'FillIgnored', fillId: tp.fillId, clientOrderId: tp.clientOrderId, reason: 'duplicate' }]);
      expect([...fills, tp, tp].reduce(applyFill, start())).toEqual(once);
    });
  });

  describe('scenario with real market steps (BTC/USDT: price step 0.1, amount step 0.0001)', () => {
    const btc: GridConfig = { ...spotConfig, entryPrice: 27350.5, interval: 120.25, orderSize: 0.0015, takeProfit: 0.8, numOfOrders: 4 };
    const btcRules: MarketRules = { priceStep: 0.1, amountStep: 0.0001, minNotional: 5 };

    it('when 3 buys fill and the take-profit fills, then the profit matches the hand computation to the cent', () => {
      let { state } = priceFallsThrough(btc, btcRules, initialState(btc, btcRules, BOT), [0, 1, 2]);
      // buys 27350.5, 27230.2 (27230.25 rounded down), 27110.0 × 0.0015 → cost 122.53605, average 27230.2333…
      expect(state.position.cost).toBe(122.53605);
      const tp = takeProfitOf(btc, btcRules, state);
      expect(tp.price).toBe(27448.1); // 27230.2333… × 1.008 = 27448.0752 → rounded up
      expect(tp.amount).toBe(0.0045);
      state = applyFill(state, fillOf(tp));
      // 0.0045 × 27448.1 = 123.51645; gross 123.51645 − 122.53605 = 0.9804;
      // fees 0.1 %: 0.04102575 + 0.0408453 + 0.040665 + 0.12351645 = 0.2460525 → 0.9804 − 0.2460525 = 0.7343475
      expect(state.profit).toBe(0.7343475);
      expect(state.profit.toFixed(2)).toBe('0.73');
      expect(state.cycle).toBe(2);
    });
  });

  describe('scenario: a futures bot with leverage 10', () => {
    const futures: GridConfig = { ...spotConfig, botType: 'Futures', leverage: 10 };

    it('then the profit is on the full position, and the take-profit is reduce-only', () => {
      let { state } = priceFallsThrough(futures, rules, start(futures), [0, 1, 2]);
      const tp = takeProfitOf(futures, rules, state);
      expect(tp).toMatchObject({ price: 99.99, amount: 3, reduceOnly: true, side: 'sell' });
      expect(desiredOrders(futures, rules, state).filter((o) => o.role === 'buy').every((o) => !o.reduceOnly)).toBe(true);
      state = applyFill(state, fillOf(tp));
      expect(state.profit).toBe(2.37303);
      expect(state.cycle).toBe(2);
    });
  });

  describe('partial fills', () => {
    it('when a buy fills partly, then the take-profit covers what was bought and the buy rests with the rest under the same id', () => {
      const s0 = start();
      const buy = buyAt(spotConfig, rules, s0, 0);
      const { state, effects } = run(s0, [fillOf(buy, { amount: 0.4 })]);
      const orders = desiredOrders(spotConfig, rules, state);
      expect(orders[0]).toMatchObject({ role: 'take-profit', amount: 0.4, price: 101, tpSeq: 1 });
      expect(orders[1]).toMatchObject({ clientOrderId: buy.clientOrderId, amount: 0.6, price: 100 });
      expect(state.levels[0].status).toBe('partial');
      expect(effects).toContainEqual(expect.objectContaining({ type: 'BuyFilled', levelFilled: false, late: false }));
      // the rest fills: level complete, take-profit replaced by tp2 for the whole 1
      const s2 = applyFill(state, fillOf(orders[1]));
      expect(s2.levels[0].status).toBe('filled');
      expect(takeProfitOf(spotConfig, rules, s2)).toMatchObject({ amount: 1, tpSeq: 2, clientOrderId: takeProfitOrderId(BOT, 1, 2) });
    });

    it('when the take-profit fills partly, then the same order keeps working for the rest and the cycle goes on', () => {
      const { state: bought } = priceFallsThrough(spotConfig, rules, start(), [0, 1, 2]);
      const tp = takeProfitOf(spotConfig, rules, bought);
      const partly = applyFill(bought, fillOf(tp, { amount: 1.2 }));
      expect(partly.cycle).toBe(1);
      const rest = takeProfitOf(spotConfig, rules, partly);
      expect(rest).toMatchObject({ clientOrderId: tp.clientOrderId, amount: 1.8, price: 99.99 });
      // profit so far: 1.2 × (99.99 − 99) − 0.297 × 0.4 − 0.119988 = 1.188 − 0.1188 − 0.119988
      expect(partly.profit).toBe(0.949212);
      const done = applyFill(partly, fillOf(rest));
      expect(done.cycle).toBe(2);
      expect(done.profit).toBe(2.37303); // the same as one full fill
    });

    it('when a buy fills after a partial take-profit fill, then a new take-profit covers the position at the new average', () => {
      const { state: bought } = priceFallsThrough(spotConfig, rules, start(), [0, 1]); // avg 99.5, tp2 for 2
      const tp = takeProfitOf(spotConfig, rules, bought);
      let state = applyFill(bought, fillOf(tp, { amount: 1 })); // sells 1 at 100.5 (99.5 × 1.01 = 100.495 → 100.5)
      state = applyFill(state, fillOf(buyAt(spotConfig, rules, state, 2))); // buys 1 at 98
      // remaining 1 at 99.5 + 1 at 98 → average 98.75 → × 1.01 = 99.7375 → 99.74
      expect(takeProfitOf(spotConfig, rules, state)).toMatchObject({ amount: 2, price: 99.74, tpSeq: 3 });
    });
  });

  describe('races around replacing a take-profit', () => {
    it('when the replaced take-profit fills before its cancel lands, then the sale counts and a new take-profit covers what is left', () => {
      const { state: one } = priceFallsThrough(spotConfig, rules, start(), [0]);
      const tp1 = takeProfitOf(spotConfig, rules, one); // 1 at 101
      const two = applyFill(one, fillOf(buyAt(spotConfig, rules, one, 1))); // tp2 wanted for 2 at 100.5
      const { state, effects } = run(two, [fillOf(tp1)]); // but tp1 filled first
      expect(effects).toContainEqual(expect.objectContaining({ type: 'TakeProfitFilled', tpSeq: 1, oversold: 0 }));
      expect(state.cycle).toBe(1);
      expect(state.position.amount).toBe(1);
      expect(takeProfitOf(spotConfig, rules, state)).toMatchObject({ tpSeq: 3, amount: 1, price: 100.5 });
    });

    it('when a re-armed level\'s old order fills late, then it adds to the position without touching the new order', () => {
      const { state: bought } = priceFallsThrough(spotConfig, rules, start(), [0]);
      const oldBuy0 = buyOrderId(BOT, 1, 0);
      const closed = applyFill(bought, fillOf(takeProfitOf(spotConfig, rules, bought))); // cycle 2
      const lateFill = { clientOrderId: oldBuy0, fillId: 'late-1', price: 100, amount: 0.5, fee: 0.05 };
      const { state, effects } = run(closed, [lateFill]);
      expect(effects[0]).toMatchObject({ type: 'BuyFilled', late: true, levelFilled: false });
      expect(state.levels[0]).toMatchObject({ armedCycle: 2, filled: 0, status: 'open' });
      expect(state.position.amount).toBe(0.5);
      expect(takeProfitOf(spotConfig, rules, state)).toMatchObject({ amount: 0.5, clientOrderId: takeProfitOrderId(BOT, 2, 1) });
    });
  });

  describe('persistence', () => {
    it('given a state saved as JSON (a snapshot), when old fills are delivered again, then nothing changes', () => {
      const { state, fills } = priceFallsThrough(spotConfig, rules, start(), [0, 1]);
      const restored: GridState = JSON.parse(JSON.stringify(state));
      expect(restored).toEqual(state);
      expect(applyFills(restored, fills)).toBe(restored);
      expect(desiredOrders(spotConfig, rules, restored)).toEqual(desiredOrders(spotConfig, rules, state));
    });
  });

  describe('a grid that cannot go on', () => {
    it('given a dust position below the minimum and the whole ladder bought, then it says why instead of stalling', () => {
      const one: GridConfig = { ...spotConfig, numOfOrders: 1, orderSize: 0.11, entryPrice: 10 };
      const r: MarketRules = { priceStep: 0.01, amountStep: 0.01, minNotional: 1 };
      let state = initialState(one, r, BOT);
      state = applyFill(state, fillOf(buyAt(one, r, state, 0), { amount: 0.1 }));
      const tp2 = takeProfitOf(one, r, state); // 0.1 at 10.1
      expect(stalledReason(one, r, state)).toBeNull();
      state = applyFill(state, fillOf(buyAt(one, r, state, 0))); // the last 0.01: tp3 for 0.11 replaces tp2
      state = applyFill(state, fillOf(tp2)); // …but tp2 filled before its cancel: 0.01 left, worth 0.101
      expect(desiredOrders(one, r, state)).toEqual([]);
      expect(stalledReason(one, r, state)).toBe(
        "The remaining position of 0.01 (worth 0.101 at the take-profit price 10.1) is below the market's minimum order value of 1, and every buy of the ladder has filled: the take-profit cannot be placed",
      );
    });
  });

  describe('fills that are not for this grid', () => {
    it.each([
      ['another bot', { clientOrderId: buyOrderId('someone-else', 1, 0) }, 'not-this-bot'],
      ['a manual order', { clientOrderId: 'web_abc' }, 'not-this-bot'],
      ['a level the ladder does not have', { clientOrderId: buyOrderId(BOT, 1, 9) }, 'unknown-order'],
      ['a take-profit never defined', { clientOrderId: takeProfitOrderId(BOT, 1, 1) }, 'unknown-order'],
      ['a future cycle', { clientOrderId: buyOrderId(BOT, 5, 0) }, 'unknown-order'],
      ['a zero amount', { clientOrderId: buyOrderId(BOT, 1, 0), amount: 0 }, 'invalid-fill'],
    ])('when a fill of %s arrives, then it is ignored', (_label, patch, reason) => {
      const s0 = start();
      const fill = { fillId: 'x1', price: 100, amount: 1, fee: 0.1, ...patch };
      const { state, effects } = run(s0, [fill]);
      expect(state).toBe(s0);
      expect(effects).toEqual([{ type: 'FillIgnored', fillId: 'x1', clientOrderId: fill.clientOrderId, reason }]);
    });
  });

  describe('reconcile by client order id', () => {
    const given = () => priceFallsThrough(spotConfig, rules, start(), [0, 1]).state;

    it('given a fresh start and an empty exchange, then everything is placed', () => {
      const desired = desiredOrders(spotConfig, rules, start());
      expect(reconcile(desired, [])).toEqual({ toPlace: desired, toCancel: [], adopted: [], awaitingFills: [], foreign: [] });
    });

    it('given a restart after a buy filled, then the old take-profit is cancelled, the resting buys adopted, the new take-profit placed', () => {
      const state = given();
      const desired = desiredOrders(spotConfig, rules, state);
      const open = [
        { clientOrderId: takeProfitOrderId(BOT, 1, 1), id: 'ex-1' }, // superseded by tp2
        { clientOrderId: buyOrderId(BOT, 1, 2), id: 'ex-2' },
        { clientOrderId: buyOrderId(BOT, 1, 3), id: 'ex-3' },
        { clientOrderId: 'manual-order', id: 'ex-4' },
      ];
      const r = reconcile(desired, open, { botId: BOT });
      expect(r.toCancel.map((o) => o.id)).toEqual(['ex-1']);
      expect(r.adopted.map((a) => a.onExchange.id)).toEqual(['ex-2', 'ex-3']);
      expect(r.toPlace.map((o) => o.clientOrderId)).toEqual([takeProfitOrderId(BOT, 1, 2), buyOrderId(BOT, 1, 4)]);
      expect(r.foreign.map((o) => o.id)).toEqual(['ex-4']);
    });

    it('given a desired order that the exchange reports closed, then it is not placed again: its fills come first', () => {
      const state = given();
      const desired = desiredOrders(spotConfig, rules, state);
      const closedBuy = { clientOrderId: buyOrderId(BOT, 1, 2) };
      const r = reconcile(desired, [], { closed: new Map([[closedBuy.clientOrderId, closedBuy]]) });
      expect(r.awaitingFills.map((a) => a.desired.clientOrderId)).toEqual([closedBuy.clientOrderId]);
      expect(r.toPlace.map((o) => o.clientOrderId)).not.toContain(closedBuy.clientOrderId);
    });

    it('given two open orders under one id, then one is adopted and the other cancelled', () => {
      const desired = desiredOrders(spotConfig, rules, start());
      const id = desired[0].clientOrderId;
      const r = reconcile(desired, [{ clientOrderId: id, n: 1 }, { clientOrderId: id, n: 2 }]);
      expect(r.adopted.map((a) => a.onExchange.n)).toEqual([1]);
      expect(r.toCancel.map((o) => o.n)).toEqual([2]);
    });

    it('given a stopped bot (nothing desired), then all its orders and none of the others are cancelled', () => {
      const open = desiredOrders(spotConfig, rules, given()).map((o) => ({ clientOrderId: o.clientOrderId }));
      const r = reconcile([], [...open, { clientOrderId: 'manual' }], { botId: BOT });
      expect(r.toCancel).toEqual(open);
      expect(r.foreign).toEqual([{ clientOrderId: 'manual' }]);
    });
  });

  describe('take-profit price', () => {
    it.each([
      [99, 1, 0.01, 99.99],
      [100, 0.001, 0.01, 100.01], // 100.001 rounds up
      [100, 1e-12, 0.01, 100.01], // a take-profit too small to move the price still sells above the entry
      [27230.233333333334, 0.8, 0.1, 27448.1],
      [0.3, 10, 0.1, 0.4], // 0.33 → 0.4
    ])('given average %p and take profit %p %% on step %p, then it is %p', (avg, tp, step, expected) => {
      expect(takeProfitPrice(avg, tp, step)).toBe(expected);
    });

    it('given a dust position below the market minimum, then no take-profit is wanted yet', () => {
      const s0 = start();
      const state = applyFill(s0, fillOf(buyAt(spotConfig, rules, s0, 0), { amount: 0.01 })); // worth 1 < 5
      expect(desiredOrders(spotConfig, rules, state).some((o) => o.role === 'take-profit')).toBe(false);
      expect(feeOf(100, 0.01)).toBe(0.001);
    });
  });
});
