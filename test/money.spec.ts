/**
 * The money view (issue 29) end to end on the paper exchange with a replayed price CSV: a Binance spot
 * bot (the buy's fee taken in the coin) runs several cycles; its trades list, performance, the account's
 * and the FIFO lots CSV are read over HTTP, and the CSV's lot profits add up to the bot's realised
 * profit (what the bot's `profit` says, as the grid engine realised it).
 */
import { until } from '@gridrocket/shared/testing/until';
import { Client } from './support/http-client';
import { usePaperReplay } from './support/trader-app';

jest.setTimeout(90_000);

const H = 3_600_000;
const T0 = 1_700_000_000_000;
const PATH = [30.5, 29.9, 30.4, 29.5, 28.9, 30.0, 29.9, 30.4];
const CSV = ['ms,exchange,symbol,price', ...PATH.map((p, i) => `${T0 + i * H},Binance,AVAXUSDT,${p}`)].join('\n');

describe('the money view of a bot with several cycles (paper exchange)', () => {
  const replay = usePaperReplay(CSV, T0);

  it('lists each fill, exports FIFO lots that reconcile with the realised profit, and is private to the owner', async () => {
    const { app, venue } = replay;
    const c = new Client(app.url);
    const uid = (await c.signUp('money@example.com')).uid as string;
    await c.addKey(uid, 'Binance');
    const created = await c.post('/api/bots', { exchange: 'Binance', symbol: 'AVAXUSDT', botType: 'Spot', numOfOrders: 2, orderSize: '10', interval: 1, entryPrice: 30, takeProfit: 1 });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await c.get(`/api/startBot?userId=${uid}&id=${id}`)).status).toBe(202);
    await until('running', async () => (await c.get(`/api/bot-details/${id}`)).body.botstatus === true, 30_000);
    const cycles = async () => (await c.get(`/api/bots/${id}/performance`)).body.cyclesCompleted as number;
    const fills = async () => (await c.get(`/api/bots/${id}/trades?limit=1`)).body.total as number;
    // [row of the path, fills expected after it]
    for (const [k, n] of [[1, 1], [2, 2], [3, 3], [4, 4], [5, 5], [6, 6], [7, 7]] as const) {
      venue.advanceTo(T0 + k * H);
      await until(`${n} fills after row ${k}`, async () => (await fills()) >= n, 30_000);
    }
    await until('three cycles', async () => (await cycles()) === 3, 30_000);

    const details = (await c.get(`/api/bot-details/${id}`)).body;
    const page = await c.get(`/api/bots/${id}/trades?limit=5&offset=0`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ total: 7, limit: 5, offset: 0 });
    expect(page.body.items).toHaveLength(5);
    const latest = page.body.items[0];
    // newest first: the third cycle's take-profit, with what it realised and its cycle's profit
    expect(latest).toMatchObject({ side: 'sell', role: 'take-profit', amount: 9.99 });
    expect(latest.cycleProfit).toBeCloseTo(latest.profit, 8);
    const firstBuy = (await c.get(`/api/bots/${id}/trades?limit=5&offset=5`)).body.items.pop();
    // Binance spot took the buy's fee in AVAX: 10 bought, 9.99 held, the fee's value 0.3 USDT
    expect(firstBuy).toMatchObject({ side: 'buy', price: 30, amount: 10, netAmount: 9.99, fee: 0.3, cycleProfit: expect.any(Number) });

    const csv = await c.get(`/api/bots/${id}/trades.csv`);
    expect(csv.status).toBe(200);
    expect(String(csv.headers.get('content-type'))).toMatch(/^text\/csv/);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe('date_acquired,date_sold,symbol,amount,cost_basis,proceeds,profit,currency,cycle,buy_fill_id,sell_fill_id');
    const rows = lines.slice(1).map((l) => l.split(','));
    expect(rows).toHaveLength(4); // cycle 1: one lot, cycle 2: two lots, cycle 3: one lot
    const lotProfit = rows.reduce((s, r) => s + Number(r[6]), 0);
    expect(details.profit).toBeGreaterThan(0);
    expect(Math.round(lotProfit * 100)).toBe(Math.round(details.profit * 100));

    const perf = (await c.get(`/api/bots/${id}/performance`)).body;
    expect(perf.realisedPnl).toBeCloseTo(details.profit, 6);
    expect(perf.position).toBe(0);
    expect(perf.totalPnl).toBeCloseTo(details.profit, 6);
    expect(perf.capitalCommitted).toBe(590); // 30 × 10 + 29 × 10
    expect(perf.returnPercent).toBeCloseTo((details.profit / 590) * 100, 6);
    expect(perf.equity.length).toBeGreaterThanOrEqual(7);
    const account = (await c.get('/api/performance')).body;
    expect(account).toMatchObject({ bots: 1, capitalCommitted: 590, cyclesCompleted: 3 });
    expect(account.totalPnl).toBeCloseTo(perf.totalPnl, 6);

    const other = new Client(app.url);
    await other.signUp('money-other@example.com');
    for (const path of ['trades', 'trades.csv', 'performance']) expect((await other.get(`/api/bots/${id}/${path}`)).status).toBe(404);
    expect((await other.get('/api/performance')).body).toMatchObject({ bots: 0, totalPnl: 0 });
    expect((await c.get(`/api/bots/${id}/trades?limit=0`)).status).toBe(400);
    expect((await new Client(app.url).get(`/api/bots/${id}/trades`)).status).toBe(401);
  });
});
