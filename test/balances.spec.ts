import { until } from '@gridrocket/shared/testing/until';
import { Client, spotBot } from './support/http-client';
import { useStandInApp } from './support/live-stand-in-app';
import { useTestApp } from './support/trader-app';

/**
 * Issue 40: the balances page's route, `GET /api/balances`: the signed-in user's accounts per venue,
 * market and asset, free and locked, from the exchange port (the paper exchange's accounts; ccxt
 * `fetchBalance` on a venue stand-in), each read kept 10 s so a reload spends no more venue weight,
 * and answered with what a read costs (Binance spot `GET /api/v3/account`, weight 20).
 */
jest.setTimeout(120_000);

type Account = { exchange: string; market: string; state: string; message: string | null; assets: { asset: string; free: number; locked: number; total: number }[]; readAt: number | null; cached: boolean; read: { call: string; weight: number } | null };
const usdt = (a: Account) => a.assets.find((x) => x.asset === 'USDT');

describe('balances on the paper exchange', () => {
  const t = useTestApp();

  it("shows each venue and market's assets, free and locked by the bot's open orders; only the user's own", async () => {
    const ann = new Client(t.app.url);
    const { uid: annUid } = await ann.signUp('bal-ann@example.com');
    await ann.addKey(annUid);
    const bot = (await ann.post('/api/bots', { ...spotBot, entryPrice: 50000, userId: annUid })).body.id as string;
    expect((await ann.get(`/api/startBot?id=${bot}&userId=${annUid}`)).status).toBe(202);
    await until('running', async () => (await ann.get(`/api/bot-details/${bot}`)).body.state === 'running', 20_000);
    // its five buys (0.01 BTC at 50,000 down to 49,600) hold USDT on Binance spot
    await until('orders placed', async () => ((await ann.get(`/api/bots/${bot}/summary`)).body.ladder ?? []).filter((r: { state: string }) => r.state === 'open').length === 5, 20_000);

    const res = await ann.get('/api/balances');
    expect(res.status).toBe(200);
    expect(res.body.mode).toBe('paper');
    expect(res.body.cacheSeconds).toBe(10);
    const accounts = res.body.accounts as Account[];
    expect(accounts.map((a) => `${a.exchange} ${a.market} ${a.state}`)).toEqual(['Binance spot ok', 'Binance futures ok', 'Kucoin spot ok', 'Kucoin futures ok']);
    const spot = accounts[0];
    const held = 0.01 * (50000 + 49900 + 49800 + 49700 + 49600);
    expect(usdt(spot)).toEqual({ asset: 'USDT', free: expect.any(Number), locked: expect.any(Number), total: 10000 });
    expect(usdt(spot)!.locked).toBeGreaterThanOrEqual(held - 1e-6);
    expect(usdt(spot)!.free + usdt(spot)!.locked).toBeCloseTo(10000, 6);
    expect(spot.read).toBeNull(); // paper: no venue weight
    for (const other of accounts.slice(1)) expect(usdt(other)).toEqual({ asset: 'USDT', free: 10000, locked: 0, total: 10000 });

    // kept 10 s: the same read, marked cached
    const again = (await ann.get('/api/balances?exchange=Binance&market=spot')).body.accounts as Account[];
    expect(again).toHaveLength(1);
    expect(again[0]).toMatchObject({ exchange: 'Binance', market: 'spot', cached: true, readAt: spot.readAt });

    // another user sees their own accounts, never Ann's, and cannot ask for hers
    const bob = new Client(t.app.url);
    await bob.signUp('bal-bob@example.com');
    const bobs = (await bob.get('/api/balances?exchange=Binance&market=spot')).body.accounts as Account[];
    expect(usdt(bobs[0])).toEqual({ asset: 'USDT', free: 10000, locked: 0, total: 10000 });
    const theirs = await bob.get(`/api/balances?userId=${annUid}`);
    expect(theirs.status).toBe(403);
    expect(theirs.text).not.toContain('locked');
    expect((await new Client(t.app.url).get('/api/balances')).status).toBe(401);
    const bad = await bob.get('/api/balances?market=margin&exchange=Kraken');
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual(['exchange']);
    expect((await bob.get('/api/balances?market=margin')).body.errors).toEqual([{ field: 'market', message: 'market must be spot or futures' }]);
  });
});

describe('balances through ccxt on the Binance spot stand-in (live mode)', () => {
  const live = useStandInApp('gr-balances-', 'Binance', 'spot', { EGRESS_IP: '203.0.113.7' });

  it('reads GET /api/v3/account once for two page loads, says what it weighs, and names the exchange without a key', async () => {
    const c = new Client(live.app.url);
    const { uid } = await c.signUp('bal-live@example.com');
    const apiKey = 'bal-live-key-000001';
    live.standIn.addKey({ userId: 'venue-bal-live', apiKey, secret: '', permissions: {} });
    expect((await c.post('/api/api-credentials', { access: { exchange: 'Binance', apiKey, keySecret: 'bal-live-secret-000001', passPhrase: '', userId: uid } })).status).toBe(201);
    const from = Date.now();
    const first = (await c.get('/api/balances?exchange=Binance&market=spot')).body.accounts as Account[];
    expect(first).toEqual([
      {
        exchange: 'Binance',
        market: 'spot',
        state: 'ok',
        message: null,
        assets: [{ asset: 'USDT', free: 10000, locked: 0, total: 10000 }],
        readAt: expect.any(Number),
        cached: false,
        read: expect.objectContaining({ call: 'GET /api/v3/account', weight: 20 }),
      },
    ]);
    const second = (await c.get('/api/balances?exchange=Binance&market=spot')).body.accounts as Account[];
    expect(second[0].cached).toBe(true);
    // the venue counted one account read (weight 20) for the two loads
    expect(live.standIn.meter.byRoute(from - 1000, Date.now() + 1000)['GET /api/v3/account']).toBe(20);
    // no Kucoin key: said so, and nothing asked of the venue
    const kucoin = (await c.get('/api/balances?exchange=Kucoin')).body.accounts as Account[];
    expect(kucoin.map((a) => [a.market, a.state, a.message])).toEqual([
      ['spot', 'no-key', 'Add a Kucoin API key on the API keys page to see its spot balances.'],
      ['futures', 'no-key', 'Add a Kucoin API key on the API keys page to see its futures balances.'],
    ]);
  });
});
