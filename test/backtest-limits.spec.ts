/**
 * Issue 28, "limits that count what is really there": a sweep's cap counts the rows of the candles it
 * really runs over (an upload's rows, not days × timeframe); every swept value obeys the bot form's own
 * rules; uploads have a per-user quota of files and bytes, and a time given twice is refused by line.
 */
import { currentThreadId, threadCpuMs } from '@gridrocket/backtest';
import { Client } from './support/http-client';
import { useTestApp } from './support/trader-app';

jest.setTimeout(120_000);

const BOT = { exchange: 'Binance', symbol: 'SOLUSDT', botType: 'Spot', numOfOrders: 10, orderSize: '0.1', interval: 1, entryPrice: 140, takeProfit: 1 };
const T = Date.UTC(2026, 0, 1) / 1000;
/** `rows` one-minute candles, time in seconds (short lines: 250,000 rows are about 5 MB). */
const csvOf = (rows: number, start = T) => Array.from({ length: rows }, (_, i) => `${start + i * 60},140,141,139,140`).join('\n');
const upload = (c: Client, body: string) => c.raw('POST', '/api/backtests/candles', { body, headers: { 'content-type': 'text/csv' } });

describe('backtest limits over the API', () => {
  const t = useTestApp();

  it('the sweep cap counts the rows of the uploaded file: 2,000 combinations × 250,000 rows is refused like 2,000 × 250,000 days-worth', async () => {
    const c = new Client(t.app.url);
    await c.signUp('lim-rows@example.com');
    const up = await upload(c, csvOf(250_000));
    expect(up.status).toBe(201);
    expect(up.body.candles).toBe(250_000);
    // 10 × 10 × 20 = 2,000 combinations (the most a sweep may have)
    const ranges = { interval: { from: 0.5, to: 5, step: 0.5 }, numOfOrders: { from: 1, to: 10, step: 1 }, takeProfit: { from: 1, to: 2.9, step: 0.1 } };
    const overFile = await c.post('/api/backtests/sweep', { ...BOT, candles: up.body.candlesId, ranges });
    expect(overFile.status).toBe(400);
    expect(overFile.body).toEqual({
      statusCode: 400,
      message: expect.any(String),
      errors: [{ field: 'ranges', message: 'The sweep is too large: 2000 combinations × 250000 candles; at most 400000000 candle-runs' }],
    });
    // the paper history of the same size (250,000 one-minute candles is 173.6 days: 174 days) is refused alike
    const overDays = await c.post('/api/backtests/sweep', { ...BOT, days: 174, ranges });
    expect(overDays.status).toBe(400);
    expect(overDays.body.errors).toEqual([{ field: 'ranges', message: 'The sweep is too large: 2000 combinations × 250560 candles; at most 400000000 candle-runs' }]);
    // the same 2,000 combinations over a file of 60 rows are accepted (120,000 candle-runs)
    const shortFile = await upload(c, csvOf(60));
    const small = await c.post('/api/backtests/sweep', { ...BOT, candles: shortFile.body.candlesId, ranges });
    expect(small.status).toBe(202);
  });

  it('every swept value obeys the bot form\'s rules, with the form\'s message', async () => {
    const c = new Client(t.app.url);
    await c.signUp('lim-ranges@example.com');
    const bot = await c.post('/api/backtests', { ...BOT, numOfOrders: 1000 });
    expect(bot.status).toBe(400);
    const botMessage = bot.body.errors.find((e: { field: string }) => e.field === 'numOfOrders').message;
    const base = { interval: { from: 1, to: 1, step: 1 }, numOfOrders: { from: 10, to: 1000, step: 990 }, takeProfit: { from: 1, to: 1, step: 1 } };
    const orders = await c.post('/api/backtests/sweep', { ...BOT, ranges: base });
    expect(orders.status).toBe(400);
    expect(orders.body.errors).toEqual([{ field: 'ranges.numOfOrders', message: `${botMessage} (the range has 1000)` }]);
    // a take-profit below the round trip of fees, and an interval of more than 8 decimals, as the bot form says
    const tpAndInterval = await c.post('/api/backtests/sweep', {
      ...BOT,
      ranges: { ...base, numOfOrders: { from: 10, to: 10, step: 1 }, interval: { from: 0.000000001, to: 0.000000002, step: 0.000000001 }, takeProfit: { from: 0.1, to: 1, step: 0.9 } },
    });
    expect(tpAndInterval.status).toBe(400);
    const fields = tpAndInterval.body.errors.map((e: { field: string }) => e.field).sort();
    expect(fields).toEqual(['ranges.interval', 'ranges.takeProfit']);
    expect(tpAndInterval.body.errors.find((e: { field: string }) => e.field === 'ranges.takeProfit').message).toMatch(/^Take profit must be at least 0\.21 %.*\(the range has 0\.1\)$/);
  });

  it('an upload is parsed and stored in the upload store\'s worker thread: the request thread does a small part of the work', async () => {
    const tid = currentThreadId();
    if (tid === null) return; // the thread's CPU time is read from /proc (Linux)
    const c = new Client(t.app.url);
    await c.signUp('lim-thread@example.com');
    const body = csvOf(250_000);
    const main0 = threadCpuMs(tid)!;
    const all0 = process.cpuUsage();
    const up = await upload(c, body);
    const main = threadCpuMs(tid)! - main0; // this process's main thread: the server's request thread (and this test's client)
    const used = process.cpuUsage(all0);
    const all = (used.user + used.system) / 1000;
    expect(up.status).toBe(201);
    expect(up.body.candles).toBe(250_000);
    // before, the request thread parsed and wrote it all (about 1 s of its time); now it only passes chunks on
    expect(main).toBeLessThan(all * 0.3);
  });

  it('lists the user\'s uploads, newest first, with their file names; never another user\'s; a deleted one is gone', async () => {
    const c = new Client(t.app.url);
    await c.signUp('lim-list@example.com');
    const named = (body: string, name: string) => c.raw('POST', `/api/backtests/candles?name=${encodeURIComponent(name)}`, { body, headers: { 'content-type': 'text/csv' } });
    const first = await named(csvOf(120), 'first.csv');
    const second = await named(csvOf(60, T + 86_400), 'second\u0007.csv'); // a control character is dropped
    expect([first.status, second.status]).toEqual([201, 201]);
    const list = await c.get('/api/backtests/candles');
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      { candlesId: second.body.candlesId, candles: 60, from: (T + 86_400) * 1000, to: (T + 86_400 + 59 * 60) * 1000, name: 'second.csv', bytes: csvOf(60, T + 86_400).length },
      { candlesId: first.body.candlesId, candles: 120, from: T * 1000, to: (T + 119 * 60) * 1000, name: 'first.csv', bytes: csvOf(120).length },
    ]);
    const other = new Client(t.app.url);
    await other.signUp('lim-list-other@example.com');
    expect((await other.get('/api/backtests/candles')).body).toEqual([]);
    expect((await other.raw('DELETE', `/api/backtests/candles/${first.body.candlesId}`)).status).toBe(404);
    expect((await c.raw('DELETE', `/api/backtests/candles/${first.body.candlesId}`)).status).toBe(204);
    expect((await c.get('/api/backtests/candles')).body.map((u: { name: string }) => u.name)).toEqual(['second.csv']);
  });

  it('an upload with the same time twice is refused, naming the line (nothing stored)', async () => {
    const c = new Client(t.app.url);
    await c.signUp('lim-dup@example.com');
    const dup = await upload(c, `time,open,high,low,close\n${T},140,141,139,140\n${T + 60},140,141,139,140\n${T * 1000},150,151,149,150`);
    expect(dup.status).toBe(400);
    expect(dup.body.errors).toEqual([{ field: 'csv', message: 'CSV line 4: time 2026-01-01T00:00:00.000Z is also on line 2' }]);
  });
});

