import { ConflictError, NotFoundError } from '@gridrocket/shared';
import { deciderSpec } from '@gridrocket/shared/testing/decider-spec';
import { BotCommand, allowedNext, botDecider, initialBotState } from './bot.decider';
import { BotConfig, BotEvent } from './bot.events';
import { STALE_RUN, TradingEvent } from './bot-trading';

const config: BotConfig = { exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 5, orderSize: 0.01, interval: 100, entryPrice: 60000, takeProfit: 1, leverage: 1 };
const created: BotEvent = { type: 'BotCreated', data: { botId: 'b1', userId: 'u1', botType: 'Spot', ...config } };
const startRequested: BotEvent = { type: 'BotStartRequested', data: { botId: 'b1' } };
const started: BotEvent = { type: 'BotStarted', data: { botId: 'b1', pid: 42 } };
const stopRequested: BotEvent = { type: 'BotStopRequested', data: { botId: 'b1', cancelAllOrders: true } };
const stopped: BotEvent = { type: 'BotStopped', data: { botId: 'b1', pid: -1 } };
const deleted: BotEvent = { type: 'BotDeleted', data: { botId: 'b1' } };

const { given } = deciderSpec(botDecider);

const start: BotCommand = { type: 'StartBot', botId: 'b1', userId: 'u1' };
const stop: BotCommand = { type: 'StopBot', botId: 'b1', userId: 'u1', cancelAllOrders: true };
const { symbol: _symbol, ...editable } = config;
const edit: BotCommand = { type: 'EditBot', botId: 'b1', userId: 'u1', config: { ...editable, entryPrice: 59000 } };
const del: BotCommand = { type: 'DeleteBot', botId: 'b1', userId: 'u1' };

