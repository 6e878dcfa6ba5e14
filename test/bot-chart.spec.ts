import { Client } from './support/http-client';
import { useTestApp } from './support/trader-app';

describe('grid chart data of a running bot', () => {
  const t = useTestApp();

  it('shows the placed ladder as open buy levels, and is private to the owner', async () => {
    const c = new Client(t.app.url);
    await c.addKey((await c.signUp('chart@example.com')).uid);
    const price: number = (await c.get('/api/priceSpot?symbol=BTCUSDT&exchange=Binance')).body;
    const entry = Math.round(price * 0.98);
    const created = await c.post('/api/bots', {
      exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 3, orderSize: '0.01', interval: Math.round(price * 0.01), entryPrice: entry, takeProfit: 1, botType: 'Spot',
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    await c.get(`/api/startBot?id=${id}`);
    for (let i = 0; i < 100 && (await c.get(`/api/bot-details/${id}`)).body.state !== 'running'; i++) await new Promise((r) => setTimeout(r, 50));

    const chart = await c.get(`/api/bots/${id}/chart`);
    expect(chart.status).toBe(200);
    expect(chart.body.levels).toHaveLength(3);
    expect(chart.body.levels.every((l: { kind: string; status: string }) => l.kind === 'buy' && l.status === 'open')).toBe(true);
    expect(chart.body.levels[0].price).toBeLessThanOrEqual(entry);
    // the price line starts at once, at the current price
    expect(chart.body.points.length).toBeGreaterThanOrEqual(1);
    expect(chart.body.points[0].value).toBeGreaterThan(0);
    expect(chart.body.fills).toEqual([]);

    // the bot page's figures: the same ladder as a table, nothing filled yet, the runtime counting
    const summary = await c.get(`/api/bots/${id}/summary`);
    expect(summary.status).toBe(200);
    expect(summary.body.ladder).toHaveLength(3);
    expect(summary.body.ladder.every((r: { state: string; size: number }) => r.state === 'open' && r.size === 0.01)).toBe(true);
    expect(summary.body).toMatchObject({ running: true, position: 0, realisedPnl: 0, feesPaid: 0, cyclesCompleted: 0, lastError: null });
    expect(summary.body.lastPrice).toBeGreaterThan(0);
    expect(summary.body.capitalInUse).toBeGreaterThan(0);
    const overview = await c.get('/api/bots-overview');
    expect(overview.status).toBe(200);
    expect(overview.body).toEqual([expect.objectContaining({ id, running: true, position: 0, realisedPnl: 0 })]);
    const rules = await c.get('/api/market-rules?exchange=Binance&symbol=BTCUSDT&botType=Spot');
    expect(rules.status).toBe(200);
    expect(rules.body.priceStep).toBeGreaterThan(0);
    expect((await c.get('/api/market-rules?exchange=Nope&symbol=BTCUSDT')).status).toBe(400);

    const other = new Client(t.app.url);
    await other.signUp('chart-other@example.com');
    expect((await other.get(`/api/bots/${id}/chart`)).status).toBe(404);
    expect((await other.get('/api/bots/not-an-id/chart')).status).toBe(404);
    expect((await other.get(`/api/bots/${id}/summary`)).status).toBe(404);
    expect((await other.get('/api/bots-overview')).body).toEqual([]);
  });
});
