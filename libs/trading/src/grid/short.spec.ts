/**
 * The short grid (issue 32, direction.ts): the long engine mirrored. Every expected figure is computed
 * by hand in the comment beside it (fees 0.1 % of notional, grid.fixtures.ts FEE_RATE).
 */
import fc from 'fast-check';
import { marginTiers } from '@gridrocket/exchanges/venues';
import { restartBook } from './book';
import { buyOrderId, takeProfitOrderId, stopLossOrderId } from './client-order-id';
import { desiredOrders, initialState, stalledReason, takeProfitPrice } from './grid.engine';
import { fillOf, rules, run, takeProfitOf } from './grid.fixtures';
import { buildLadder, validateGrid } from './ladder';
import { ladderLiquidation, liquidationProblem, shortLiquidationPrice } from './liquidation';
import { beginStopLoss, decidePrice, reanchorBook, stopLossLevel, stopLossSell } from './risk';
import { riskPreview } from './risk-preview';
import type { GridConfig, GridState } from './grid.types';

const BOT = 'bot-short-1';
const shortConfig: GridConfig = { botType: 'Futures', numOfOrders: 3, orderSize: 1, interval: 1, entryPrice: 100, takeProfit: 1, leverage: 2, direction: 'short' };
const start = (config: GridConfig = shortConfig): GridState => initialState(config, rules, BOT);

/** Sells of the given rungs fill one after another (the price rising through them). */
function priceRisesThrough(config: GridConfig, state: GridState, levels: number[]): GridState {
  for (const level of levels) {
    const order = desiredOrders(config, rules, state).find((o) => o.role === 'buy' && o.level === level);
    if (!order) throw new Error(`no rung ${level}`);
    state = run(state, [fillOf(order)]).state;
  }
  return state;
}

