/**
 * Issue 29 (Found 6): a bot stopped without cancel-all (or failed) says how many of its orders are still
 * open on the exchange, no longer managed; the next start clears it.
 */
import { deciderSpec } from '@gridrocket/shared/testing/decider-spec';
import { LiveBot, botDecider } from './bot.decider';
import { BotConfig, BotEvent } from './bot.events';
import { toBotView } from './bot.view';

const config: BotConfig = { exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 5, orderSize: 0.01, interval: 100, entryPrice: 60000, takeProfit: 1, leverage: 1 };
const created: BotEvent = { type: 'BotCreated', data: { botId: 'b1', userId: 'u1', botType: 'Spot', ...config } };
const startRequested: BotEvent = { type: 'BotStartRequested', data: { botId: 'b1' } };
const started: BotEvent = { type: 'BotStarted', data: { botId: 'b1', pid: 42 } };
const placed = (i: number): BotEvent => ({
  type: 'OrderPlaced',
  data: { botId: 'b1', run: 1, clientOrderId: `c${i}`, exchangeOrderId: `x${i}`, side: 'buy', price: 60000 - 100 * i, amount: 0.01, cycle: 1, at: 1, role: 'buy', level: i },
} as unknown as BotEvent);
const cancelled = (i: number): BotEvent => ({ type: 'OrderCancelled', data: { botId: 'b1', run: 1, clientOrderId: `c${i}`, filled: 0, at: 2 } } as unknown as BotEvent);
const filled = (i: number): BotEvent => ({
  type: 'OrderFilled',
  data: { botId: 'b1', run: 1, fillId: `f${i}`, clientOrderId: `c${i}`, side: 'buy', price: 60000 - 100 * i, amount: 0.01, fee: 0, cycle: 1, at: 3, level: i, late: false },
} as unknown as BotEvent);
const stopRequested = (cancelAllOrders: boolean): BotEvent => ({ type: 'BotStopRequested', data: { botId: 'b1', cancelAllOrders } });
const running = [created, startRequested, started, placed(0), placed(1), placed(2), placed(3), placed(4), filled(0)];
const fold = (...events: BotEvent[]) => events.reduce(botDecider.evolve, botDecider.initialState) as LiveBot;

const { given } = deciderSpec(botDecider);

describe('orders left open by a stop (issue 29)', () => {
  it('given 4 resting buys, when the runner reports the stop without cancel-all, then BotStopped says 4 orders are left open', () => {
    given(...running, stopRequested(false)).when({ type: 'MarkStopped', botId: 'b1' }).then({ type: 'BotStopped', data: { botId: 'b1', pid: -1, ordersLeftOpen: 4 } });
  });
  it('given a cancel-all stop whose cancels come in the same report, then none is left open', () => {
    const facts = [0, 1, 2, 3, 4].slice(1).map((i) => cancelled(i)) as never[];
    given(...running, stopRequested(true))
      .when({ type: 'RecordTrading', botId: 'b1', run: 1, facts, report: { type: 'MarkStopped', botId: 'b1' } })
      .then(...(facts as unknown as BotEvent[]), { type: 'BotStopped', data: { botId: 'b1', pid: -1 } });
  });
  it('given a stop whose report cancels 1 of the 4, then 3 are left open', () => {
    const facts = [cancelled(4)] as never[];
    given(...running, stopRequested(false))
      .when({ type: 'RecordTrading', botId: 'b1', run: 1, facts, report: { type: 'MarkStopped', botId: 'b1' } })
      .then(cancelled(4), { type: 'BotStopped', data: { botId: 'b1', pid: -1, ordersLeftOpen: 3 } });
  });
  it('given a failure, then BotFailed says how many are left open', () => {
    given(...running).when({ type: 'MarkFailed', botId: 'b1', reason: 'venue down' }).then({ type: 'BotFailed', data: { botId: 'b1', reason: 'venue down', ordersLeftOpen: 4 } });
  });
  it('the bot view says so while stopped; the next start clears it', () => {
    const stopped = fold(...running, stopRequested(false), { type: 'BotStopped', data: { botId: 'b1', pid: -1, ordersLeftOpen: 4 } });
    expect(toBotView(stopped).ordersleftopen).toBe(4);
    expect(toBotView(fold(...running, stopRequested(false), { type: 'BotStopped', data: { botId: 'b1', pid: -1, ordersLeftOpen: 4 } }, startRequested)).ordersleftopen).toBeUndefined();
  });
});
