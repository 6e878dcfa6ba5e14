/**
 * The runner's decisions, given/when/then, without the app, an exchange or a store: given the bot's
 * state (recorded fills, what rests on the exchange), when a fact arrives from the exchange, then
 * these actions (place, cancel, record, report).
 */
import type { Fill as ExchangeFill } from '@gridrocket/exchanges';
import { applyFills, desiredOrders, initialState } from '../grid/grid.engine';
import type { DesiredOrder, ExchangeOrderRef, GridConfig, MarketRules } from '../grid/grid.types';
import { decide, toEngineFill, type ExchangeFact, type RunnerAction, type WorkflowState } from './bot-workflow';

const config: GridConfig = { botType: 'Spot', numOfOrders: 3, orderSize: 0.01, interval: 100, entryPrice: 60000, takeProfit: 1, leverage: 1 };
const rules: MarketRules = { priceStep: 0.01, amountStep: 0.00001, minNotional: 5 };
const engineId = 'b1/1';
const fresh = initialState(config, rules, engineId);
const [b0, b1, b2] = desiredOrders(config, rules, fresh);

let ts = 1_700_000_000_000;
const fillOf = (o: DesiredOrder, fillId: string, extra: Partial<ExchangeFill> = {}): ExchangeFill => {
  const fee = Math.round(o.price * o.amount * 0.001 * 1e8) / 1e8;
  return {
    fillId, clientOrderId: o.clientOrderId, exchangeOrderId: `x-${fillId}`, symbol: 'BTCUSDT', side: o.side,
    price: o.price, amount: o.amount, fee, feeAsset: 'USDT', feeCost: fee, timestamp: ++ts, ...extra,
  };
};

interface Given {
  recorded?: ExchangeFill[];
  /** What rests on the exchange: the desired orders of the recorded state unless given. */
  open?: ExchangeOrderRef[];
  closed?: ExchangeOrderRef[];
  started?: boolean;
  botType?: 'Spot' | 'Futures';
}

function given(g: Given = {}) {
  const cfg = g.botType === 'Futures' ? { ...config, botType: 'Futures' as const, leverage: 5 } : config;
  const engine = applyFills(initialState(cfg, rules, engineId), (g.recorded ?? []).map((f) => toEngineFill(f, 'BTC')));
  let state: WorkflowState = {
    botId: 'b1', run: 1, config: cfg, rules, engine,
    open: g.open ?? desiredOrders(cfg, rules, engine).map((d) => ({ clientOrderId: d.clientOrderId })),
    closed: new Map((g.closed ?? []).map((c) => [c.clientOrderId, c])), started: g.started ?? true, quote: 'USDT', base: 'BTC', venue: 'Binance spot', makerFee: 0.001,
  };
  const api = {
    get state() {
      return state;
    },
    when(fact: ExchangeFact) {
      const d = decide(state, fact);
      return {
        then(...expected: unknown[]) {
          expect(d.actions).toMatchObject(expected);
          expect(d.actions).toHaveLength(expected.length);
          state = d.state;
          return api;
        },
      };
    },
  };
  return api;
}

const place = (o: DesiredOrder) => ({ type: 'place', order: { clientOrderId: o.clientOrderId, side: o.side, price: o.price, amount: o.amount } });
const cancel = (o: { clientOrderId: string }) => ({ type: 'cancel', clientOrderId: o.clientOrderId });
const record = (...facts: Array<{ type: string; data?: object }>) => ({ type: 'record', facts });
const converge: ExchangeFact = { type: 'OrdersSeen' };