describe('short grid', () => {
  it('a short grid is a ladder of limit sells at and above the entry, none reduce-only, and no take-profit while flat', () => {
    const orders = desiredOrders(shortConfig, rules, start());
    // entry 100, interval 1: 100, 101, 102 (entry + i·interval)
    expect(orders.map((o) => [o.clientOrderId, o.side, o.price, o.amount, o.reduceOnly])).toEqual([
      [buyOrderId(BOT, 1, 0), 'sell', 100, 1, false],
      [buyOrderId(BOT, 1, 1), 'sell', 101, 1, false],
      [buyOrderId(BOT, 1, 2), 'sell', 102, 1, false],
    ]);
  });

  it('a config without a direction is the long grid, exactly as before', () => {
    const { direction: _d, ...long } = shortConfig;
    expect(desiredOrders(long, rules, initialState(long, rules, BOT)).map((o) => [o.side, o.price])).toEqual([
      ['buy', 100],
      ['buy', 99],
      ['buy', 98],
    ]);
    expect(initialState(long, rules, BOT).direction).toBeUndefined();
  });

  it('percent spacing steps up by the percentage, prices rounded UP to the step (never sell below the configured price)', () => {
    // 100 × 1.015^i: 100, 101.5, 103.0225 → 103.03 (rounded up to 0.01)
    expect(buildLadder({ ...shortConfig, spacing: 'percent', interval: 1.5 }, rules).map((l) => l.price)).toEqual([100, 101.5, 103.03]);
    // absolute 0.333 at step 0.01: 100, 100.333 → 100.34, 100.666 → 100.67
    expect(buildLadder({ ...shortConfig, interval: 0.333 }, rules).map((l) => l.price)).toEqual([100, 100.34, 100.67]);
  });

  it('a short spot grid is refused: short trades futures only', () => {
    expect(validateGrid({ ...shortConfig, botType: 'Spot', leverage: 1 }, rules)).toEqual({ ok: false, reason: 'A short grid trades futures only: a spot bot is long' });
  });

  describe('when the price rises through 100 and 101 and falls back to the take-profit', () => {
    const sold = () => priceRisesThrough(shortConfig, start(), [0, 1]);

    it('then the position is 2 sold at an average of 100.5, and one reduce-only BUY take-profit 1 % below it', () => {
      const state = sold();
      // sold 1 × 100 + 1 × 101 = 201 for 2 → average 100.5; fees 0.1 + 0.101 = 0.201
      expect(state.position).toEqual({ amount: 2, cost: 201, averageEntry: 100.5, buyFees: 0.201 });
      const tp = takeProfitOf(shortConfig, rules, state);
      // 100.5 × 0.99 = 99.495, rounded DOWN to 0.01 → 99.49
      expect(tp).toEqual({ clientOrderId: takeProfitOrderId(BOT, 1, 2), role: 'take-profit', side: 'buy', type: 'limit', price: 99.49, amount: 2, reduceOnly: true, cycle: 1, tpSeq: 2 });
      expect(desiredOrders(shortConfig, rules, state).filter((o) => o.role === 'buy').map((o) => o.price)).toEqual([102]);
    });

    it('then the take-profit fill realises 1.62002 after fees and cycle 2 re-arms the two rungs that sold', () => {
      const bought = sold();
      const { state, effects } = run(bought, [fillOf(takeProfitOf(shortConfig, rules, bought))]);
      // received 201 for the 2 sold; bought back 2 × 99.49 = 198.98, fee 0.19898;
      // profit 201 − 198.98 − 0.201 − 0.19898 = 1.62002
      expect(effects.find((e) => e.type === 'TakeProfitFilled')).toMatchObject({ profit: 1.62002, oversold: 0 });
      expect(state.profit).toBe(1.62002);
      // fees 0.1 + 0.101 + 0.19898 = 0.39998
      expect(state.feesPaid).toBe(0.39998);
      expect(state.cycle).toBe(2);
      expect(state.position).toEqual({ amount: 0, cost: 0, averageEntry: 0, buyFees: 0 });
      expect(desiredOrders(shortConfig, rules, state).map((o) => o.clientOrderId)).toEqual([buyOrderId(BOT, 2, 0), buyOrderId(BOT, 2, 1), buyOrderId(BOT, 1, 2)]);
    });

    it('then a take-profit above the entry would be a loss: it is never placed at or above the average', () => {
      // takeProfit 0.001 % of 100.5 is 0.001005: 100.498995 rounds down to 100.49, strictly below 100.5
      expect(takeProfitPrice(100.5, 0.001, 0.01, 'short')).toBe(100.49);
      // a take-profit that rounds to the average itself steps one price step below it: 100 × (1 − 1e-9) → 99.99
      expect(takeProfitPrice(100, 1e-9, 0.01, 'short')).toBe(99.99);
    });
  });

  describe('stop-loss 5 % above the average', () => {
    const config: GridConfig = { ...shortConfig, stopLossPercent: 5 };
    const sold = () => priceRisesThrough(config, start(config), [0, 1]);

    it('triggers at 105.53 (100.5 × 1.05 = 105.525, rounded up), not at 105.52', () => {
      const state = sold();
      expect(stopLossLevel(config, rules, state)).toBe(105.53);
      expect(decidePrice(config, rules, state, 105.52, null)).toEqual({ type: 'none', peak: null });
      expect(decidePrice(config, rules, state, 105.53, null)).toEqual({ type: 'stop-loss', level: 105.53 });
    });

    it('closes with a reduce-only market BUY of the whole position, and books the loss', () => {
      const stopped = beginStopLoss(sold(), 106, 105.53);
      const close = stopLossSell(config, rules, stopped)!;
      expect(close).toMatchObject({ clientOrderId: stopLossOrderId(BOT, 1), side: 'buy', amount: 2, reduceOnly: true });
      const { state, effects } = run(stopped, [{ clientOrderId: close.clientOrderId, fillId: 'sl-1', price: 106, amount: 2, fee: 0.212 }]);
      // received 201, bought back 2 × 106 = 212: 201 − 212 − 0.201 − 0.212 = −11.413
      expect(effects.find((e) => e.type === 'StopLossFilled')).toMatchObject({ profit: -11.413 });
      expect(state.position.amount).toBe(0);
    });

    it('a stop-loss price must lie above the entry of a short grid', () => {
      expect(validateGrid({ ...shortConfig, stopLossPrice: 99 }, rules)).toEqual({ ok: false, reason: 'The stop-loss price 99 of a short grid must be above the entry price 100' });
      expect(validateGrid({ ...shortConfig, stopLossPrice: 110 }, rules).ok).toBe(true);
    });
  });

  it('trailing follows the trough below the take-profit level and buys back when the price rises by the deviation', () => {
    const config: GridConfig = { ...shortConfig, trailingDeviation: 0.5 };
    const state = priceRisesThrough(config, start(config), [0, 1]);
    expect(desiredOrders(config, rules, state).some((o) => o.role === 'take-profit')).toBe(true); // (activeOrders drops it; desiredOrders is the plain engine)
    // activation: the take-profit level 99.49; 99.6 is above it: nothing yet
    expect(decidePrice(config, rules, state, 99.6, null)).toEqual({ type: 'none', peak: null });
    expect(decidePrice(config, rules, state, 99.4, null)).toEqual({ type: 'trail', peak: 99.4 });
    expect(decidePrice(config, rules, state, 99.3, 99.4)).toEqual({ type: 'trail', peak: 99.3 });
    // buy-back level for the trough 99.3: 99.3 × 1.005 = 99.7965 → 99.8 (rounded up)
    expect(decidePrice(config, rules, state, 99.79, 99.3)).toEqual({ type: 'none', peak: 99.3 });
    const d = decidePrice(config, rules, state, 99.8, 99.3);
    expect(d).toMatchObject({ type: 'trail-sell', order: { side: 'buy', amount: 2, reduceOnly: true } });
  });

  it('follow re-anchors a flat short grid DOWN when the price fell more than one interval below the anchor, never below the limit', () => {
    const config: GridConfig = { ...shortConfig, reanchor: 'follow', reanchorLimit: 98 };
    const state = start(config);
    // 100 − 99.5 = 0.5: not more than one interval (1)
    expect(decidePrice(config, rules, state, 99.5, null)).toEqual({ type: 'none', peak: null });
    expect(decidePrice(config, rules, state, 98.5, null)).toEqual({ type: 'reanchor', from: 100, to: 98.5 });
    // 97 is below the limit 98: the anchor stops at 98
    expect(decidePrice(config, rules, state, 97, null)).toEqual({ type: 'reanchor', from: 100, to: 98 });
    const moved = reanchorBook(state, config, rules, 98.5);
    expect(desiredOrders(config, rules, moved).map((o) => [o.side, o.price])).toEqual([['sell', 98.5], ['sell', 99.5], ['sell', 100.5]]);
    expect(moved.direction).toBe('short');
  });

  it('a restart keeps a short position and its buy take-profit; turning the bot long while short is refused', () => {
    const held = priceRisesThrough(shortConfig, start(), [0]);
    const restarted = restartBook(held, shortConfig, rules, { dropPosition: false });
    expect(restarted.direction).toBe('short');
    expect(takeProfitOf(shortConfig, rules, restarted)).toMatchObject({ side: 'buy', price: 99, amount: 1 }); // 100 × 0.99
    const { direction: _d, ...long } = shortConfig;
    expect(() => restartBook(held, long, rules, { dropPosition: false })).toThrow('the bot holds a short position of 1: it cannot restart as a long grid');
    // flat (closed at the stop): it may turn
    expect(restartBook(held, long, rules, { dropPosition: true }).direction).toBeUndefined();
  });

  it('a stalled short grid says "every sell of the ladder has filled"', () => {
    const tiny: GridConfig = { ...shortConfig, numOfOrders: 1 };
    const state = priceRisesThrough(tiny, start(tiny), [0]);
    const stalled: GridState = { ...state, position: { ...state.position, amount: 0.04, cost: 4 }, tp: { seq: 2, amount: 0.04 } };
    // 0.04 × 99 = 3.96 < the minimum order value 5
    expect(stalledReason(tiny, rules, stalled)).toMatch(/every sell of the ladder has filled/);
  });
});

