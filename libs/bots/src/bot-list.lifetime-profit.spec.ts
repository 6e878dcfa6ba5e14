/**
 * The bot list's read model, given the bot's events: the fields the spec's REST calls return, the
 * lifetime profit across runs (issue 10 finding 4), the live runner's pid, deletion.
 */
import type { RecordedEvent } from '@gridrocket/event-store';
import { BotDoc, botListProjection, publicBot } from './bot-list.projection';
import type { BotEvent } from './domain/bot.events';

let revision = 0n;
const at = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
function recorded(e: BotEvent): RecordedEvent {
  const r = revision++;
  return {
    id: `e${r}`, type: e.type, data: e.data, streamId: 'bot-b1', revision: r, position: r, created: at(Number(r)),
    metadata: { userId: 'u1', correlationId: 'c', causationId: null, occurredAt: at(Number(r)), schemaVersion: 1 },
  };
}
function project(...events: BotEvent[]): BotDoc | null {
  revision = 0n;
  let doc: BotDoc | null = null;
  for (const e of events) {
    const next = botListProjection.reduce(doc, recorded(e));
    if (next !== undefined) doc = next;
  }
  return doc;
}

const created: BotEvent = { type: 'BotCreated', data: { botId: 'b1', userId: 'u1', botType: 'Spot', exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 5, orderSize: 0.01, interval: 100, entryPrice: 60000, takeProfit: 1, leverage: 1 } };
const start: BotEvent = { type: 'BotStartRequested', data: { botId: 'b1' } };
const started = (pid: number): BotEvent => ({ type: 'BotStarted', data: { botId: 'b1', pid } });
const stop: BotEvent = { type: 'BotStopRequested', data: { botId: 'b1', cancelAllOrders: false } };
const stopped: BotEvent = { type: 'BotStopped', data: { botId: 'b1', pid: -1 } };
// As older runners wrote them: totalProfit is the run's own total.
const profit = (amount: number, totalProfit: number): BotEvent => ({ type: 'ProfitRealized', data: { botId: 'b1', amount, totalProfit, cycle: 1 } });

describe('bot list projection', () => {
  it('given a created bot, then the spec fields with lowercase names, stopped, pid -1, profit 0', () => {
    expect(publicBot(project(created)!)).toEqual({
      id: 'b1', bottype: 'Spot', userid: 'u1', exchange: 'Binance', symbol: 'BTCUSDT', numoforders: 5, ordersize: 0.01, interval: 100,
      entryprice: 60000, takeprofit: 1, botstatus: false, pid: -1, profit: 0, state: 'stopped', lasterror: null,
    });
  });

  it('given profits in two runs, then the profit shown is the bot\'s lifetime profit (4.50, not the last run\'s 1.81)', () => {
    const doc = project(created, start, started(7), profit(1.2, 1.2), profit(1.49, 2.69), stop, stopped, start, started(7), profit(1.81, 1.81));
    expect(publicBot(doc!).profit).toBe(4.5);
  });

  it('given a runner that took the bot over, then the pid is the live process\'s', () => {
    const doc = project(created, start, started(7), { type: 'BotResumed', data: { botId: 'b1', pid: 9 } });
    expect(publicBot(doc!)).toMatchObject({ pid: 9, botstatus: true, state: 'running' });
  });

  it('given a deleted bot, then no document', () => {
    expect(project(created, { type: 'BotDeleted', data: { botId: 'b1' } })).toBeNull();
  });

  it('given order history only, then the document does not change', () => {
    revision = 0n;
    const doc = botListProjection.reduce(null, recorded(created))!;
    const next = botListProjection.reduce(doc, recorded({ type: 'OrderCancelled', data: { botId: 'b1', run: 1, clientOrderId: 'x', filled: 0, at: 1 } }));
    expect(next).toBeUndefined();
  });
});
