import { ConflictError, NotFoundError } from '@gridrocket/shared';
import { deciderSpec } from '@gridrocket/shared/testing/decider-spec';
import { BotCommand, botDecider } from './bot.decider';
import { BotConfig, BotEvent } from './bot.events';
import { TradingEvent } from './bot-trading';

const { given } = deciderSpec(botDecider);
const config: BotConfig = { exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 2, orderSize: 0.01, interval: 100, entryPrice: 60000, takeProfit: 1, leverage: 1 };
const created: BotEvent = { type: 'BotCreated', data: { botId: 'b1', userId: 'u1', botType: 'Spot', ...config } };
const startRequested: BotEvent = { type: 'BotStartRequested', data: { botId: 'b1' } }; // revision 1: run 1
const started: BotEvent = { type: 'BotStarted', data: { botId: 'b1', pid: 42 } };
const stopRequested: BotEvent = { type: 'BotStopRequested', data: { botId: 'b1', cancelAllOrders: false } };
const stopped: BotEvent = { type: 'BotStopped', data: { botId: 'b1', pid: -1 } };

const placed = (coid: string, run = 1): TradingEvent => ({
  type: 'OrderPlaced',
  data: { botId: 'b1', run, clientOrderId: coid, exchangeOrderId: 'x', side: 'buy', price: 60000, amount: 0.01, cycle: 1, reduceOnly: false, at: 10, role: 'buy', level: 0 },
});
const filled = (fillId: string, run = 1): TradingEvent => ({
  type: 'OrderFilled',
  data: { botId: 'b1', run, fillId, clientOrderId: 'c1', side: 'buy', price: 60000, amount: 0.01, fee: 0.6, cycle: 1, level: 0, late: false, at: 20 },
});
const tpFilled = (fillId: string): TradingEvent => ({
  type: 'TakeProfitFilled',
  data: { botId: 'b1', run: 1, fillId, clientOrderId: 'tp1', side: 'sell', price: 60600, amount: 0.01, fee: 0.6, cycle: 1, tpSeq: 1, profit: 4.8, at: 30 },
});
const profit = (fillId: string, amount: number, totalProfit = 0): TradingEvent => ({ type: 'ProfitRealized', data: { botId: 'b1', amount, totalProfit, cycle: 1, run: 1, fillId } });
const cancelled = (coid: string): TradingEvent => ({ type: 'OrderCancelled', data: { botId: 'b1', run: 1, clientOrderId: coid, filled: 0, at: 40 } });
const cycle: TradingEvent = { type: 'CycleCompleted', data: { botId: 'b1', run: 1, cycle: 1, profit: 4.8, nextCycle: 2 } };
const record = (run: number, ...facts: TradingEvent[]): BotCommand => ({ type: 'RecordTrading', botId: 'b1', run, facts });

const drift = (subject: string, at = 50): TradingEvent => ({
  type: 'BotDriftDetected',
  data: { botId: 'b1', run: 1, kind: 'order-missing', subject, expected: 'buy 0.01 at 60000', actual: 'cancelled on the exchange outside GridRocket', action: 'flagged', at },
});
const notTrading = (at = 50): TradingEvent => ({ type: 'BotNotTrading', data: { botId: 'b1', run: 1, reason: 'no-resting-order', detail: '2 orders should rest on the exchange, none does', at } });

