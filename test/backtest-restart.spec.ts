/**
 * Issue 28: the built server, as its own process. A kill -9 during a sweep: the next start answers
 * /api/health as soon as a start with nothing interrupted does (the sweep is not run again at boot;
 * about 0.9 s on a quiet machine, against 20.6 s before) and the sweep shows `interrupted`. A SIGTERM during a sweep: the worker threads are terminated and the process
 * exits within 5 s.
 */
import { until } from '@gridrocket/shared/testing/until';
import { Client } from './support/http-client';
import { kill9, spawnServer, stop } from './support/server-process';
import { useTempDir } from './support/close-all';

jest.setTimeout(180_000);

const BOT = { exchange: 'Binance', symbol: 'SOLUSDT', botType: 'Spot', numOfOrders: 10, orderSize: '0.1', interval: 1, entryPrice: 140, takeProfit: 1 };
const LONG_SWEEP = { ...BOT, days: 200, ranges: { interval: { from: 0.5, to: 5, step: 0.5 }, numOfOrders: { from: 1, to: 10, step: 1 }, takeProfit: { from: 0.5, to: 5, step: 0.5 } } };

/** Starts a long sweep and waits until its combinations run (progress on the owner's socket). */
async function sweepRunning(c: Client): Promise<string> {
  const socket = await c.socket();
  let running = false;
  socket.on('backtest:progress', (p: { phase: string; done: number }) => (running ||= p.phase === 'running' && p.done > 0));
  const res = await c.post('/api/backtests/sweep', LONG_SWEEP);
  expect(res.status).toBe(202);
  await until('sweep running', () => running, 60_000);
  socket.close();
  return res.body.id;
}

describe('backtests across a kill -9 and a SIGTERM of the built server', () => {
  const dataDir = useTempDir('gr-bt-restart-');

  it('kill -9 during a sweep: the next start answers /api/health as soon as a start with nothing interrupted, and the sweep is interrupted, not re-run', async () => {
    let server = await spawnServer(dataDir);
    const c = new Client(server.url);
    await c.signUp('restart@example.com');
    const id = await sweepRunning(c);
    await kill9(server.proc);

    const started = Date.now();
    server = await spawnServer(dataDir);
    let healthAfter: number;
    try {
      await until('health', async () => (await fetch(`${server.url}/api/health`).catch(() => null))?.ok === true, 10_000);
      healthAfter = Date.now() - started;
      const again = new Client(server.url);
      expect((await again.post('/api/auth/login', { email: 'restart@example.com', password: 'correct-horse-1' })).status).toBeLessThan(300);
      const doc = await until('interrupted', async () => {
        const r = await again.get(`/api/backtests/${id}`);
        return r.body.status !== 'running' && r.body;
      }, 30_000);
      expect(doc).toMatchObject({ status: 'interrupted', error: 'The server stopped while this backtest ran; run it again', sweep: null });
    } finally {
      await kill9(server.proc);
    }
    // The floor of the same run: the same data, killed with nothing running, started again. A start after
    // a kill -9 during a sweep must be as quick (the sweep is not run at boot: 20.6 s before, issue 28);
    // the 2 s of the issue hold on a quiet machine (about 0.9 s measured), and the machine's load moves
    // both starts alike, so the test compares the two rather than a clock.
    const t0 = Date.now();
    server = await spawnServer(dataDir);
    let floor: number;
    try {
      await until('health', async () => (await fetch(`${server.url}/api/health`).catch(() => null))?.ok === true, 10_000);
      floor = Date.now() - t0;
    } finally {
      await kill9(server.proc);
    }
    console.log(`after kill -9 during a sweep: /api/health answered ${healthAfter} ms after the process was spawned; a start with nothing interrupted: ${floor} ms`);
    expect(healthAfter).toBeLessThan(2 * floor + 1000);
  });

  it('SIGTERM during a sweep: the process exits within 5 s', async () => {
    const server = await spawnServer(dataDir);
    try {
      const c = new Client(server.url);
      await c.post('/api/auth/login', { email: 'restart@example.com', password: 'correct-horse-1' });
      await sweepRunning(c);
      const t0 = Date.now();
      await stop(server.proc);
      console.log(`SIGTERM during a sweep: the process exited in ${Date.now() - t0} ms`);
      expect(Date.now() - t0).toBeLessThan(5000);
    } finally {
      await kill9(server.proc);
    }
  });
});
