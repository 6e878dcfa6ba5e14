import { desiredOrders, initialState } from './grid.engine';
import { buyAt, fillOf, rules, spotConfig } from './grid.fixtures';
import { applyFill } from './grid.engine';
import { activeOrders, beginStopLoss, decidePrice, dustOf, reanchorBook, stopLossSell } from './risk';
import type { GridConfig } from './grid.types';

const futures: GridConfig = { ...spotConfig, botType: 'Futures', leverage: 3 };

describe('risk settings, decision by decision', () => {
  it('a bot with the spec fields alone: no price ever asks anything, the orders are the spec engine\'s', () => {
    let s = initialState(spotConfig, rules, 'spec-bot');
    s = applyFill(s, fillOf(buyAt(spotConfig, rules, s, 0)));
    for (const price of [1, 50, 99, 100, 101, 150, 10_000]) expect(decidePrice(spotConfig, rules, s, price, null)).toEqual({ type: 'none', peak: null });
    expect(activeOrders(spotConfig, rules, s)).toEqual(desiredOrders(spotConfig, rules, s));
  });

  it('futures: the trailing sell and the stop-loss close are reduce-only market sells of what is held', () => {
    const c = { ...futures, trailingDeviation: 2, stopLossPercent: 10 };
    let s = initialState(c, rules, 'fut-bot');
    s = applyFill(s, fillOf(buyAt(c, rules, s, 0))); // 1 at 100: take-profit level 101
    expect(activeOrders(c, rules, s).some((o) => o.role === 'take-profit')).toBe(false);
    expect(decidePrice(c, rules, s, 100.5, null)).toEqual({ type: 'none', peak: null }); // below the level: not trailing yet
    expect(decidePrice(c, rules, s, 105, null)).toEqual({ type: 'trail', peak: 105 });
    const sell = decidePrice(c, rules, s, 102.9, 105);
    expect(sell).toMatchObject({ type: 'trail-sell', peak: 105, order: { side: 'sell', amount: 1, reduceOnly: true, tpSeq: 1 } });
    expect(decidePrice(c, rules, s, 90, null)).toEqual({ type: 'stop-loss', level: 90 });
    const stopping = beginStopLoss(s, 90, 90);
    expect(activeOrders(c, rules, stopping)).toEqual([]);
    expect(stopLossSell(c, rules, stopping)).toMatchObject({ side: 'sell', amount: 1, reduceOnly: true, clientOrderId: expect.stringMatching(/-1-sl1$/) });
    expect(decidePrice(c, rules, stopping, 50, null).type).toBe('none'); // begun once
  });

  it('follow: only when flat, more than one interval above the anchor, capped by the limit', () => {
    const c = { ...spotConfig, reanchor: 'follow' as const, reanchorLimit: 103 };
    const s = initialState(c, rules, 'follow-bot');
    expect(decidePrice(c, rules, s, 101, null).type).toBe('none'); // exactly one interval: not more
    expect(decidePrice(c, rules, s, 101.5, null)).toEqual({ type: 'reanchor', from: 100, to: 101.5 });
    expect(decidePrice(c, rules, s, 120, null)).toEqual({ type: 'reanchor', from: 100, to: 103 });
    const holding = applyFill(s, fillOf(buyAt(c, rules, s, 0)));
    expect(decidePrice(c, rules, holding, 120, null).type).toBe('none');
  });

  it('dust (issue 29 finding 7): a rest no sell could take is not a position; follow re-anchors over it and keeps it', () => {
    const c = { ...spotConfig, reanchor: 'follow' as const };
    const flat = initialState(c, rules, 'dust-bot');
    const withRest = (amount: number) => ({ ...flat, position: { amount, cost: amount * 99, averageEntry: 99, buyFees: 0.01 } });
    expect(dustOf(rules, withRest(0.0009), 110)).toBe(0.0009); // below one amount step (0.001)
    expect(dustOf(rules, withRest(0.04), 110)).toBe(0.04); // 0.04 × 110 = 4.4 < the minimum order value 5
    expect(dustOf({ ...rules, minAmount: 0.1 }, withRest(0.06), 110)).toBe(0.06); // below the minimum amount
    expect(dustOf(rules, withRest(0.05), 110)).toBe(0); // 5.5: a take-profit can sell it: a position
    expect(decidePrice(c, rules, withRest(0.04), 110, null)).toEqual({ type: 'reanchor', from: 100, to: 110 });
    expect(decidePrice(c, rules, withRest(0.05), 110, null).type).toBe('none');
    const moved = reanchorBook(withRest(0.04), c, rules, 110);
    expect(moved.position).toEqual(withRest(0.04).position); // the dust rides along: the next take-profit sells it
    expect(() => reanchorBook(withRest(0.05), c, rules, 110)).toThrow('holds a position');
    // with trailing too, dust that a restarted book carries (a take-profit record, nothing to sell) does not stop follow
    const trailing = { ...c, trailingDeviation: 1 };
    expect(decidePrice(trailing, rules, { ...withRest(0.0009), tp: { seq: 1, amount: 0.0009 } }, 110, null)).toEqual({ type: 'reanchor', from: 100, to: 110 });
  });
});
