/**
 * An order cancelled outside GridRocket is replaced under a new client order id (issue 29,
 * docs/watchdog.md): rearmOrder, and its replay through the bot's history (replayBook's marks).
 */
import type { BotConfig, RunBook } from '@gridrocket/bots';
import { buyOrderId, parseClientOrderId, takeProfitOrderId } from './client-order-id';
import { applyFill, desiredOrders, initialState, MAX_REARMS, rearmOrder } from './grid.engine';
import { buyAt, fillOf, rules, spotConfig, takeProfitOf } from './grid.fixtures';
import type { GridState } from './grid.types';
import { replayBook } from '../runner/bot-workflow';

const BOT = 'bot-rearm-1';
const start = (): GridState => initialState(spotConfig, rules, BOT);
const ids = (s: GridState) => desiredOrders(spotConfig, rules, s).map((o) => o.clientOrderId);

describe('rearmOrder: a cancelled order is replaced under a new id', () => {
  it('given a buy cancelled outside, then the level gets the next r<k> id for what is left, and only that id', () => {
    const s0 = start();
    const b1 = buyAt(spotConfig, rules, s0, 1);
    expect(b1.clientOrderId).toBe(buyOrderId(BOT, 1, 1));
    const r = rearmOrder(s0, b1.clientOrderId)!;
    expect(r.replacement).toBe(`${buyOrderId(BOT, 1, 1)}r1`);
    expect(parseClientOrderId(r.replacement)).toMatchObject({ kind: 'buy', cycle: 1, level: 1, rearm: 1 });
    expect(ids(r.state)).toContain(r.replacement);
    expect(ids(r.state)).not.toContain(b1.clientOrderId);
    const again = buyAt(spotConfig, rules, r.state, 1);
    expect(again).toMatchObject({ price: b1.price, amount: b1.amount });
    // the old state is untouched (pure)
    expect(ids(s0)).toContain(b1.clientOrderId);
  });

  it('given a fill of the replacement, then it counts for the level as the first order would have', () => {
    const r = rearmOrder(start(), buyOrderId(BOT, 1, 0))!;
    const filled = applyFill(r.state, fillOf(buyAt(spotConfig, rules, r.state, 0)));
    expect(filled.levels[0].status).toBe('filled');
    expect(filled.position.amount).toBe(1);
    expect(filled.tp?.seq).toBe(1);
  });

  it('given a fill under a replacement id that was never made, then it is ignored', () => {
    const s0 = start();
    const fake = { clientOrderId: `${buyOrderId(BOT, 1, 0)}r2`, fillId: 'x1', price: 100, amount: 1, fee: 0.1 };
    expect(applyFill(s0, fake)).toBe(s0);
  });

  it('given the same order cancelled again and again, then after MAX_REARMS replacements there is none', () => {
    let s = start();
    let id = buyOrderId(BOT, 1, 2);
    for (let k = 1; k <= MAX_REARMS; k++) {
      const r = rearmOrder(s, id)!;
      expect(r.replacement).toBe(`${buyOrderId(BOT, 1, 2)}r${k}`);
      s = r.state;
      id = r.replacement;
    }
    expect(rearmOrder(s, id)).toBeNull();
  });

  it('given an id that is not the grid\'s current order, then nothing is replaced', () => {
    const s0 = start();
    const r = rearmOrder(s0, buyOrderId(BOT, 1, 0))!;
    expect(rearmOrder(r.state, buyOrderId(BOT, 1, 0))).toBeNull(); // already replaced
    expect(rearmOrder(s0, buyOrderId('another-bot', 1, 0))).toBeNull();
    expect(rearmOrder(s0, takeProfitOrderId(BOT, 1, 1))).toBeNull(); // flat: no take-profit
  });

  it('given a take-profit cancelled outside, then the next tp<n> is desired for the whole position', () => {
    const s1 = applyFill(start(), fillOf(buyAt(spotConfig, rules, start(), 0)));
    const tp = takeProfitOf(spotConfig, rules, s1);
    const r = rearmOrder(s1, tp.clientOrderId)!;
    expect(r.replacement).toBe(takeProfitOrderId(BOT, 1, 2));
    const next = takeProfitOf(spotConfig, rules, r.state);
    expect(next).toMatchObject({ clientOrderId: r.replacement, price: tp.price, amount: tp.amount });
  });

  it('given a level replaced in a cycle that completes, then the next cycle arms it afresh (no suffix)', () => {
    let s = start();
    s = rearmOrder(s, buyOrderId(BOT, 1, 0))!.state;
    s = applyFill(s, fillOf(buyAt(spotConfig, rules, s, 0)));
    s = applyFill(s, fillOf(takeProfitOf(spotConfig, rules, s)));
    expect(s.cycle).toBe(2);
    expect(buyAt(spotConfig, rules, s, 0).clientOrderId).toBe(buyOrderId(BOT, 2, 0));
  });
});

describe('replayBook: the replacement is replayed where it was recorded', () => {
  const config: BotConfig = { numOfOrders: 5, orderSize: 1, interval: 1, entryPrice: 100, takeProfit: 1, leverage: 1 } as BotConfig;
  it('given a history with a replaced buy and its fill, then the rebuilt grid equals the live one', () => {
    let live = start();
    const f0 = fillOf(buyAt(spotConfig, rules, live, 0), { fillId: 'r-f0' });
    live = applyFill(live, f0);
    const r = rearmOrder(live, buyOrderId(BOT, 1, 1))!;
    live = r.state;
    const f1 = fillOf(buyAt(spotConfig, rules, live, 1), { fillId: 'r-f1' });
    live = applyFill(live, f1);
    const book: RunBook = {
      run: 1, restart: true, dropPosition: false, config, botType: 'Spot',
      fills: [f0, f1].map((f) => ({ ...f, at: 1 })),
      marks: [{ type: 'rearm', afterFills: 1, clientOrderId: buyOrderId(BOT, 1, 1) }],
    };
    const replayed = replayBook([book], rules, BOT);
    expect(replayed.levels).toEqual(live.levels);
    expect(replayed.position).toEqual(live.position);
    expect(ids(replayed)).toEqual(ids(live));
    // without the mark the replacement's fill would be unknown: the mark is what makes the replay right
    const without = replayBook([{ ...book, marks: [] }], rules, BOT);
    expect(without.levels[1].status).toBe('open');
  });
});