describe('upload quota per user', () => {
  const t = useTestApp({ UPLOAD_MAX_FILES: '2', UPLOAD_MAX_BYTES: '2000' });

  it('at most UPLOAD_MAX_FILES files and UPLOAD_MAX_BYTES bytes per user: 409 beyond, another user unaffected', async () => {
    const c = new Client(t.app.url);
    await c.signUp('lim-quota@example.com');
    const small = csvOf(10); // 10 × 27 bytes
    const first = await upload(c, small);
    expect(first.status).toBe(201);
    expect((await upload(c, small)).status).toBe(201);
    const third = await upload(c, small);
    expect(third.status).toBe(409);
    expect(third.body.message).toBe('Limit reached: at most 2 uploaded candle files per user. Delete an upload first.');
    // deleting one makes room; another user cannot delete it
    const stranger = new Client(t.app.url);
    await stranger.signUp('lim-quota-stranger@example.com');
    expect((await stranger.raw('DELETE', `/api/backtests/candles/${first.body.candlesId}`)).status).toBe(404);
    expect((await c.raw('DELETE', `/api/backtests/candles/${first.body.candlesId}`)).status).toBe(204);
    expect((await c.post('/api/backtests', { ...BOT, candles: first.body.candlesId })).status).toBe(400); // gone
    expect((await upload(c, small)).status).toBe(201);

    const d = new Client(t.app.url);
    await d.signUp('lim-quota-bytes@example.com');
    expect((await upload(d, csvOf(40))).status).toBe(201); // 40 × 27 = 1,080 bytes
    const over = await upload(d, csvOf(40, T + 3600)); // 2,160 in all
    expect(over.status).toBe(409);
    expect(over.body.message).toBe('Limit reached: at most 2000 bytes of uploaded candles per user. Delete an upload first.');
    expect((await upload(d, csvOf(10, T + 7200))).status).toBe(201); // 1,350: fits
  });
});
