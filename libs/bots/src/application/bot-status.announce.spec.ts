import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@gridrocket/event-store';
import { systemContext } from '@gridrocket/shared';
import type { PushPort } from '@gridrocket/shared/http';
import { BotCommandRunner } from './bot-command.runner';
import type { BotConfig } from '../domain/bot.events';

const config: BotConfig = { exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 5, orderSize: 0.01, interval: 100, entryPrice: 60000, takeProfit: 1, leverage: 1 };

describe('a bot status change is announced as soon as its append resolves (no projector involved)', () => {
  let dir: string;
  let store: SqliteEventStore;
  let pushed: Array<[string, string, unknown]>;
  let bots: BotCommandRunner;
  const ctx = systemContext('tester');

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gr-announce-'));
    store = new SqliteEventStore(join(dir, 'events.sqlite'));
    pushed = [];
    const push: PushPort = { toUser: (uid, event, payload) => pushed.push([uid, event, payload]) };
    bots = new BotCommandRunner(store, push);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('tells the owner running on BotStarted and stopped on BotStopped, and nothing for the requests', async () => {
    await bots.run({ type: 'CreateBot', botId: 'b1', userId: 'u1', botType: 'Spot', config }, ctx);
    await bots.run({ type: 'StartBot', botId: 'b1', userId: 'u1' }, ctx);
    expect(pushed).toEqual([]);
    await bots.run({ type: 'MarkStarted', botId: 'b1', pid: 42 }, ctx);
    expect(pushed).toEqual([['u1', 'bot:status', { id: 'b1', botstatus: true, pid: 42 }]]);
    await bots.run({ type: 'StopBot', botId: 'b1', userId: 'u1', cancelAllOrders: true }, ctx);
    expect(pushed).toHaveLength(1);
    await bots.run({ type: 'MarkStopped', botId: 'b1' }, ctx);
    expect(pushed[1]).toEqual(['u1', 'bot:status', { id: 'b1', botstatus: false, pid: -1 }]);
  });

  it('tells the owner when the status change comes in the same append as trading facts (a start\'s placements, a stop\'s cancels)', async () => {
    await bots.run({ type: 'CreateBot', botId: 'b3', userId: 'u3', botType: 'Spot', config }, ctx);
    const { revision } = await bots.run({ type: 'StartBot', botId: 'b3', userId: 'u3' }, ctx);
    const run = Number(revision);
    const placed = {
      type: 'OrderPlaced' as const,
      data: { botId: 'b3', run, clientOrderId: 'c0', exchangeOrderId: 'x0', side: 'buy' as const, price: 60000, amount: 0.01, cycle: 1, reduceOnly: false, at: 10, role: 'buy' as const, level: 0 },
    };
    await bots.run({ type: 'RecordTrading', botId: 'b3', run, facts: [placed], report: { type: 'MarkStarted', botId: 'b3', pid: 7 } }, ctx);
    expect(pushed).toEqual([['u3', 'bot:status', { id: 'b3', botstatus: true, pid: 7 }]]);
    await bots.run({ type: 'StopBot', botId: 'b3', userId: 'u3', cancelAllOrders: true }, ctx);
    const cancelled = { type: 'OrderCancelled' as const, data: { botId: 'b3', run, clientOrderId: 'c0', filled: 0, at: 20 } };
    await bots.run({ type: 'RecordTrading', botId: 'b3', run, facts: [cancelled], report: { type: 'MarkStopped', botId: 'b3' } }, ctx);
    expect(pushed[1]).toEqual(['u3', 'bot:status', { id: 'b3', botstatus: false, pid: -1 }]);
    // facts alone change no status: nothing more is pushed
    expect(pushed).toHaveLength(2);
  });

  it('tells the owner of a start that failed, with the bot not running', async () => {
    await bots.run({ type: 'CreateBot', botId: 'b2', userId: 'u2', botType: 'Spot', config }, ctx);
    await bots.run({ type: 'StartBot', botId: 'b2', userId: 'u2' }, ctx);
    await bots.run({ type: 'MarkStartFailed', botId: 'b2', reason: 'Insufficient balance' }, ctx);
    expect(pushed).toEqual([['u2', 'bot:status', { id: 'b2', botstatus: false, pid: -1 }]]);
  });
});
