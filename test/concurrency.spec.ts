import { join } from 'node:path';
import { SqliteEventStore } from '@gridrocket/event-store';
import { BotEvent, BOT_LIFECYCLE_EVENTS, allowedNext, evolveBot, initialBotState } from '@gridrocket/bots';
import { Client, spotBot } from './support/http-client';
import { useTestApp } from './support/trader-app';

describe('concurrency: 50 concurrent start / stop / edit / delete on one bot', () => {
  const t = useTestApp();

  it('leaves a stream that the decider accepts event by event', async () => {
    const c = new Client(t.app.url);
    await c.addKey((await c.signUp('race@example.com')).uid);
    const { body: bot } = await c.post('/api/bots', spotBot);
    const edit = { exchange: 'Binance', numOfOrders: 3, orderSize: 1, interval: 10, entryPrice: 100, takeProfit: 1 };
    // start, stop and edit interleaved; the last five are deletes, fired with the rest
    const calls = Array.from({ length: 50 }, (_, i) => {
      switch (i >= 45 ? 3 : i % 3) {
        case 0:
          return c.get(`/api/startBot?id=${bot.id}`);
        case 1:
          return c.get(`/api/stopBot?id=${bot.id}&cancelAllOrders=${i % 8 === 1}`);
        case 2:
          return c.put(`/api/bots/${bot.id}`, { ...edit, entryPrice: 100 + i });
        default:
          return c.delete(`/api/bots/${bot.id}`);
      }
    });
    const results = await Promise.all(calls);
    for (const r of results) expect([200, 202, 204, 404, 409]).toContain(r.status);
    expect(results.some((r) => r.status < 300)).toBe(true);

    await new Promise((r) => setTimeout(r, 300)); // let the runner answer the last request
    const store = new SqliteEventStore(join(t.app.dataDir, 'events.sqlite'));
    const events = await store.readStream(`bot-${bot.id}`);
    await store.close();
    let state = initialBotState;
    events.forEach((e, i) => {
      expect(e.revision).toBe(BigInt(i));
      if (BOT_LIFECYCLE_EVENTS.includes(e.type as BotEvent['type'])) expect(allowedNext(state)).toContain(e.type);
      state = evolveBot(state, { type: e.type, data: e.data } as BotEvent);
    });
    expect(events.length).toBeGreaterThan(2);
  });
});