describe('bot-trading decider', () => {
  it('given a running bot, when the watchdog reports a drift and that it is not trading, then they are the history once, however many checks see them (issue 29)', () => {
    given(created, startRequested, started).when(record(1, drift('c1'), notTrading())).then(drift('c1'), notTrading());
    given(created, startRequested, started, drift('c1'), notTrading()).when(record(1, drift('c1', 99), notTrading(99), drift('c2'))).then(drift('c2'));
  });

  it('given a running bot, when the runner records a placement, a fill, a take-profit, its profit and the cycle, then they are the history', () => {
    given(created, startRequested, started)
      .when(record(1, placed('c1'), filled('f1'), tpFilled('f2'), profit('f2', 4.8), cycle))
      .then(placed('c1'), filled('f1'), tpFilled('f2'), profit('f2', 4.8, 4.8), cycle);
  });

  it('given facts already recorded (a retry, a replay after a crash), when recorded again, then nothing is appended twice', () => {
    given(created, startRequested, started, placed('c1'), filled('f1'), tpFilled('f2'), profit('f2', 4.8, 4.8), cycle, cancelled('c2'))
      .when(record(1, placed('c1'), filled('f1'), tpFilled('f2'), profit('f2', 4.8), cycle, cancelled('c2'), filled('f3')))
      .then(filled('f3'));
  });

  it('given the same fill twice in one command, then it is recorded once', () => {
    given(created, startRequested, started).when(record(1, filled('f1'), filled('f1'))).then(filled('f1'));
  });

  it('given a profit earlier in the bot\'s life, when a profit is realised, then its total is the lifetime total', () => {
    const later = { type: 'BotStartRequested', data: { botId: 'b1' } } as BotEvent; // revision 7: run 7
    const history = [created, startRequested, started, tpFilled('f2'), profit('f2', 4.8, 4.8), stopRequested, stopped, later];
    given(...history).when(record(7, profit('f9', 1.5))).then({ type: 'ProfitRealized', data: { botId: 'b1', amount: 1.5, totalProfit: 6.3, cycle: 1, run: 1, fillId: 'f9' } });
    expect(given(...history).state).toMatchObject({ profit: 4.8, run: 7 });
  });

  it('given a stopping bot, when the stop records the fills it found, then they are recorded', () => {
    given(created, startRequested, started, stopRequested).when(record(1, filled('f1'))).then(filled('f1'));
  });

  it('given a stop that sells (issue 40), when its close\'s fill is recorded by one attempt and again by the next (a retry, a runner that took over), then it is the history once, its loss in the bot\'s profit once', () => {
    const closing: BotEvent = { type: 'BotStopRequested', data: { botId: 'b1', cancelAllOrders: true, closePosition: true } };
    const closed = (fillId: string): TradingEvent => ({
      type: 'PositionClosed',
      data: { botId: 'b1', run: 1, fillId, clientOrderId: 'gr-x-1-close', side: 'sell', price: 58500, amount: 0.01, fee: 0.585, cycle: 1, profit: -15.585, at: 40 },
    });
    given(created, startRequested, started, filled('f1'), closing).when(record(1, closed('f7'), profit('f7', -15.585))).then(closed('f7'), profit('f7', -15.585, -15.585));
    const once = given(created, startRequested, started, filled('f1'), closing, closed('f7'), profit('f7', -15.585, -15.585));
    once.when(record(1, closed('f7'), profit('f7', -15.585), closed('f7'))).then();
    // the sale is no longer held; a fill id of the close is a fill id like any other (a stream and a poll of it are one fill)
    expect(once.state).toMatchObject({ profit: -15.585, trading: { held: 0, heldCost: 0, lastFillAt: 40 } });
    given(created, startRequested, started, filled('f1'), closing, closed('f7')).when(record(1, filled('f7'))).then();
  });

  it('given a bot in another run, when a stale runner records, then conflict', () => {
    given(created, startRequested, started).when(record(0, filled('f1'))).thenThrows(ConflictError, /not the bot's current one/);
  });

  it('given a stopped bot, when the runner records, then conflict', () => {
    given(created, startRequested, started, stopRequested, stopped).when(record(1, filled('f1'))).thenThrows(ConflictError);
  });

  it('given no bot, when the runner records, then 404', () => {
    given().when(record(1, filled('f1'))).thenThrows(NotFoundError);
  });

  it('the fold keeps what the runner needs to resume: the run, its fills, the orders still open', () => {
    const { state } = given(created, startRequested, started, placed('c1'), placed('c2'), filled('f1'), cancelled('c2'));
    if (state.kind !== 'live') throw new Error('live');
    expect(state.run).toBe(1);
    expect(state.trading.runs.map((r) => [r.run, r.restart, r.fills.map((f) => f.fillId)])).toEqual([[1, true, ['f1']]]);
    expect([...state.trading.unclosed.keys()]).toEqual([]); // c1 fully filled, c2 cancelled
    expect(state.trading.lastFillAt).toBe(20);
  });

  it('given a running bot, when another runner process resumes it, then BotResumed with its pid (never for the same pid)', () => {
    given(created, startRequested, started).when({ type: 'MarkResumed', botId: 'b1', pid: 77 }).then({ type: 'BotResumed', data: { botId: 'b1', pid: 77 } });
    given(created, startRequested, started).when({ type: 'MarkResumed', botId: 'b1', pid: 42 }).then();
    expect(given(created, startRequested, started, { type: 'BotResumed', data: { botId: 'b1', pid: 77 } }).state).toMatchObject({ pid: 77 });
  });

  it('given a futures bot, when stopped with closePosition, then the stop request carries it (spot too since issue 29: a market sell of what it holds)', () => {
    const futures: BotEvent = { type: 'BotCreated', data: { botId: 'b1', userId: 'u1', botType: 'Futures', ...config, leverage: 5 } };
    given(futures, startRequested, started)
      .when({ type: 'StopBot', botId: 'b1', userId: 'u1', cancelAllOrders: true, closePosition: true })
      .then({ type: 'BotStopRequested', data: { botId: 'b1', cancelAllOrders: true, closePosition: true } });
    given(created, startRequested, started)
      .when({ type: 'StopBot', botId: 'b1', userId: 'u1', cancelAllOrders: true, closePosition: true })
      .then({ type: 'BotStopRequested', data: { botId: 'b1', cancelAllOrders: true, closePosition: true } });
  });
});
