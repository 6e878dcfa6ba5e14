import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@gridrocket/event-store';
import { toNewEvents } from '@gridrocket/shared';
import { decideOnSignalLog } from './signal-log.repository';
import { SIGNAL_ID_MEMORY_MS } from './signal.rules';

const dir = mkdtempSync(join(tmpdir(), 'gr-signal-log-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const botId = '6f1b7c1e-3b0a-4c55-9a40-6f0d7f1f2a10';
const stream = `bot-${botId}`;
const NOW = Date.UTC(2026, 10, 28, 9, 0, 0);
const ctxAt = (ms: number) => ({ userId: 'u1', correlationId: 'c1', causationId: null, now: new Date(ms) });
const take = (signalId: string, at: number) => ({ type: 'TakeSignal' as const, botId, signalId, action: 'start' as const, auth: 'signature' as const, signedAt: at, at });

describe('the signal log, decided on the recent end of a long bot stream (issue 32)', () => {
  it('finds a replay among recent events behind hundreds of trading events, forgets ids older than the memory, and takes concurrent copies once', async () => {
    const store = new SqliteEventStore(join(dir, 'events.sqlite'));
    try {
      const old = NOW - 3_600_000;
      await store.append(stream, toNewEvents([{ type: 'BotCreated', data: { botId, userId: 'u1', botType: 'Spot', exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 5, orderSize: 0.01, interval: 100, entryPrice: 60000, takeProfit: 1, leverage: 1 } }], ctxAt(old)), 'no_stream');
      // an id taken an hour ago (older than the 10-minute memory)
      await decideOnSignalLog(store, botId, take('old-id', old), ctxAt(old), old);
      // 450 trading events since (more than two pages of 200 read backwards), the last ones recent
      for (let i = 0; i < 450; i++) {
        const at = old + i * 8_000; // 450 × 8 s = 3,600 s: the last ones within the memory
        await store.append(stream, toNewEvents([{ type: 'OrderCancelled', data: { botId, run: 1, clientOrderId: `c${i}`, filled: 0, at } }], ctxAt(at)), 'any');
      }
      await decideOnSignalLog(store, botId, take('recent-id', NOW - 1_000), ctxAt(NOW - 1_000), NOW - 1_000);
      for (let i = 0; i < 250; i++) await store.append(stream, toNewEvents([{ type: 'OrderCancelled', data: { botId, run: 1, clientOrderId: `d${i}`, filled: 0, at: NOW } }], ctxAt(NOW)), 'any');

      await expect(decideOnSignalLog(store, botId, take('recent-id', NOW), ctxAt(NOW), NOW)).rejects.toMatchObject({ reason: 'replay', status: 409 });
      expect(SIGNAL_ID_MEMORY_MS).toBe(600_000);
      expect((await decideOnSignalLog(store, botId, take('old-id', NOW), ctxAt(NOW), NOW)).events).toHaveLength(1);

      // two copies of one signal at once: one taken, the other a replay
      const results = await Promise.allSettled([0, 1].map(() => decideOnSignalLog(store, botId, take('twin', NOW), ctxAt(NOW), NOW)));
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      const taken = (await store.readStream(stream)).filter((e) => e.type === 'SignalReceived').map((e) => (e.data as { signalId: string }).signalId);
      expect(taken).toEqual(['old-id', 'recent-id', 'old-id', 'twin']);
    } finally {
      await store.close();
    }
  });

  it('a deleted bot takes no signal and records no refusal; a missing one is 404', async () => {
    const store = new SqliteEventStore(join(dir, 'deleted.sqlite'));
    try {
      await store.append(stream, toNewEvents([{ type: 'BotCreated', data: { botId, userId: 'u1', botType: 'Spot', exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 5, orderSize: 0.01, interval: 100, entryPrice: 60000, takeProfit: 1, leverage: 1 } }, { type: 'BotDeleted', data: { botId } }], ctxAt(NOW - 86_400_000)), 'no_stream');
      await expect(decideOnSignalLog(store, botId, take('a', NOW), ctxAt(NOW), NOW)).rejects.toMatchObject({ status: 404 });
      const refusal = { type: 'RecordSignalRefusal' as const, botId, reason: 'bad-signature' as const, status: 401, message: 'no', signalId: null, suppressed: 0, at: NOW };
      expect((await decideOnSignalLog(store, botId, refusal, ctxAt(NOW), NOW)).events).toEqual([]);
      await expect(decideOnSignalLog(store, '00000000-0000-4000-8000-000000000000', take('a', NOW), ctxAt(NOW), NOW)).rejects.toMatchObject({ status: 404 });
    } finally {
      await store.close();
    }
  });
});
