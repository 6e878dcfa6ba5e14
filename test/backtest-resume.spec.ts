/**
 * Nothing acknowledged is lost, and nothing is re-run at boot (issue 28: re-running every unfinished
 * backtest at start-up held /api/health for 20 s): a backtest recorded as requested whose process
 * stopped before it finished (here: the event appended while the app is down, as after a kill -9
 * between the 202 and the result) is marked `interrupted` on the next start, in the background, with
 * its request kept; asked again, the same request gives the answer it would have.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@gridrocket/event-store';
import { loadConfig } from '@gridrocket/shared/runtime';
import { toNewEvents } from '@gridrocket/shared';
import { until } from '@gridrocket/shared/testing/until';
import type { BacktestEvent } from '@gridrocket/backtest';
import { startApp } from '../apps/api/src/bootstrap';
import { Client } from './support/http-client';

jest.setTimeout(120_000);

describe('a requested backtest across a restart', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gr-bt-resume-'));
  const config = () => loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', WEB_DIST: join(dataDir, 'no-web') });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('is marked interrupted (not run again at boot); the same request run again completes', async () => {
    let app = await startApp(config());
    const c = new Client(app.url);
    const { uid } = await c.signUp('resume@example.com');
    await app.close();

    const id = randomUUID();
    const to = Date.UTC(2026, 9, 1);
    const requested: BacktestEvent = {
      type: 'BacktestRequested',
      data: {
        backtestId: id, userId: uid, kind: 'single',
        request: { exchange: 'Binance', market: 'spot', symbol: 'SOLUSDT', timeframe: '1m', from: to - 86_400_000, to, source: 'paper',
          config: { botType: 'Spot', numOfOrders: 5, orderSize: 0.1, interval: 1, entryPrice: 140, takeProfit: 1, leverage: 1 } },
      },
    };
    const store = new SqliteEventStore(join(dataDir, 'events.sqlite'));
    await store.append(`backtest-${id}`, toNewEvents([requested], { userId: uid, correlationId: randomUUID() }), 'no_stream');
    await store.close();

    app = await startApp(config());
    try {
      const again = new Client(app.url);
      expect((await again.post('/api/auth/login', { email: 'resume@example.com', password: 'correct-horse-1' })).status).toBeLessThan(300);
      const doc = await until('interrupted', async () => {
        const r = await again.get(`/api/backtests/${id}`);
        return r.status === 200 && r.body.status !== 'running' && r.body;
      }, 60_000);
      expect(doc).toMatchObject({ status: 'interrupted', result: null, request: requested.data.request });
      const events = new SqliteEventStore(join(dataDir, 'events.sqlite'));
      try {
        expect((await events.readStream(`backtest-${id}`)).map((e) => e.type)).toEqual(['BacktestRequested', 'BacktestInterrupted']);
      } finally {
        await events.close();
      }
      // the kept request, asked again (a 1-day backtest of 5 orders), completes
      const rerun = await again.post('/api/backtests', { exchange: 'Binance', symbol: 'SOLUSDT', botType: 'Spot', numOfOrders: 5, orderSize: '0.1', interval: 1, entryPrice: 140, takeProfit: 1, days: 1 });
      expect(rerun.status).toBe(202);
      const done = await until('done', async () => {
        const r = await again.get(`/api/backtests/${rerun.body.id}`);
        return r.body.status === 'done' && r.body;
      }, 60_000);
      expect(done.candles).toBe(1440);
      expect(done.result.capital).toBe(69); // 0.1 × (140 + 139 + 138 + 137 + 136)
    } finally {
      await app.close();
    }
  });
});
