import { applyInfinityFills, infinityDesiredOrders, infinityInitialState, infinityOrderId, infinityProblem, processInfinityFill, type InfinityConfig, type InfinityState } from './infinity.engine';
import { parseClientOrderId } from '../../grid/client-order-id';
import type { Fill, MarketRules } from '../../grid/grid.types';

const rules: MarketRules = { priceStep: 0.01, amountStep: 0.001, minNotional: 5 };
// start at 100 buying 100 USDT of coin; steps of 1 %, 20 USDT each; no buy below 95
const config: InfinityConfig = { style: 'infinity', botType: 'Spot', entryPrice: 100, stepPercent: 1, quoteValue: 20, lowerPrice: 95, initialQuote: 100 };
const BOT = 'infinity-bot';
let n = 0;
const fillOf = (s: InfinityState, role: 'initial' | 'step-buy' | 'step-sell', fee = 0, amount?: number): Fill => {
  const o = infinityDesiredOrders(rules, s).find((d) => d.role === role)!;
  return { clientOrderId: o.clientOrderId, fillId: `f${++n}`, price: o.price, amount: amount ?? o.amount, fee };
};
const show = (s: InfinityState) => infinityDesiredOrders(rules, s).map((o) => `${o.side} ${o.price} ${o.amount}`);

describe('the infinity grid (infinity.engine.ts)', () => {
  it('starts with the initial buy alone, then rests one sell a step above and one buy a step below the last trade', () => {
    let s = infinityInitialState(config, rules, BOT);
    expect(show(s)).toEqual(['buy 100 1']); // 100 USDT ÷ 100
    expect(infinityDesiredOrders(rules, s)[0].clientOrderId).toBe(infinityOrderId(BOT, 1, 'initial'));
    expect(parseClientOrderId(infinityDesiredOrders(rules, s)[0].clientOrderId)).toBeNull(); // never taken for a ladder order
    s = processInfinityFill(config, rules, s, fillOf(s, 'initial', 0.1)).state;
    expect(s.last).toBe(100);
    // sell at 100 × 1.01 = 101 for 20 ÷ 101 = 0.19801… → 0.198; buy at 100 × 0.99 = 99 for 20 ÷ 99 = 0.20202… → 0.202
    expect(show(s)).toEqual(['sell 101 0.198', 'buy 99 0.202']);
  });

  it('a step up sells the value at the average cost: profit = proceeds − cost share − buy-fee share − its fee; the pair moves up', () => {
    let s = infinityInitialState(config, rules, BOT);
    s = processInfinityFill(config, rules, s, fillOf(s, 'initial', 0.1)).state; // 1 at 100, fee 0.1
    const { state, effects } = processInfinityFill(config, rules, s, fillOf(s, 'step-sell', 0.019998));
    // 0.198 × 101 = 19.998; cost 0.198 × 100 = 19.8; buy-fee share 0.1 × 0.198 = 0.0198; fee 0.019998
    // 19.998 − 19.8 − 0.0198 − 0.019998 = 0.158202
    expect(effects[0]).toMatchObject({ type: 'InfinitySold', profit: 0.158202 });
    expect(state.profit).toBe(0.158202);
    expect(state.position).toMatchObject({ amount: 0.802, averageEntry: 100 });
    expect(state.stepsUp).toBe(1);
    // from 101: sell at 102.01 for 20 ÷ 102.01 = 0.19606 → 0.196; buy at 99.99 for 20 ÷ 99.99 = 0.20002 → 0.2
    expect(show(state)).toEqual(['sell 102.01 0.196', 'buy 99.99 0.2']);
    // a step down buys: the average falls to (80.2 + 19.998) ÷ 1.002 = 99.998003992…
    const down = processInfinityFill(config, rules, state, fillOf(state, 'step-buy')).state;
    expect(down.position.amount).toBe(1.002);
    expect(down.position.averageEntry).toBeCloseTo(100.198 / 1.002, 10);
    expect(down.stepsDown).toBe(1);
    expect(down.last).toBe(99.99);
  });

  it('stops buying below the lower price and keeps selling; sells never more than it holds', () => {
    const c = { ...config, lowerPrice: 99.5 };
    let s = infinityInitialState(c, rules, BOT);
    s = processInfinityFill(c, rules, s, fillOf(s, 'initial')).state;
    expect(show(s)).toEqual(['sell 101 0.198']); // the buy would be at 99 < 99.5
    const small = { ...config, initialQuote: 10 }; // 0.1 coin: the sell is what is held (0.1 × 101 = 10.1 ≥ 5)
    let t = infinityInitialState(small, rules, BOT);
    t = processInfinityFill(small, rules, t, fillOf(t, 'initial')).state;
    expect(show(t)).toEqual(['sell 101 0.1', 'buy 99 0.202']);
  });

  it('a partial fill keeps the pair working; a repeat changes nothing; a late fill of a replaced order moves the position, not the reference', () => {
    let s = infinityInitialState(config, rules, BOT);
    s = processInfinityFill(config, rules, s, fillOf(s, 'initial')).state;
    const part = fillOf(s, 'step-buy', 0, 0.1);
    const p = processInfinityFill(config, rules, s, part).state;
    expect(show(p)).toEqual(['sell 101 0.198', 'buy 99 0.102']);
    expect(processInfinityFill(config, rules, p, part).state).toBe(p);
    const oldBuy = infinityDesiredOrders(rules, p).find((o) => o.role === 'step-buy')!;
    const up = processInfinityFill(config, rules, p, fillOf(p, 'step-sell')).state; // the sell completes: step 3
    const late = processInfinityFill(config, rules, up, { clientOrderId: oldBuy.clientOrderId, fillId: 'late-1', price: 99, amount: 0.102, fee: 0 });
    expect(late.effects[0]).toMatchObject({ type: 'InfinityBought', late: true });
    expect(late.state.last).toBe(101);
    expect(late.state.position.amount).toBe(1.004); // 1 + 0.1 (partial) − 0.198 (sold) + 0.102 (late)
    expect(processInfinityFill(config, rules, up, { clientOrderId: infinityOrderId('other-bot', 2, 'step-buy'), fillId: 'x', price: 99, amount: 1, fee: 0 }).effects[0]).toMatchObject({ reason: 'not-this-bot' });
  });

  it('says why a config cannot trade', () => {
    expect(infinityProblem(config, rules)).toBeNull();
    expect(infinityProblem({ ...config, quoteValue: 4 }, rules)).toBe('A step of 4 USDT at 101 (0.039 coin) is below the market\'s minimum order (value 5)');
    expect(infinityProblem({ ...config, lowerPrice: 100 }, rules)).toBe('The lower price must be greater than 0 and below the entry price 100 (got 100)');
    expect(infinityProblem({ ...config, stepPercent: 0.001 }, rules)).toBe('A step of 0.001 % of 100 is smaller than the market\'s price step of 0.01');
    expect(infinityProblem({ ...config, botType: 'Futures' as 'Spot' }, rules)).toBe('An infinity grid trades spot only');
  });
});

