/**
 * The neutral futures grid (issue 32, neutral.ts): buys below and sells above the reference, each fill
 * answered by its opposite one line away. Every expected figure is worked out by hand beside it
 * (fees 0.02 % of notional, maker).
 */
import fc from 'fast-check';
import { marginTiers } from '@gridrocket/exchanges/venues';
import { buyOrderId } from '../../grid/client-order-id';
import { roundMoney } from '../../grid/decimal';
import { buildLadder } from '../../grid/ladder';
import { ladderLiquidation } from '../../grid/liquidation';
import {
  applyNeutralFills,
  beginNeutralStopLoss,
  initialNeutralState,
  neutralIdsUsed,
  neutralStopLossDone,
  neutralStopLossOrder,
  restartNeutral,
  neutralDesiredOrders,
  neutralLiquidation,
  neutralProblem,
  neutralStopLoss,
  processNeutralFill,
  type NeutralDesiredOrder,
  type NeutralGridConfig,
  type NeutralState,
} from './neutral.engine';
import type { Fill, MarketRules } from '../../grid/grid.types';

const BOT = 'bot-neutral-1';
const rules: MarketRules = { priceStep: 0.01, amountStep: 0.001, minNotional: 5 };
// reference 100, interval 1, 3 orders each side of 0.5: lines 97 98 99 | 100 | 101 102 103
const config: NeutralGridConfig = { botType: 'Futures', numOfOrders: 3, orderSize: 0.5, interval: 1, entryPrice: 100, takeProfit: 1, leverage: 2, direction: 'neutral' };
const RATE = 0.0002;
const start = (): NeutralState => initialNeutralState(config, rules, BOT);
const show = (o: NeutralDesiredOrder): string => `${o.side} ${o.price} ${o.amount}${o.reduceOnly ? ' reduce-only' : ''}`;
const book = (s: NeutralState): string[] => neutralDesiredOrders(rules, s).map(show).sort();

let seq = 0;
/** The whole (or `amount` of the) resting order at `price` fills at its price, maker fee. */
function fillAt(s: NeutralState, price: number, amount?: number): { state: NeutralState; fill: Fill } {
  const order = neutralDesiredOrders(rules, s).find((o) => o.price === price);
  if (!order) throw new Error(`no order at ${price}`);
  const a = amount ?? order.amount;
  const fill: Fill = { clientOrderId: order.clientOrderId, fillId: `f${++seq}`, price, amount: a, fee: roundMoney(price * a * RATE) };
  return { state: processNeutralFill(s, fill).state, fill };
}
function fillsAt(s: NeutralState, prices: number[]): NeutralState {
  for (const p of prices) s = fillAt(s, p).state;
  return s;
}