describe('liquidation price of a short isolated position', () => {
  const btc = marginTiers('Binance', 'BTCUSDT').tiers;

  it('BTCUSDT short 1 BTC at 60000, leverage 10: tier 2 (0.5 %, maintenance amount 50) → (60000 + 6000 + 50) ÷ 1.005', () => {
    // 66050 ÷ 1.005 = 65721.39303482587 → 65721.39303483 (1e-8)
    expect(shortLiquidationPrice(1, 60000, 6000, btc)).toBe(65721.39303483);
  });

  it('at the liquidation price the margin left, W + Q·(E − P), equals the maintenance margin Q·P·m − a', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.001, max: 50, noNaN: true }), fc.double({ min: 100, max: 100_000, noNaN: true }), fc.integer({ min: 1, max: 100 }), (q, e, lev) => {
        const margin = (q * e) / lev;
        const p = shortLiquidationPrice(q, e, margin, btc);
        const tier = btc.find((t) => q * e <= t.notionalCap) ?? btc[btc.length - 1];
        expect(Math.abs(margin + q * (e - p) - (q * p * tier.maintenanceRate - tier.maintenanceAmount))).toBeLessThan(1e-4 * Math.max(1, (q * p) / 1000));
      }),
    );
  });

  it('a short ladder too high for its leverage is refused at start, a safe one is not', () => {
    const r = { priceStep: 0.01, amountStep: 0.001, minNotional: 5 };
    const base: GridConfig = { botType: 'Futures', numOfOrders: 3, orderSize: 0.01, interval: 2000, entryPrice: 60000, takeProfit: 1, leverage: 50, direction: 'short' };
    const risky = buildLadder(base, r); // sells at 60000, 62000, 64000
    // after rung 1: Q 0.01, E 60000, W 600 ÷ 50 = 12, tier 1 (0.4 %, 0): (600 + 12) ÷ (0.01 × 1.004) = 60956.1752988… ≤ 62000
    expect(ladderLiquidation(risky, 50, btc, 'short').liquidatedBefore).toEqual({ rung: 1, price: 62000, liquidation: 60956.1752988 });
    expect(liquidationProblem(risky, 50, btc, 'short')).toMatch(/liquidated at 60956.1752988, before order 2 of 3 at 62000/);
    const safe = buildLadder({ ...base, leverage: 5 }, r);
    expect(liquidationProblem(safe, 5, btc, 'short')).toBeNull();
    // full ladder: Q 0.03, received 600 + 620 + 640 = 1860, W 372: (1860 + 372) ÷ (0.03 × 1.004) = 74103.58565737…
    expect(ladderLiquidation(safe, 5, btc, 'short').fullLadder).toBe(74103.58565737);
    expect(riskPreview({ ...base, leverage: 5 }, r, btc)).toMatchObject({ liquidation: 74103.58565737, liquidationRefusal: null });
  });
});