describe('replaying an infinity history (applyInfinityFills)', () => {
  it('gives the state of applying its fills one by one (repeats and strangers ignored), and leaves the state it started from as it was', () => {
    let oneByOne = infinityInitialState(config, rules, BOT);
    const fills: Fill[] = [];
    // a walk of 60 steps up and down: each time the nearer order fills
    for (let k = 0; k < 60; k++) {
      // down twice, up once; at the lower price (no buy) or with nothing to sell, the other side
      const want = k === 0 ? 'initial' : k % 3 === 0 ? 'step-sell' : 'step-buy';
      const roles = infinityDesiredOrders(rules, oneByOne).map((o) => o.role);
      const role = roles.includes(want) ? want : roles[0];
      const f = fillOf(oneByOne, role, 0.01);
      fills.push(f);
      oneByOne = processInfinityFill(config, rules, oneByOne, f).state;
    }
    const start = infinityInitialState(config, rules, BOT);
    const before = JSON.stringify(start);
    const replayed = applyInfinityFills(config, rules, start, [...fills, fills[3], { ...fills[4], clientOrderId: 'gr-zzzzzzzz-1-b0', fillId: 'stranger' }]);
    expect(replayed).toEqual(oneByOne);
    expect(JSON.stringify(start)).toBe(before);
    expect(applyInfinityFills(config, rules, replayed, fills)).toBe(replayed); // all known: the same state
  });
});
