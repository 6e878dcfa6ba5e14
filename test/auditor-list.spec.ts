import { until } from '@gridrocket/shared/testing/until';
import { Client, spotBot } from './support/http-client';
import { verifyByMail } from './support/mailbox';
import { signUpTrader, useTestApp, type Trader } from './support/trader-app';

/**
 * Issue 40, point 11: an auditor had no list of bots to audit, and a bot's overview said "Bot not found" to
 * an auditor. Now: `GET /api/audit/bots` lists every user's bots (deleted ones too), filtered by owner,
 * exchange, market type, pair and status, a page at a time; `GET /api/audit/bots/{id}` is one bot, and its
 * figures and chart read for an auditor. Auditors only (a trader, or the auditor's address unverified: 403);
 * nothing secret in any answer; every change still refused.
 */
jest.setTimeout(120_000);

describe("the auditors' list of bots (issue 40, point 11)", () => {
  const world = useTestApp({ AUDITOR_EMAILS: 'audit@example.com, second-audit@example.com' });
  let auditor: Client;
  let ann: Trader;
  let bob: Trader;
  const bots: Record<string, string> = {};

  beforeAll(async () => {
    ann = await signUpTrader(world.app.url, 'ann@example.com', { key: true });
    bob = await signUpTrader(world.app.url, 'bob@example.com', { key: 'Kucoin' });
    const make = async (c: Client, uid: string, over: Record<string, unknown>) => {
      const res = await c.post('/api/bots', { ...spotBot, userId: uid, ...over });
      expect({ status: res.status, body: res.status === 201 ? null : res.body }).toEqual({ status: 201, body: null });
      return res.body.id as string;
    };
    bots.annBtc = await make(ann.c, ann.uid, { entryPrice: 50000 });
    bots.annEth = await make(ann.c, ann.uid, { symbol: 'ETHUSDT', entryPrice: 2000, interval: 10 });
    bots.annGone = await make(ann.c, ann.uid, { symbol: 'SOLUSDT', entryPrice: 100, interval: 1, orderSize: '0.1' });
    bots.bobKucoin = await make(bob.c, bob.uid, { exchange: 'Kucoin', entryPrice: 50000 });
    expect((await ann.c.delete(`/api/bots/${bots.annGone}`)).status).toBe(204);
    expect((await ann.c.get(`/api/startBot?id=${bots.annBtc}&userId=${ann.uid}`)).status).toBe(202);
    await until('running', async () => (await ann.c.get(`/api/bot-details/${bots.annBtc}`)).body.state === 'running', 20_000);
    auditor = new Client(world.app.url);
    await auditor.signUp('audit@example.com');
    await verifyByMail(auditor, world.app.dataDir, 'audit@example.com');
  });
  const ids = (body: { items: { id: string }[] }) => body.items.map((b) => b.id).sort();

  it('lists every user\'s bots, deleted ones included, with their owners, newest first', async () => {
    const res = await auditor.get('/api/audit/bots');
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(4);
    expect(res.body.items.map((b: { id: string }) => b.id)).toEqual([bots.bobKucoin, bots.annGone, bots.annEth, bots.annBtc]);
    const byId = Object.fromEntries(res.body.items.map((b: { id: string }) => [b.id, b]));
    expect(byId[bots.annBtc]).toMatchObject({ userid: ann.uid, owner: 'ann@example.com', exchange: 'Binance', symbol: 'BTCUSDT', bottype: 'Spot', status: 'running', deletedat: null });
    expect(byId[bots.annGone]).toMatchObject({ owner: 'ann@example.com', symbol: 'SOLUSDT', status: 'deleted', deletedat: expect.any(String) });
    expect(byId[bots.bobKucoin]).toMatchObject({ userid: bob.uid, owner: 'bob@example.com', exchange: 'Kucoin', status: 'stopped' });
    expect((await auditor.get('/api/audit/me')).body).toEqual({ auditor: true, auditorAddress: true });
  });

  it('filters by owner (address or id), exchange, market type, pair and status, and pages', async () => {
    expect(ids((await auditor.get('/api/audit/bots?owner=ANN@example.com')).body)).toEqual([bots.annBtc, bots.annEth, bots.annGone].sort());
    expect(ids((await auditor.get(`/api/audit/bots?owner=${bob.uid}`)).body)).toEqual([bots.bobKucoin]);
    expect((await auditor.get('/api/audit/bots?owner=nobody@example.com')).body).toEqual({ items: [], total: 0, limit: 50, offset: 0 });
    expect(ids((await auditor.get('/api/audit/bots?exchange=Kucoin')).body)).toEqual([bots.bobKucoin]);
    expect(ids((await auditor.get('/api/audit/bots?symbol=ethusdt')).body)).toEqual([bots.annEth]);
    expect(ids((await auditor.get('/api/audit/bots?status=deleted')).body)).toEqual([bots.annGone]);
    expect(ids((await auditor.get('/api/audit/bots?status=running&botType=Spot&exchange=Binance')).body)).toEqual([bots.annBtc]);
    expect((await auditor.get('/api/audit/bots?botType=Futures')).body.total).toBe(0);
    const page = (await auditor.get('/api/audit/bots?limit=2&offset=1')).body;
    expect({ total: page.total, limit: page.limit, offset: page.offset, items: page.items.map((b: { id: string }) => b.id) }).toEqual({ total: 4, limit: 2, offset: 1, items: [bots.annGone, bots.annEth] });
    const bad = await auditor.get('/api/audit/bots?status=paused&exchange=Kraken&limit=0');
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['limit']);
    const badFilters = await auditor.get('/api/audit/bots?status=paused&exchange=Kraken');
    expect(badFilters.status).toBe(400);
    expect(badFilters.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['exchange', 'status']);
  });

  it("reads one bot read-only: its view (a deleted one's last), figures and chart; a missing one is 404", async () => {
    const one = await auditor.get(`/api/audit/bots/${bots.annBtc}`);
    expect(one.status).toBe(200);
    expect(one.body.bot).toMatchObject({ id: bots.annBtc, owner: 'ann@example.com', status: 'running' });
    expect(one.body.view).toMatchObject({ id: bots.annBtc, userid: ann.uid, symbol: 'BTCUSDT', numoforders: 5, state: 'running' });
    const gone = await auditor.get(`/api/audit/bots/${bots.annGone}`);
    expect(gone.body.bot.status).toBe('deleted');
    expect(gone.body.view).toMatchObject({ id: bots.annGone, symbol: 'SOLUSDT' });
    // the overview's figures and chart, which answered "Bot not found" to an auditor
    const summary = await auditor.get(`/api/bots/${bots.annBtc}/summary`);
    expect(summary.status).toBe(200);
    expect(summary.body).toMatchObject({ running: true });
    expect((await auditor.get(`/api/bots/${bots.annBtc}/chart`)).status).toBe(200);
    expect((await auditor.get('/api/audit/bots/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await auditor.get('/api/audit/bots/not-an-id')).status).toBe(404);
  });

  it('and changes nothing: start, stop, edit, delete and the signal settings are refused', async () => {
    const refused = [
      await auditor.get(`/api/stopBot?id=${bots.annBtc}&cancelAllOrders=true`),
      await auditor.get(`/api/startBot?id=${bots.annEth}`),
      await auditor.put(`/api/bots/${bots.annEth}`, { exchange: 'Binance', numOfOrders: 2, orderSize: 0.01, interval: 10, entryPrice: 2000, takeProfit: 1 }),
      await auditor.delete(`/api/bots/${bots.annEth}`),
      await auditor.post(`/api/bots/${bots.annEth}/signals`, {}),
    ];
    expect(refused.map((r) => [r.status, r.body.message])).toEqual(refused.map(() => [403, 'Auditors can read histories but cannot change anything']));
    expect((await ann.c.get(`/api/bot-details/${bots.annBtc}`)).body.state).toBe('running');
    expect((await ann.c.get(`/api/bot-details/${bots.annEth}`)).body.numoforders).toBe(5);
  });

  it('shows nothing secret: no key, no secret, no signal secret', async () => {
    expect((await ann.c.post(`/api/bots/${bots.annEth}/signals`, {})).status).toBe(201);
    const texts = [
      (await auditor.get('/api/audit/bots')).text,
      (await auditor.get(`/api/audit/bots/${bots.annEth}`)).text,
      (await auditor.get(`/api/audit/bots/${bots.annBtc}`)).text,
    ].join('\n');
    for (const secret of ['test-binance-key', 'test-kucoin-key', 'test-secret-0123456789', 'test-pass']) expect(texts).not.toContain(secret);
    expect(texts).not.toMatch(/secret|apikey|passphrase/i);
  });

  it('is for auditors only: a trader and an unverified auditor address get 403, and read no one else\'s figures', async () => {
    const trader = await ann.c.get('/api/audit/bots');
    expect(trader.status).toBe(403);
    expect(trader.body.message).toBe("Only auditors can list every user's bots");
    expect((await ann.c.get(`/api/audit/bots/${bots.bobKucoin}`)).status).toBe(403);
    expect((await ann.c.get('/api/audit/me')).body).toEqual({ auditor: false, auditorAddress: false });
    expect((await bob.c.get(`/api/bots/${bots.annBtc}/summary`)).status).toBe(404);
    expect((await bob.c.get(`/api/bots/${bots.annBtc}/chart`)).status).toBe(404);
    const squatter = new Client(world.app.url);
    await squatter.signUp('Second-Audit@Example.com'); // never verified
    expect((await squatter.get('/api/audit/bots')).status).toBe(403);
    expect((await squatter.get('/api/audit/me')).body).toEqual({ auditor: false, auditorAddress: true });
    expect((await new Client(world.app.url).get('/api/audit/bots')).status).toBe(401);
  });
});