describe('the runner workflow', () => {
  describe('start', () => {
    it('given a fresh bot and enough balance, when the balance is seen, then the ladder is placed, highest buy first', () => {
      given({ open: [], started: false }).when({ type: 'BalanceSeen', available: 2000 }).then(place(b0), place(b1), place(b2));
    });
    it('given a fresh bot, when the balance covers the orders but not their fees, then the start fails with the reason and nothing is placed', () => {
      // 600 + 599 + 598 = 1797 USDT of orders, 1.797 of maker fees (0.1 %)
      given({ open: [], started: false })
        .when({ type: 'BalanceSeen', available: 1797 })
        .then({ type: 'report', report: { type: 'MarkStartFailed', reason: 'Insufficient balance: the grid needs 1798.797 USDT but only 1797 USDT is available on Binance spot (the orders 1797 USDT plus 1.797 USDT of fees)' } });
    });
  });

  describe('a fill', () => {
    it('given a running ladder, when the highest buy fills, then the fill is recorded first, then its take-profit is placed', () => {
      const f = fillOf(b0, 'f1');
      const g = given().when({ type: 'FillsSeen', fills: [f] }).then(
        record({ type: 'OrderFilled', data: { fillId: 'f1', clientOrderId: b0.clientOrderId, side: 'buy', amount: 0.01, level: 0, cycle: 1, run: 1 } }),
      );
      const tp = desiredOrders(config, rules, g.state.engine).find((d) => d.role === 'take-profit')!;
      expect(tp).toMatchObject({ price: 60600, amount: 0.01 });
      g.state.open = g.state.open.filter((o) => o.clientOrderId !== b0.clientOrderId);
      g.when(converge).then(place(tp));
    });

    it('given a fill already applied, when it is seen again, then nothing happens', () => {
      const f = fillOf(b0, 'f1');
      given({ recorded: [f] }).when({ type: 'FillsSeen', fills: [f] }).then();
    });

    it('given a Binance spot buy whose fee was taken in BTC, then the take-profit sells what the account holds', () => {
      const f = fillOf(b0, 'f1', { feeAsset: 'BTC', feeCost: 0.00001, fee: 0.6 });
      const g = given().when({ type: 'FillsSeen', fills: [f] }).then(record({ type: 'OrderFilled', data: { fillId: 'f1', amount: 0.01, netAmount: 0.00999, feeAsset: 'BTC' } }));
      expect(desiredOrders(config, rules, g.state.engine).find((d) => d.role === 'take-profit')).toMatchObject({ amount: 0.00999 });
    });
  });

  describe('a take-profit', () => {
    it('given a bought level and its take-profit, when the take-profit fills, then the sale, its profit and the cycle are recorded, then the level is re-armed', () => {
      const buy = fillOf(b0, 'f1');
      const engine = applyFills(fresh, [toEngineFill(buy)]);
      const tp = desiredOrders(config, rules, engine).find((d) => d.role === 'take-profit')!;
      const g = given({ recorded: [buy] })
        .when({ type: 'FillsSeen', fills: [fillOf(tp, 'f2')] })
        .then(
          record(
            { type: 'TakeProfitFilled', data: { fillId: 'f2', side: 'sell', price: 60600, amount: 0.01, tpSeq: 1, profit: 4.794 } },
            { type: 'ProfitRealized', data: { amount: 4.794, fillId: 'f2', cycle: 1 } },
            { type: 'CycleCompleted', data: { cycle: 1, profit: 4.794, nextCycle: 2 } },
          ),
        );
      g.state.open = [b1, b2];
      const rearmed = desiredOrders(config, rules, g.state.engine).find((d) => d.level === 0)!;
      expect(rearmed.clientOrderId).not.toBe(b0.clientOrderId); // a new id in cycle 2: never reused
      g.when(converge).then(place(rearmed));
    });
  });

  describe('resume after a crash', () => {
    it('given a recorded fill, a fill the crash kept from the history and a take-profit never placed, then record the missed fill, then replace the take-profit', () => {
      const f1 = fillOf(b0, 'f1');
      const f2 = fillOf(b1, 'f2');
      const tp1 = desiredOrders(config, rules, applyFills(fresh, [toEngineFill(f1)])).find((d) => d.role === 'take-profit')!;
      // on the exchange: b2 (open), the first take-profit (open); b1 filled while the runner was down
      const g = given({ recorded: [f1], open: [b2, tp1] })
        .when({ type: 'FillsSeen', fills: [f1, f2] })
        .then(record({ type: 'OrderFilled', data: { fillId: 'f2', level: 1 } }));
      const tp2 = desiredOrders(config, rules, g.state.engine).find((d) => d.role === 'take-profit')!;
      expect(tp2.tpSeq).toBe(2);
      g.when(converge).then(cancel(tp1), place(tp2)); // b2 is adopted, never placed twice
    });

    it('given a desired order the exchange reports closed, then its fills are fetched first; it is never placed again', () => {
      given({ open: [b1, b2], closed: [b0] }).when(converge).then({ type: 'await-fills', orders: [{ clientOrderId: b0.clientOrderId }] });
    });

    it('given everything in place, then nothing to do', () => {
      given().when(converge).then();
    });
  });

  describe('stop', () => {
    const open = [b0, b1, b2].map((o) => ({ clientOrderId: o.clientOrderId }));
    it('with cancel-all: every open order of the bot is cancelled, then the bot is stopped', () => {
      given().when({ type: 'StopRequested', cancelAllOrders: true, closePosition: false, ownOpen: open }).then(cancel(b0), cancel(b1), cancel(b2), { type: 'report', report: { type: 'MarkStopped' } });
    });
    it('without cancel-all: the orders stay, the bot is stopped', () => {
      given().when({ type: 'StopRequested', cancelAllOrders: false, closePosition: false, ownOpen: open }).then({ type: 'report', report: { type: 'MarkStopped' } });
    });
    it('a futures bot with closePosition: the position it holds is closed at market after the cancels', () => {
      const buy = fillOf(b0, 'f1');
      given({ botType: 'Futures', recorded: [buy] })
        .when({ type: 'StopRequested', cancelAllOrders: true, closePosition: true, ownOpen: [b1] })
        .then(cancel(b1), { type: 'close-position', amount: 0.01 }, { type: 'report', report: { type: 'MarkStopped' } });
    });
  });

  describe('an exchange error', () => {
    it('retryable (rate limit, outage): try again later', () => {
      given().when({ type: 'ExchangeFailed', message: 'Rate limited', retryable: true }).then({ type: 'retry', reason: 'Rate limited' });
    });
    it('unrecoverable while running: the bot cancels its orders (no orphans) and fails with the reason', () => {
      given()
        .when({ type: 'ExchangeFailed', message: 'Invalid API key', retryable: false })
        .then(cancel(b0), cancel(b1), cancel(b2), { type: 'report', report: { type: 'MarkFailed', reason: 'Invalid API key' } });
    });
    it('unrecoverable during the start: the start fails with the reason', () => {
      given({ open: [], started: false })
        .when({ type: 'ExchangeFailed', message: 'Invalid API key', retryable: false })
        .then({ type: 'report', report: { type: 'MarkStartFailed', reason: 'Invalid API key' } });
    });
  });
});

// Keeps the action type in use for readers of this spec.
export type { RunnerAction };