describe('bot decider', () => {
  describe('check now (issue 29)', () => {
    const check = (at: number, userId = 'u1'): BotCommand => ({ type: 'CheckBot', botId: 'b1', userId, at });
    const requested = (at: number): BotEvent => ({ type: 'BotCheckRequested', data: { botId: 'b1', at } });
    it('given a running bot, when its owner asks for a check, then BotCheckRequested', () => {
      given(created, startRequested, started).when(check(1000)).then(requested(1000));
    });
    it.each([
      ['stopped', [created]],
      ['starting', [created, startRequested]],
      ['stopping', [created, startRequested, started, stopRequested]],
    ])('given a %s bot, when a check is asked for, then conflict', (_s, events) => {
      given(...(events as BotEvent[])).when(check(1000)).thenThrows(ConflictError, /not running/);
    });
    it("given another user's bot, when they ask for a check, then not found", () => {
      given(created, startRequested, started).when(check(1000, 'u2')).thenThrows(NotFoundError);
    });
    it('given a check requested 29 s ago, when another is asked for, then nothing (one at a time); 30 s later, a new one', () => {
      given(created, startRequested, started, requested(1000)).when(check(30_999)).then();
      given(created, startRequested, started, requested(1000)).when(check(31_000)).then(requested(31_000));
    });
    it('given a check requested, when the runner reports it ran, then BotChecked once; a report of another request, nothing', () => {
      const done: BotCommand = { type: 'MarkChecked', botId: 'b1', requestedAt: 1000, found: 2, at: 1500 };
      const checked: BotEvent = { type: 'BotChecked', data: { botId: 'b1', requestedAt: 1000, found: 2, at: 1500 } };
      given(created, startRequested, started, requested(1000)).when(done).then(checked);
      given(created, startRequested, started, requested(1000), checked).when(done).then();
      given(created, startRequested, started, requested(1000)).when({ ...done, requestedAt: 999 } as BotCommand).then();
    });
  });

  describe('create', () => {
    it('given no bot, when created, then BotCreated; the new bot is stopped with pid -1', () => {
      given().when({ type: 'CreateBot', botId: 'b1', userId: 'u1', botType: 'Spot', config }).then(created);
      const state = botDecider.evolve(initialBotState, created);
      expect(state).toMatchObject({ kind: 'live', status: 'stopped', pid: -1, profit: 0, userId: 'u1' });
    });
    it('given an existing bot, when created again, then conflict', () => {
      given(created).when({ type: 'CreateBot', botId: 'b1', userId: 'u1', botType: 'Spot', config }).thenThrows(ConflictError);
    });
  });

  describe('edit', () => {
    it('given a stopped bot, when edited, then BotEdited', () => {
      given(created).when(edit).then({ type: 'BotEdited', data: { botId: 'b1', ...editable, entryPrice: 59000 } });
    });
    it.each([
      ['starting', [created, startRequested]],
      ['running', [created, startRequested, started]],
      ['stopping', [created, startRequested, started, stopRequested]],
    ] as const)('given a %s bot, when edited, then 409 with a clear message', (_name, history) => {
      given(...history).when(edit).thenThrows(ConflictError, /stop it before editing/);
    });
  });

  describe('start', () => {
    it('given a stopped bot, when started, then BotStartRequested', () => {
      given(created).when(start).then(startRequested);
    });
    it('given a starting or running bot, when started, then nothing is appended', () => {
      given(created, startRequested).when(start).then();
      given(created, startRequested, started).when(start).then();
    });
    it('given a stopping bot, when started, then 409', () => {
      given(created, startRequested, started, stopRequested).when(start).thenThrows(ConflictError);
    });
    it('given the runner started it, then it runs with the runner pid', () => {
      given(created, startRequested).when({ type: 'MarkStarted', botId: 'b1', pid: 42 }).then(started);
      const s = [created, startRequested, started].reduce(botDecider.evolve, initialBotState);
      expect(s).toMatchObject({ status: 'running', pid: 42 });
    });
    it('given a start that failed, then the bot is stopped with the reason', () => {
      given(created, startRequested)
        .when({ type: 'MarkStartFailed', botId: 'b1', reason: 'Insufficient balance' })
        .then({ type: 'BotStartFailed', data: { botId: 'b1', reason: 'Insufficient balance' } });
      const s = [created, startRequested, { type: 'BotStartFailed', data: { botId: 'b1', reason: 'x' } } as BotEvent].reduce(botDecider.evolve, initialBotState);
      expect(s).toMatchObject({ status: 'stopped', pid: -1, lastError: 'x' });
    });
  });

  describe('stop', () => {
    it('given a running bot, when stopped, then BotStopRequested carrying cancelAllOrders', () => {
      given(created, startRequested, started).when(stop).then(stopRequested);
    });
    it('given a stopping or stopped bot, when stopped, then nothing is appended', () => {
      given(created).when(stop).then();
      given(created, startRequested, started, stopRequested).when(stop).then();
    });
    it('given the runner stopped it, then BotStopped with pid -1', () => {
      given(created, startRequested, started, stopRequested).when({ type: 'MarkStopped', botId: 'b1' }).then(stopped);
      const s = [created, startRequested, started, stopRequested, stopped].reduce(botDecider.evolve, initialBotState);
      expect(s).toMatchObject({ status: 'stopped', pid: -1 });
    });
    it('given a bot that is not stopping, when the runner marks it stopped, then nothing', () => {
      given(created, startRequested, started).when({ type: 'MarkStopped', botId: 'b1' }).then();
    });
  });

  describe('trading facts and the lifecycle report they end with, in one decision (one append)', () => {
    // startRequested is revision 1: the run is 1
    const placed = (coid: string, level: number): TradingEvent => ({
      type: 'OrderPlaced',
      data: { botId: 'b1', run: 1, clientOrderId: coid, exchangeOrderId: `x-${coid}`, side: 'buy', price: 60000 - level * 100, amount: 0.01, cycle: 1, reduceOnly: false, at: 10, role: 'buy', level },
    });
    const cancelled = (coid: string): TradingEvent => ({ type: 'OrderCancelled', data: { botId: 'b1', run: 1, clientOrderId: coid, filled: 0, at: 40 } });
    const markStarted: Extract<BotCommand, { type: 'MarkStarted' }> = { type: 'MarkStarted', botId: 'b1', pid: 42 };
    const record = (facts: TradingEvent[], report?: Extract<BotCommand, { type: 'MarkStarted' | 'MarkStopped' }>): BotCommand => ({
      type: 'RecordTrading', botId: 'b1', run: 1, facts, ...(report ? { report } : {}),
    });

    it('given a starting bot, when its placements come with MarkStarted, then the placements and BotStarted', () => {
      given(created, startRequested).when(record([placed('c0', 0), placed('c1', 1)], markStarted)).then(placed('c0', 0), placed('c1', 1), started);
    });
    it('given a starting bot whose orders were all recorded (adopted), when the start reports with them, then BotStarted alone', () => {
      given(created, startRequested, placed('c0', 0)).when(record([placed('c0', 0)], markStarted)).then(started);
    });
    it('given a bot stopped while it was starting, when the placements come with MarkStarted, then the placements only', () => {
      given(created, startRequested, stopRequested).when(record([placed('c0', 0)], markStarted)).then(placed('c0', 0));
    });
    it('given a stopping bot, when its cancels come with MarkStopped, then the cancels and BotStopped', () => {
      given(created, startRequested, started, placed('c0', 0), placed('c1', 1), stopRequested)
        .when(record([cancelled('c0'), cancelled('c1')], { type: 'MarkStopped', botId: 'b1' }))
        .then(cancelled('c0'), cancelled('c1'), stopped);
    });
    it('given a bot in another run, when facts of the old run come with a report, then conflict and no report', () => {
      const again: BotEvent = { type: 'BotStartRequested', data: { botId: 'b1' } }; // revision 5: run 5
      given(created, startRequested, started, stopRequested, stopped, again).when(record([placed('c0', 0)], markStarted)).thenThrows(ConflictError, STALE_RUN);
    });
    it('a report of another bot is refused', () => {
      given(created, startRequested).when(record([placed('c0', 0)], { ...markStarted, botId: 'b2' })).thenThrows(ConflictError);
    });
    it('deciding leaves the given state as it was (the fold held in memory): the facts are not in its ledger', () => {
      const spec = given(created, startRequested);
      const before = { version: (spec.state as { version: number }).version, seen: [...(spec.state as { trading: { seen: Set<string> } }).trading.seen] };
      spec.when(record([placed('c0', 0)], markStarted)).then(placed('c0', 0), started);
      expect((spec.state as { version: number }).version).toBe(before.version);
      expect([...(spec.state as { trading: { seen: Set<string> } }).trading.seen]).toEqual(before.seen);
      // and deciding it again gives the same answer
      spec.when(record([placed('c0', 0)], markStarted)).then(placed('c0', 0), started);
    });
    it('the combined events are each allowed after the ones before them', () => {
      let state = [created, startRequested].reduce(botDecider.evolve, initialBotState);
      for (const e of botDecider.decide(record([placed('c0', 0)], markStarted), state)) {
        expect([...allowedNext(state), 'OrderPlaced']).toContain(e.type);
        state = botDecider.evolve(state, e);
      }
      expect(state).toMatchObject({ status: 'running', pid: 42 });
    });
  });

  describe('delete', () => {
    it('given a stopped bot, when deleted, then BotDeleted', () => {
      given(created).when(del).then(deleted);
    });
    it('given a running bot, when deleted, then 409', () => {
      given(created, startRequested, started).when(del).thenThrows(ConflictError, /stop it before deleting/);
    });
    it.each([start, stop, edit, del])('given a deleted bot, when $type, then 404', (command) => {
      given(created, deleted).when(command).thenThrows(NotFoundError);
    });
  });

  describe('ownership', () => {
    it.each([start, stop, edit, del])('given another user\'s bot, when $type, then 404', (command) => {
      given(created).when({ ...command, userId: 'intruder' } as BotCommand).thenThrows(NotFoundError);
    });
    it('given no bot, when started, then 404', () => {
      given().when(start).thenThrows(NotFoundError);
    });
  });

  describe('allowed transitions', () => {
    it('every event a command produces is allowed from the state before it', () => {
      const commands: BotCommand[] = [start, { type: 'MarkStarted', botId: 'b1', pid: 1 }, stop, { type: 'MarkStopped', botId: 'b1' }, edit, del];
      let state = botDecider.evolve(initialBotState, created);
      for (const c of commands) {
        for (const e of botDecider.decide(c, state)) {
          expect(allowedNext(state)).toContain(e.type);
          state = botDecider.evolve(state, e);
        }
      }
      expect(state.kind).toBe('deleted');
    });
  });
});