describe('neutral grid', () => {
  it('starts with buys below and sells above the reference, nothing at the reference, none reduce-only, flat', () => {
    const s = start();
    expect(neutralDesiredOrders(rules, s).map((o) => [o.clientOrderId, o.side, o.price, o.amount, o.reduceOnly])).toEqual([
      // nearest the reference first: lines 2 (99) and 4 (101), then 1 and 5, then 0 and 6
      [buyOrderId(BOT, 1, 2), 'buy', 99, 0.5, false],
      [buyOrderId(BOT, 1, 4), 'sell', 101, 0.5, false],
      [buyOrderId(BOT, 1, 1), 'buy', 98, 0.5, false],
      [buyOrderId(BOT, 1, 5), 'sell', 102, 0.5, false],
      [buyOrderId(BOT, 1, 0), 'buy', 97, 0.5, false],
      [buyOrderId(BOT, 1, 6), 'sell', 103, 0.5, false],
    ]);
    expect(s.position).toBe(0);
  });

  it('a buy filled at 99 is answered by a reduce-only sell at 100; that sell completes the pair: 0.5 × 1 less both fees', () => {
    let s = fillAt(start(), 99).state;
    expect(s.position).toBe(0.5);
    expect(book(s)).toEqual(['buy 97 0.5', 'buy 98 0.5', 'sell 100 0.5 reduce-only', 'sell 101 0.5', 'sell 102 0.5', 'sell 103 0.5']);
    s = fillAt(s, 100).state;
    // buy fee 99 × 0.5 × 0.0002 = 0.0099, sell fee 100 × 0.5 × 0.0002 = 0.01; 0.5 × (100 − 99) − 0.0099 − 0.01 = 0.4801
    expect(s.profit).toBe(0.4801);
    expect(s.feesPaid).toBe(0.0199);
    expect(s.pairsCompleted).toBe(1);
    expect(s.position).toBe(0);
    // back to the starting book, the line at 99 under a new id (generation 2)
    expect(book(s)).toEqual(book(start()));
    expect(neutralDesiredOrders(rules, s).find((o) => o.price === 99)?.clientOrderId).toBe(buyOrderId(BOT, 2, 2));
  });

  it('sells above the reference open a short; their answers are reduce-only buys one line below, as much as the short', () => {
    let s = fillsAt(start(), [101, 102]);
    expect(s.position).toBe(-1);
    // cursor on 102: buys at 97 98 99 (open), 100 and 101 (close the short: reduce-only, 0.5 + 0.5 = the short of 1)
    expect(book(s)).toEqual(['buy 100 0.5 reduce-only', 'buy 101 0.5 reduce-only', 'buy 97 0.5', 'buy 98 0.5', 'buy 99 0.5', 'sell 103 0.5']);
    s = fillAt(s, 101).state;
    // the short sold at 102 is bought back at 101: 0.5 × (102 − 101) − 102 × 0.5 × 0.0002 − 101 × 0.5 × 0.0002 = 0.5 − 0.0102 − 0.0101 = 0.4797
    expect(s.profit).toBe(0.4797);
    expect(s.position).toBe(-0.5);
  });

  it('all buys filled: long 3 × 0.5 and no buy left, so the position cannot grow beyond the grid; the same for all sells', () => {
    const long = fillsAt(start(), [99, 98, 97]);
    expect(long.position).toBe(1.5);
    expect(book(long)).toEqual(['sell 100 0.5 reduce-only', 'sell 101 0.5', 'sell 102 0.5', 'sell 103 0.5', 'sell 98 0.5 reduce-only', 'sell 99 0.5 reduce-only']);
    const short = fillsAt(start(), [101, 102, 103]);
    expect(short.position).toBe(-1.5);
    expect(book(short).filter((o) => o.startsWith('sell'))).toEqual([]);
  });

  it('a fill applied twice changes nothing', () => {
    const { state, fill } = fillAt(start(), 99);
    const again = processNeutralFill(state, fill);
    expect(again.state).toBe(state);
    expect(again.effects).toEqual([{ type: 'FillIgnored', fillId: fill.fillId, clientOrderId: fill.clientOrderId, reason: 'duplicate' }]);
  });

  it('a partly filled buy keeps resting for the rest and is answered only when complete', () => {
    let s = fillAt(start(), 99, 0.2).state;
    expect(s.position).toBe(0.2);
    expect(book(s)).toEqual(['buy 97 0.5', 'buy 98 0.5', 'buy 99 0.3', 'sell 101 0.5', 'sell 102 0.5', 'sell 103 0.5']);
    s = fillAt(s, 99, 0.3).state;
    expect(book(s)).toContain('sell 100 0.5 reduce-only');
    s = fillAt(s, 100, 0.5).state;
    // one pair of 0.5 bought at 99 in two fills: fees 99 × 0.2 × 0.0002 = 0.00396 and 99 × 0.3 × 0.0002 = 0.00594, sold at 100: 0.01
    // 0.5 − 0.00396 − 0.00594 − 0.01 = 0.4801
    expect(s.profit).toBe(0.4801);
  });

  it('fills reported out of price order (98 before 99, both crossed at one print) settle to the same book and position', () => {
    const inOrder = fillsAt(start(), [99, 98]);
    const s0 = start();
    const o99 = neutralDesiredOrders(rules, s0).find((o) => o.price === 99)!;
    const o98 = neutralDesiredOrders(rules, s0).find((o) => o.price === 98)!;
    let s = processNeutralFill(s0, { clientOrderId: o98.clientOrderId, fillId: 'x98', price: 98, amount: 0.5, fee: 0.0098 }).state;
    // for now the cursor moved to 99: its resting buy is retired (cancelled), 98 re-armed
    expect(neutralDesiredOrders(rules, s).some((o) => o.clientOrderId === o99.clientOrderId)).toBe(false);
    s = processNeutralFill(s, { clientOrderId: o99.clientOrderId, fillId: 'x99', price: 99, amount: 0.5, fee: 0.0099 }).state;
    expect(s.position).toBe(inOrder.position);
    expect(book(s)).toEqual(book(inOrder));
    // each answer closes its own pair: the sell at 99 the buy at 98, the sell at 100 the buy at 99
    // 0.5 × (99 − 98) − 0.0098 − 99 × 0.5 × 0.0002 = 0.5 − 0.0098 − 0.0099 = 0.4803
    s = fillAt(s, 99).state;
    expect(s.profit).toBe(0.4803);
    // 0.5 × (100 − 99) − 0.0099 − 0.01 = 0.4801; 0.4803 + 0.4801 = 0.9604
    s = fillAt(s, 100).state;
    expect(s.profit).toBe(0.9604);
    expect(s.position).toBe(0);
  });

  it('on any price path the position stays within ±3 × 0.5, reduce-only orders never exceed the position, and a flat grid earned its pairs less its fees', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 9500, max: 10500 }), { minLength: 1, maxLength: 60 }), (path) => {
        let s = start();
        let n = 0;
        for (const cents of path) {
          const price = cents / 100;
          // a print fills every order it crosses, the nearest the previous cursor first (price-time priority)
          for (;;) {
            const hit = neutralDesiredOrders(rules, s).find((o) => (o.side === 'buy' ? price <= o.price : price >= o.price));
            if (!hit) break;
            s = processNeutralFill(s, { clientOrderId: hit.clientOrderId, fillId: `p${++n}`, price: hit.price, amount: hit.amount, fee: roundMoney(hit.price * hit.amount * RATE) }).state;
          }
          expect(Math.abs(s.position)).toBeLessThanOrEqual(1.5);
          const orders = neutralDesiredOrders(rules, s);
          const roSell = orders.filter((o) => o.reduceOnly && o.side === 'sell').reduce((a, o) => a + o.amount, 0);
          const roBuy = orders.filter((o) => o.reduceOnly && o.side === 'buy').reduce((a, o) => a + o.amount, 0);
          expect(roSell).toBeLessThanOrEqual(Math.max(0, s.position) + 1e-9);
          expect(roBuy).toBeLessThanOrEqual(Math.max(0, -s.position) + 1e-9);
        }
        if (s.position === 0) {
          // each completed pair earned 0.5 × 1 (one interval); the fees of every fill were paid
          expect(s.profit).toBeCloseTo(s.pairsCompleted * 0.5 - s.feesPaid, 6);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('the liquidation prices of both worst cases are those of the long ladder of its buys and the short ladder of its sells; a too high leverage is refused', () => {
    const btc = marginTiers('Binance', 'BTCUSDT').tiers;
    const base: NeutralGridConfig = { botType: 'Futures', numOfOrders: 3, orderSize: 0.01, interval: 2000, entryPrice: 60000, takeProfit: 1, leverage: 5, direction: 'neutral' };
    // the buys are the long ladder 58000, 56000, 54000; the sells the short ladder 62000, 64000, 66000
    const long = ladderLiquidation(buildLadder({ ...base, direction: 'long', entryPrice: 58000 }, rules), 5, btc);
    const short = ladderLiquidation(buildLadder({ ...base, direction: 'short', entryPrice: 62000 }, rules), 5, btc, 'short');
    const l = neutralLiquidation(base, rules, btc);
    expect(l).toEqual({ long: long.fullLadder, short: short.fullLadder, problem: null });
    expect(l.long).toBeLessThan(54000);
    expect(l.short).toBeGreaterThan(66000);
    // leverage 50: the long of 0.01 at 58000 has margin 11.6 and liquidates at (580 − 11.6 − 0) ÷ (0.01 × 0.996) = 57068.27…, above 56000
    expect(neutralLiquidation({ ...base, leverage: 50 }, rules, btc).problem).toMatch(/^At leverage 50 the long position of the 1 buys below the reference would be liquidated at 5706\d\.\d+, before the buy 2 of 3 at 56000 fills/);
  });

  it('stop-loss: below the lower stop a long is sold, above the upper stop a short is bought back; the stops must lie outside the grid', () => {
    const c = { ...config, stopLossPrice: 96, stopLossPriceAbove: 104 };
    expect(neutralProblem(c, rules)).toBeNull();
    expect(neutralProblem({ ...c, stopLossPrice: 97.5 }, rules)).toBe('The stop-loss price 97.5 of a neutral grid must be below its lowest buy at 97');
    expect(neutralProblem({ ...c, stopLossPriceAbove: 103 }, rules)).toBe('The upper stop-loss price 103 of a neutral grid must be above its highest sell at 103');
    const long = fillsAt(start(), [99, 98]);
    expect(neutralStopLoss(c, long, 96.5)).toBeNull();
    expect(neutralStopLoss(c, long, 96)).toEqual({ side: 'long', level: 96, close: 'sell', amount: 1 });
    expect(neutralStopLoss(c, long, 105)).toBeNull(); // a long is not stopped above
    const short = fillsAt(start(), [101]);
    expect(neutralStopLoss(c, short, 104.2)).toEqual({ side: 'short', level: 104, close: 'buy', amount: 0.5 });
  });

  it('refuses a spot bot, a grid reaching zero, uneven steps and sizes', () => {
    expect(neutralProblem({ ...config, botType: 'Spot', leverage: 1 }, rules)).toBe('A neutral grid trades futures only: a spot bot is long');
    expect(neutralProblem({ ...config, numOfOrders: 100 }, rules)).toBe('The lowest buy would be priced at or below zero: 100 − 100 × 1 = 0');
    expect(neutralProblem({ ...config, spacing: 'percent' }, rules)).toMatch(/equal steps and sizes/);
    expect(neutralProblem({ ...config, orderSize: 0.01 }, rules)).toBe("The lowest buy would be worth 0.97 (0.01 × 97), below the market's minimum order value of 5");
  });

  it('applyNeutralFills gives the same state as applying the fills one by one, and a repeat of all of them changes nothing', () => {
    const fills: Fill[] = [];
    let s = start();
    for (const p of [99, 98, 99, 100, 101]) {
      const r = fillAt(s, p);
      s = r.state;
      fills.push(r.fill);
    }
    const replayed = applyNeutralFills(start(), fills);
    expect(replayed).toEqual(s);
    expect(applyNeutralFills(replayed, fills)).toEqual(s);
  });
});

