/**
 * Follow with a fee taken in the coin (issue 29 finding 7), as a sequence property on the paper
 * exchange with Binance spot's rules (0.1 % buy fee taken in the base coin, LINKUSDT amount step
 * 0.01, minimum order value): a buy of 1 LINK leaves 0.999, the take-profit sells 0.99 and 0.009 is
 * left, which no sell can take. The cycle completes; follow must still re-anchor the ladder at the
 * market after every cycle (before the fix it re-anchored only at an exact zero, so never again).
 *
 * A small driver plays the runner's loop against the paper exchange: apply the exchange's fills to
 * the engine, let the price decide (decidePrice / reanchorBook), then reconcile the engine's orders
 * with the exchange's open orders.
 */
import fc from 'fast-check';
import { CsvReplayFeed, PaperExchangeProvider, PaperVenue } from '@gridrocket/exchanges';
import type { ExchangePort } from '@gridrocket/exchanges';
import { toEngineFill } from '../runner/bot-workflow';
import { floorToStep, roundTo } from './decimal';
import { initialState, processFill, reconcile } from './grid.engine';
import { activeOrders, decidePrice, dustOf, reanchorBook } from './risk';
import type { GridConfig, GridState, MarketRules } from './grid.types';

const T0 = 1_700_000_000_000;
const H = 3_600_000;
const SYMBOL = 'LINKUSDT';
const money = (x: number) => roundTo(x, 2);

/** The prices: a dip that fills the first buy, then per cycle a rise through the take-profit and one more dollar (the re-anchor). */
function pricePath(cycles: number): number[] {
  const path = [14.2, 13.9];
  let anchor = 14;
  for (let k = 0; k < cycles; k++) {
    const through = money(anchor + 0.3); // above the take-profit (+1 % on an average at or below the anchor, ≤ 21), under one interval
    const next = money(through + 1); // more than one interval (0.5) above the anchor: follow moves here
    path.push(through, next);
    anchor = next;
  }
  return path;
}

async function runBot(orderSize: number, cycles: number) {
  const path = pricePath(cycles);
  const csv = ['ms,exchange,symbol,price', ...path.map((p, i) => `${T0 + i * H},Binance,${SYMBOL},${p}`)].join('\n');
  const venue = new PaperVenue({ store: ':memory:', feed: new CsvReplayFeed(csv), startingUsdt: '100000' });
  try {
    venue.advanceTo(T0);
    const port: ExchangePort = await new PaperExchangeProvider(venue).for({ userId: 'dust', exchange: 'Binance', market: 'spot' });
    const r = await port.marketRules(SYMBOL);
    const rules: MarketRules = { priceStep: r.priceStep, amountStep: r.amountStep, minNotional: r.minNotional, minAmount: r.minAmount };
    const config: GridConfig = { botType: 'Spot', numOfOrders: 2, orderSize, interval: 0.5, entryPrice: 14, takeProfit: 1, leverage: 1, reanchor: 'follow' };
    const botId = 'follow-dust-bot';
    let state: GridState = initialState(config, rules, botId);
    const log = { reanchors: [] as { from: number; to: number }[], cycles: 0, dustAfterCycle: [] as number[] };

    const applyFills = async () => {
      for (const f of await port.recentFills(SYMBOL, T0)) {
        const step = processFill(state, toEngineFill(f, 'LINK'));
        state = step.state;
        for (const e of step.effects) if (e.type === 'CycleCompleted') {
          log.cycles++;
          log.dustAfterCycle.push(state.position.amount);
        }
      }
    };
    const converge = async (price: number) => {
      for (let i = 0; i < 10; i++) {
        await applyFills();
        const d = decidePrice(config, rules, state, price, null);
        if (d.type === 'reanchor') {
          state = reanchorBook(state, config, rules, d.to);
          log.reanchors.push({ from: d.from, to: d.to });
        }
        const plan = reconcile(activeOrders(config, rules, state), await port.openOrders(SYMBOL), { botId });
        if (plan.toCancel.length === 0 && plan.toPlace.length === 0) return;
        for (const o of plan.toCancel) await port.cancelOrder(SYMBOL, o.clientOrderId);
        await applyFills();
        for (const o of plan.toPlace) await port.createLimitOrder({ symbol: SYMBOL, side: o.side, price: o.price, amount: o.amount, clientOrderId: o.clientOrderId });
      }
    };

    for (let i = 0; i < path.length; i++) {
      venue.advanceTo(T0 + i * H);
      await converge(path[i]);
      // the bot holds what the account holds, all along (dust included)
      const held = (await port.balances()).find((b) => b.symbol === 'LINK')?.balance ?? 0;
      expect(Math.abs(state.position.amount - held)).toBeLessThan(1e-9);
    }
    const open = (await port.openOrders(SYMBOL)).map((o) => [o.side, o.price, o.amount]).sort();
    return { log, state, rules, open, path };
  } finally {
    venue.close();
  }
}

describe('follow with a buy fee taken in the coin (Binance spot, paper exchange)', () => {
  it('1 LINK: every cycle leaves dust, and follow re-anchors after each one', async () => {
    const { log, state, rules, open, path } = await runBot(1, 3);
    expect(log.cycles).toBe(3);
    expect(log.reanchors.map((r) => r.to)).toEqual([path[3], path[5], path[7]]);
    // 0.999 bought, 0.99 sold: 0.009 left; then 0.009 + 0.999 = 1.008, 1.00 sold: 0.008 left; …
    expect(log.dustAfterCycle.map((d) => roundTo(d, 6))).toEqual([0.009, 0.008, 0.007]);
    const last = path[path.length - 1];
    // the newest ladder: its first rung at the market filled at once (0.999 more), the take-profit sells
    // whole steps of it with the dust (1.00 of 1.006), the second rung waits one interval below
    expect(roundTo(state.position.amount, 6)).toBe(1.006);
    expect(dustOf(rules, state, last)).toBe(0);
    expect(open).toEqual([['buy', money(last - 0.5), 1], ['sell', expect.any(Number), 1]]);
  });

  it('any order size and number of cycles: follow re-anchors once per cycle, the dust stays below one amount step', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(0.5, 0.77, 1, 1.37, 2.03), fc.integer({ min: 2, max: 5 }), async (size, cycles) => {
        const { log, state, rules, path } = await runBot(size, cycles);
        expect(log.cycles).toBe(cycles);
        expect(log.reanchors).toHaveLength(cycles);
        for (const d of log.dustAfterCycle) {
          expect(d).toBeGreaterThan(0); // a fee in the coin always leaves some
          expect(floorToStep(d, rules.amountStep)).toBe(0);
        }
        expect(state.anchor).toBe(path[path.length - 1]);
      }),
      { numRuns: 8 },
    );
  });
});
