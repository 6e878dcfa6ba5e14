import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { EventStore, NewEvent, ReadStreamOptions, RecordedEvent, SqliteEventStore } from '@gridrocket/event-store';
import { botDecider } from '@gridrocket/bots';
import type { BotEvent } from '@gridrocket/bots';
import { readBotRun } from './bot-stream';

const meta = { userId: 'u', correlationId: 'c', causationId: null, occurredAt: new Date().toISOString(), schemaVersion: 1 };
const ev = (type: string, data: Record<string, unknown> = {}): NewEvent => ({ id: randomUUID(), type, data, metadata: meta });
const created = (botId: string) =>
  ev('BotCreated', { botId, userId: 'u', botType: 'Spot', exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 5, orderSize: 0.01, interval: 100, entryPrice: 60000, takeProfit: 1, leverage: 1 });
/** Events that change nothing the runner reads (a run's trading facts stand in for them here). */
const filler = (n: number) => Array.from({ length: n }, (_, i) => ev('Noted', { i }));

/** What the runner needs, found by folding the whole stream (the reference). */
function reference(events: RecordedEvent[]) {
  const state = events.reduce((s, e) => botDecider.evolve(s, { type: e.type, data: e.data } as BotEvent), botDecider.initialState);
  if (state.kind !== 'live' || state.run < 0 || state.status === 'stopped') return null;
  const runEvent = events.find((e) => Number(e.revision) === state.run)!;
  const stops = events.filter((e) => e.type === 'BotStopRequested' && Number(e.revision) > state.run);
  return { status: state.status, runEvent: runEvent.id, stopEvent: state.status === 'stopping' ? (stops[stops.length - 1]?.id ?? null) : null };
}

/** Counts the events each read returns. */
function counting(store: EventStore) {
  const counter = { read: 0 };
  const wrapped = Object.create(store) as EventStore;
  wrapped.readStream = async (streamId: string, options?: ReadStreamOptions) => {
    const events = await store.readStream(streamId, options);
    counter.read += events.length;
    return events;
  };
  return { wrapped, counter };
}

describe("the runner's view of a bot (readBotRun)", () => {
  const dir = mkdtempSync(join(tmpdir(), 'gr-bot-stream-'));
  const store = new SqliteEventStore(join(dir, 'e.sqlite'), 20);
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // issue 16: a bot that ran for weeks has tens of thousands of events in its current run
  // read at most: the run event, and pages of 32, 256, 2,048 events back from the newest
  it.each([
    ['a stop request among the latest events', 10, 1 + 32],
    ['a stop request further back than the first look', 300, 1 + 32 + 256 + 2048],
    ['a stop request followed by a second one', 5, 1 + 32],
  ])('finds the run and %s without reading the run', async (_what, after, most) => {
    const botId = randomUUID();
    const s = `bot-${botId}`;
    await store.append(s, [created(botId), ev('BotStartRequested', { botId }), ev('BotStarted', { botId, pid: 1 })], 'no_stream');
    for (let i = 0; i < 5; i++) await store.append(s, filler(2_000), 'any');
    await store.append(s, [ev('BotStopRequested', { botId, cancelAllOrders: true }), ...filler(after)], 'any');
    if (after === 5) await store.append(s, [ev('BotStopRequested', { botId, cancelAllOrders: false }), ...filler(3)], 'any');
    const { wrapped, counter } = counting(store);

    await readBotRun(wrapped, botId); // the first read folds the stream (it is then kept in memory)
    counter.read = 0;
    const run = await readBotRun(wrapped, botId);
    const expected = reference(await store.readStream(s));
    expect(run && { status: run.bot.status, runEvent: run.runEvent.id, stopEvent: run.stopEvent?.id ?? null }).toEqual(expected);
    expect(expected?.stopEvent).toBeTruthy();
    expect(counter.read).toBeLessThanOrEqual(most); // not the run's 10,000 events
  });

  it('a running bot: its run event, no stop request; a stopped bot: nothing', async () => {
    const botId = randomUUID();
    const s = `bot-${botId}`;
    await store.append(s, [created(botId), ev('BotStartRequested', { botId }), ev('BotStarted', { botId, pid: 1 }), ...filler(50)], 'no_stream');
    const run = await readBotRun(store, botId);
    expect(run && { status: run.bot.status, runEvent: run.runEvent.id, stopEvent: run.stopEvent }).toEqual(reference(await store.readStream(s)));
    await store.append(s, [ev('BotStopRequested', { botId, cancelAllOrders: true }), ev('BotStopped', { botId })], 'any');
    expect(await readBotRun(store, botId)).toBeNull();
    expect(await readBotRun(store, randomUUID())).toBeNull();
  });
});
