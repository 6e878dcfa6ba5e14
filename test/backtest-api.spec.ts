/**
 * Backtests over the API on the embedded default (paper venue history, offline): 202 with an id,
 * progress and completion pushed to the owner's socket only, the result in the read store per user,
 * the events in a backtest-<id> stream; bad input gets field messages; session and CSRF apply.
 */
import { until } from '@gridrocket/shared/testing/until';
import { Client } from './support/http-client';
import { backtestOnce, signedUpClient } from './support/backtests';
import { useTestApp } from './support/trader-app';
import { readEventFile } from './support/event-file';

jest.setTimeout(120_000);

const BOT = { exchange: 'Binance', symbol: 'SOLUSDT', botType: 'Spot', numOfOrders: 10, orderSize: '0.1', interval: 1, entryPrice: 140, takeProfit: 1 };

describe('backtests over the API', () => {
  const t = useTestApp();

  it('a backtest of the last 30 days: 202 + id, progress and done on the owner\'s socket, the result kept for the owner only', async () => {
    const c = await signedUpClient(t.app.url, 'bt-owner@example.com');
    const other = await signedUpClient(t.app.url, 'bt-other@example.com');
    const socket = await c.socket();
    const otherSocket = await other.socket();
    const pushed: Array<[string, any]> = [];
    const leaked: string[] = [];
    socket.onAny((event, payload) => pushed.push([event, payload]));
    otherSocket.onAny((event) => event.startsWith('backtest') && leaked.push(event));

    const res = await c.post('/api/backtests', BOT);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 'running' });
    const id = res.body.id;
    await until('done pushed', () => pushed.some(([e, p]) => e === 'backtest:done' && p.id === id), 60_000);
    expect(pushed.find(([e, p]) => e === 'backtest:done' && p.id === id)![1].status).toBe('done');
    expect(pushed.some(([e, p]) => e === 'backtest:progress' && p.id === id)).toBe(true);

    const doc = await backtestOnce(c, id, 'projected', (d) => d.status === 'done');
    expect(doc.candles).toBe(43_200);
    expect(doc.request).toMatchObject({ exchange: 'Binance', symbol: 'SOLUSDT', timeframe: '1m', source: 'paper' });
    expect(doc.request.to - doc.request.from).toBe(30 * 86_400_000);
    expect(doc.terms).toMatchObject({ feeBps: 10, rules: { priceStep: 0.01, amountStep: 0.001, minNotional: 5 } });
    expect(doc.result.capital).toBe(135.5); // 0.1 × (140 + 139 + … + 131)
    expect(doc.result.curve.equity.length).toBeGreaterThan(100);
    expect(doc.result.curve.time.length).toBe(doc.result.curve.equity.length);
    expect(typeof doc.result.profit).toBe('number');
    expect(doc.result.buyAndHold).toEqual({ profit: expect.any(Number), totalReturn: expect.any(Number) });

    expect((await other.get(`/api/backtests/${id}`)).status).toBe(404);
    expect((await other.get('/api/backtests')).body).toEqual([]);
    expect((await c.get('/api/backtests')).body.map((d: { id: string }) => d.id)).toEqual([id]);
    expect(leaked).toEqual([]);

    await readEventFile(t.app.dataDir, async (store) => {
      expect((await store.readStream(`backtest-${id}`)).map((e) => e.type)).toEqual(['BacktestRequested', 'BacktestCompleted']);
    });
    socket.close();
    otherSocket.close();
  });

  it('a sweep: every combination, the best by the measure, a heatmap\'s worth of points', async () => {
    const c = await signedUpClient(t.app.url, 'bt-sweep@example.com');
    const res = await c.post('/api/backtests/sweep', {
      ...BOT,
      days: 5,
      ranges: { interval: { from: 0.5, to: 1.5, step: 0.5 }, numOfOrders: { from: 4, to: 8, step: 2 }, takeProfit: { from: 0.5, to: 1, step: 0.5 } },
      measure: 'totalReturn',
    });
    expect(res.status).toBe(202);
    const doc = await backtestOnce(c, res.body.id, 'sweep done', undefined, 60_000);
    expect(doc.status).toBe('done');
    expect(doc.kind).toBe('sweep');
    expect(doc.sweep.points).toHaveLength(18);
    const best = Math.max(...doc.sweep.points.map((p: { totalReturn: number }) => p.totalReturn));
    expect(doc.sweep.best.totalReturn).toBe(best);
  });

  it('bad input gets field messages, never a 5xx; sizes are bounded', async () => {
    const c = await signedUpClient(t.app.url, 'bt-bad@example.com');
    const bad = await c.post('/api/backtests', { ...BOT, numOfOrders: 'x', days: 1000, timeframe: '3m' });
    expect(bad.status).toBe(400);
    const fields = bad.body.errors.map((e: { field: string }) => e.field).sort();
    expect(fields).toEqual(['days', 'numOfOrders', 'timeframe']);
    const huge = await c.post('/api/backtests/sweep', { ...BOT, ranges: { interval: { from: 0.01, to: 10, step: 0.01 }, numOfOrders: { from: 1, to: 10, step: 1 }, takeProfit: { from: 1, to: 1, step: 1 } } });
    expect(huge.status).toBe(400);
    expect(huge.body.errors[0]).toEqual({ field: 'ranges', message: 'The sweep has 10000 combinations; at most 2000 are allowed' });
    const noRanges = await c.post('/api/backtests/sweep', BOT);
    expect(noRanges.status).toBe(400);
    expect(noRanges.body.errors).toContainEqual({ field: 'ranges', message: 'ranges are required' });
    // a grid that cannot trade on the market fails with the engine's reason
    const invalid = await c.post('/api/backtests', { ...BOT, interval: 10, numOfOrders: 11 });
    expect(invalid.status).toBe(202);
    const doc = await backtestOnce(c, invalid.body.id, 'failed', (d) => d.status === 'failed', 30_000);
    // 140, 130, … 50 are worth at least 5; the 11th, 40, is worth 4
    expect(doc.error).toBe("Order 11 of 11 would be worth 4 (0.1 × 40), below the market's minimum order value of 5");
  });

  it('an uploaded CSV of candles: stored for its owner, backtested by id; bad files get the line', async () => {
    const c = await signedUpClient(t.app.url, 'bt-csv@example.com');
    // a falling then rising hour around 140
    const rows = ['time,open,high,low,close'];
    const T = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 60; i++) {
      const p = i < 30 ? 141 - i * 0.1 : 138 + (i - 30) * 0.15;
      rows.push(`${new Date(T + i * 60_000).toISOString()},${p.toFixed(2)},${(p + 0.05).toFixed(2)},${(p - 0.05).toFixed(2)},${p.toFixed(2)}`);
    }
    const up = await c.raw('POST', '/api/backtests/candles', { body: rows.join('\n'), headers: { 'content-type': 'text/csv' } });
    expect(up.status).toBe(201);
    const upload = JSON.parse(up.text);
    expect(upload).toEqual({ candlesId: expect.any(String), candles: 60, from: T, to: T + 59 * 60_000, name: null });
    // Kucoin spot: fees in quote (Binance spot takes a buy's fee in the coin on the venue-faithful paper exchange)
    const res = await c.post('/api/backtests', { ...BOT, exchange: 'Kucoin', numOfOrders: 3, candles: upload.candlesId });
    expect(res.status).toBe(202);
    const doc = await backtestOnce(c, res.body.id, 'csv backtest done', undefined, 30_000);
    expect(doc.status).toBe('done');
    expect(doc.candles).toBe(60);
    // 140, 139 and 138 bought on the way down, all sold at 139 × 1.01 = 140.39 on the way up:
    // 0.3 × 140.39 − 41.7 − buy fees 0.0417 − sell fee 0.042117
    expect(doc.result).toMatchObject({ fills: 4, cycles: 1, profit: 0.333183 });

    const other = await signedUpClient(t.app.url, 'bt-csv-other@example.com');
    const stolen = await other.post('/api/backtests', { ...BOT, candles: upload.candlesId });
    expect(stolen.status).toBe(400);
    expect(stolen.body.errors).toEqual([{ field: 'candles', message: 'No uploaded CSV of candles with this id' }]);
    const bad = await c.raw('POST', '/api/backtests/candles', { body: `${T},1,2,0.5,1.5\n${T + 60_000},1,0.9,0.5,1`, headers: { 'content-type': 'text/csv' } });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text).errors).toEqual([{ field: 'csv', message: 'CSV line 2: low/high do not contain open and close' }]);
    const json = await c.post('/api/backtests/candles', { csv: 'x' });
    expect(json.status).toBe(400);
  });

  it('at most 3 backtests of one user run at once: the 4th asked together is told to wait (429)', async () => {
    const c = await signedUpClient(t.app.url, 'bt-many@example.com');
    const sweep = { ...BOT, ranges: { interval: { from: 0.5, to: 2, step: 0.5 }, numOfOrders: { from: 2, to: 10, step: 1 }, takeProfit: { from: 0.5, to: 2, step: 0.5 } } };
    const answers = await Promise.all([1, 2, 3, 4].map(() => c.post('/api/backtests/sweep', sweep)));
    expect(answers.map((a) => a.status).sort()).toEqual([202, 202, 202, 429]);
    for (const a of answers.filter((x) => x.status === 202)) {
      await until('sweep finished', async () => (await c.get(`/api/backtests/${a.body.id}`)).body.status === 'done', 90_000);
    }
    expect((await c.post('/api/backtests', BOT)).status).toBe(202); // room again
  });

  it('needs a session and the CSRF token', async () => {
    const anonymous = new Client(t.app.url);
    expect((await anonymous.post('/api/backtests', BOT)).status).toBe(401);
    const c = await signedUpClient(t.app.url, 'bt-csrf@example.com');
    expect((await c.post('/api/backtests', BOT, { csrf: false })).status).toBe(403);
  });
});
