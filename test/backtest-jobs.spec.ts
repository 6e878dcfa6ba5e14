/**
 * Issue 28, "no user can stall the server or another user": backtests and sweeps run in the job pool's
 * worker threads, never on the request thread (/api/health keeps answering while four users' year-long
 * backtests run), and their owner can cancel them (DELETE /api/backtests/{id}: the worker is terminated,
 * the backtest is `cancelled`, pushed as such; 404 for another user's, 409 once finished; CSRF and the
 * auditors' read-only rule apply as on every DELETE).
 */
import { until } from '@gridrocket/shared/testing/until';
import { BacktestService } from '@gridrocket/backtest/nest';
import { Client } from './support/http-client';
import { backtestOnce, signedUpClient } from './support/backtests';
import { useTestApp } from './support/trader-app';

jest.setTimeout(180_000);

const BOT = { exchange: 'Binance', symbol: 'SOLUSDT', botType: 'Spot', numOfOrders: 10, orderSize: '0.1', interval: 1, entryPrice: 140, takeProfit: 1 };
// 1,000 combinations over 200 days of 1-minute candles (288 M candle-runs): far longer than the tests wait
const LONG_SWEEP = { ...BOT, days: 200, ranges: { interval: { from: 0.5, to: 5, step: 0.5 }, numOfOrders: { from: 1, to: 10, step: 1 }, takeProfit: { from: 0.5, to: 5, step: 0.5 } } };

/** Asks /api/health every 25 ms until `done` says stop; the slowest answer, ms. */
async function slowestHealth(url: string, done: () => Promise<boolean>): Promise<{ max: number; asked: number }> {
  let max = 0;
  let asked = 0;
  for (;;) {
    const t0 = performance.now();
    const res = await fetch(`${url}/api/health`);
    await res.text();
    max = Math.max(max, performance.now() - t0);
    asked++;
    if (await done()) return { max, asked };
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('backtests run in worker threads and can be cancelled', () => {
  const t = useTestApp({ AUDITOR_EMAILS: 'bt-auditor@example.com' });

  it('/api/health answers at once while four users run year-long backtests', async () => {
    const users = await Promise.all([1, 2, 3, 4].map(async (k) => {
      const c = new Client(t.app.url);
      await c.signUp(`bt-load-${k}@example.com`);
      return c;
    }));
    const ids: Array<[Client, string]> = [];
    let requested = false;
    // asked from before the first request until all four are done
    const health = slowestHealth(t.app.url, async () => {
      if (!requested) return false;
      for (const [c, id] of ids) if ((await c.get(`/api/backtests/${id}`)).body.status === 'running') return false;
      return true;
    });
    const answers = await Promise.all(users.map((c) => c.post('/api/backtests', { ...BOT, days: 365 })));
    for (const [k, res] of answers.entries()) {
      expect(res.status).toBe(202);
      ids.push([users[k], res.body.id]);
    }
    requested = true;
    const { max, asked } = await health;
    for (const [c, id] of ids) expect((await c.get(`/api/backtests/${id}`)).body).toMatchObject({ status: 'done', candles: 525_600 });
    console.log(`/api/health while 4 × 365-day backtests ran: slowest of ${asked} answers ${max.toFixed(0)} ms`);
    expect(max).toBeLessThan(1000);
  });

  it('DELETE /api/backtests/{id}: the owner cancels a running sweep at once; others get 404; a finished one 409', async () => {
    const c = await signedUpClient(t.app.url, 'bt-cancel@example.com');
    const other = await signedUpClient(t.app.url, 'bt-cancel-other@example.com');
    const socket = await c.socket();
    const pushed: Array<[string, any]> = [];
    socket.onAny((event, payload) => pushed.push([event, payload]));
    const service = t.app.app.get(BacktestService);

    const res = await c.post('/api/backtests/sweep', LONG_SWEEP);
    expect(res.body).toMatchObject({ status: 'running' });
    const id = res.body.id as string;
    await until('the sweep runs in a worker', () => service.pool.stats().running === 1, 30_000);

    expect((await other.delete(`/api/backtests/${id}`)).status).toBe(404);
    expect((await other.delete('/api/backtests/not-an-id')).status).toBe(404);
    expect((await c.raw('DELETE', `/api/backtests/${id}`, { csrf: false })).status).toBe(403);
    const t0 = Date.now();
    const cancelled = await c.delete(`/api/backtests/${id}`);
    expect(cancelled.status).toBe(204);
    await until('worker stopped', () => service.pool.stats().running === 0, 1000);
    expect(Date.now() - t0).toBeLessThan(1000);
    await until('cancel pushed', () => pushed.some(([e, p]) => e === 'backtest:done' && p.id === id && p.status === 'cancelled'), 5000);
    const doc = await backtestOnce(c, id, 'projected', (d) => d.status === 'cancelled');
    expect(doc).toMatchObject({ status: 'cancelled', finishedat: expect.any(String), sweep: null });
    expect((await c.get('/api/backtests')).body.find((d: { id: string }) => d.id === id).status).toBe('cancelled');
    expect((await c.delete(`/api/backtests/${id}`)).status).toBe(409);

    // a finished one: 409, and it stays done
    const quick = await c.post('/api/backtests', { ...BOT, days: 1 });
    await until('done', async () => (await c.get(`/api/backtests/${quick.body.id}`)).body.status === 'done', 30_000);
    const late = await c.delete(`/api/backtests/${quick.body.id}`);
    expect(late.status).toBe(409);
    expect(late.body.message).toBe('The backtest has already finished');
    expect((await c.get(`/api/backtests/${quick.body.id}`)).body.status).toBe('done');
    // the cap counts running and queued jobs; a cancelled one no longer counts
    expect(pushed.filter(([e, p]) => e === 'backtest:done' && p.id === id)).toHaveLength(1);
    socket.close();
  });

  it('an auditor cannot cancel (read-only), like every state-changing route', async () => {
    const auditor = await signedUpClient(t.app.url, 'bt-auditor@example.com');
    const res = await auditor.delete('/api/backtests/00000000-0000-4000-8000-000000000000');
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Auditors can read histories but cannot change anything');
  });
});