describe('neutral grid stop-loss and restarts (the runner, issue 32)', () => {
  it('a short position above the upper stop: no order rests, the close is a buy of the whole short under an id above every other, and its fill realises the loss', () => {
    // sells at 101 and 102 fill: short 1 (cursor on line 5)
    let s = fillsAt(start(), [101, 102]);
    expect(s.position).toBe(-1);
    s = beginNeutralStopLoss(s, 104.5, 104);
    expect(s.stopLoss).toMatchObject({ side: 'short', level: 104, price: 104.5 });
    expect(neutralDesiredOrders(rules, s)).toEqual([]);
    const close = neutralStopLossOrder(rules, s)!;
    expect(close).toMatchObject({ side: 'buy', amount: 1 });
    expect(close.seq).toBe(neutralIdsUsed(s)); // the stop's own number, above every line's generation before it
    expect(close.seq).toBeGreaterThan(Math.max(...s.lines.map((l) => l.generation)));
    // bought back at 104.5, taker fee 104.5 × 0.0005 = 0.05225: (101 − 104.5) × 0.5 + (102 − 104.5) × 0.5
    // less the sells' fees 0.0101 + 0.0102 and the close's 0.05225 = −3 − 0.07255 = −3.07255
    const r = processNeutralFill(s, { clientOrderId: close.clientOrderId, fillId: 'sl1', price: 104.5, amount: 1, fee: 0.05225 });
    expect(r.effects[0]).toMatchObject({ type: 'NeutralFilled', stopLoss: true, side: 'buy', closed: 1, profit: -3.07255 });
    expect(r.state.position).toBe(0);
    expect(neutralStopLossOrder(rules, r.state)).toBeNull();
    expect(neutralStopLossDone(rules, r.state)).toBe('Stop-loss triggered at 104.5 (stop level 104): the short position was bought back at market, loss 3.07255 USDT');
  });

  it('a restart numbers its lines above every id of the run before (never an id used twice)', () => {
    const before = fillsAt(start(), [99, 100, 99]);
    const used = neutralIdsUsed(before);
    const next = restartNeutral(before, config, rules, BOT);
    expect(next.position).toBe(0);
    expect(next.lines.every((l) => l.generation === used + 1)).toBe(true);
    const oldIds = new Set(before.lines.map((l) => `${l.generation}-${l.index}`));
    expect(neutralDesiredOrders(rules, next).some((o) => oldIds.has(`${o.generation}-${o.line}`))).toBe(false);
  });
});

describe('replaying a neutral history (applyNeutralFills)', () => {
  it('gives the state of applying its fills one by one, retired orders and repeats included, and leaves the state it started from as it was', () => {
    // up through the sells, down through the buys and back, with a pair crossed at one print reported the later one first
    let oneByOne = start();
    const fills: Fill[] = [];
    for (const price of [101, 102, 103, 102, 101, 100, 99, 98, 97, 98, 99, 100, 101]) {
      const r = fillAt(oneByOne, price);
      fills.push(r.fill);
      oneByOne = r.state;
    }
    const base = start();
    const before = JSON.stringify(base);
    const replayed = applyNeutralFills(base, [...fills, fills[2]]);
    expect(replayed).toEqual(oneByOne);
    expect(JSON.stringify(base)).toBe(before);
    expect(applyNeutralFills(replayed, fills)).toBe(replayed);
  });
});
