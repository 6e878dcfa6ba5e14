import { join } from 'node:path';
import { SqliteEventStore } from '@gridrocket/event-store';
import { exchangeFixture, STUB_KEY, verifySignature } from '@gridrocket/exchanges/testing/ccxt.fixtures';
import { ExchangeStub } from '@gridrocket/exchanges/testing/exchange-stub.server';
import { Client } from './support/http-client';
import { startTestApp } from './support/test-app';
import { signUpTrader, useTestApp } from './support/trader-app';

const binanceKey = { exchange: 'Binance', apiKey: 'binance-public-key-1', keySecret: 'binance-secret-value-1', passPhrase: '' };
const kucoinKey = { exchange: 'Kucoin', apiKey: 'kucoin-public-key-1', keySecret: 'kucoin-secret-value-1', passPhrase: 'kucoin-pass' };

describe('API keys (credentials), end to end on the embedded stores', () => {
  const t = useTestApp();

  it('adds, lists and deletes; the list shows only id, exchange and apikeyid', async () => {
    const alice = new Client(t.app.url);
    const { uid } = await alice.signUp('alice@example.com');
    expect((await alice.get(`/api/api-credentials/${uid}`)).body).toEqual([]);

    const a = await alice.post('/api/api-credentials', { access: { ...binanceKey, userId: uid } });
    expect(a.status).toBe(201);
    expect(a.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), exchange: 'Binance', apikeyid: 'binance-public-key-1' });
    const k = await alice.post('/api/api-credentials', { access: { ...kucoinKey, userId: uid } });
    expect(k.status).toBe(201);

    const list = await alice.get(`/api/api-credentials/${uid}`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      { id: a.body.id, exchange: 'Binance', apikeyid: 'binance-public-key-1' },
      { id: k.body.id, exchange: 'Kucoin', apikeyid: 'kucoin-public-key-1' },
    ]);
    expect(list.text).not.toContain('secret-value');
    expect(list.text).not.toContain('kucoin-pass');

    expect((await alice.delete(`/api/api-credentials/${a.body.id}`)).status).toBe(204);
    expect((await alice.get(`/api/api-credentials/${uid}`)).body).toEqual([{ id: k.body.id, exchange: 'Kucoin', apikeyid: 'kucoin-public-key-1' }]);
    expect((await alice.delete(`/api/api-credentials/${a.body.id}`)).status).toBe(404);

    // the log tells the story with ciphertext only
    const store = new SqliteEventStore(join(t.app.dataDir, 'events.sqlite'));
    const events = await store.readStream(`credential-${a.body.id}`);
    await store.close();
    // issue 30: what the venue (here the paper exchange) reported the key may do is on the key's stream too
    expect(events.map((e) => e.type)).toEqual(['CredentialAdded', 'CredentialPermissionsChecked', 'CredentialRemoved']);
    expect(events[1].data).toEqual({
      credentialId: a.body.id,
      checkedAt: expect.any(String),
      source: 'add',
      permissions: { withdraw: false, read: true, spot: true, futures: true, ipRestricted: null },
      failure: null,
    });
    expect(events[0].data).toEqual({
      credentialId: a.body.id,
      userId: uid,
      exchange: 'Binance',
      apiKeyId: 'binance-public-key-1',
      sealedSecret: expect.stringMatching(/^v1\./),
      sealedPassphrase: null,
      keyId: expect.any(String),
    });
    expect(JSON.stringify(events.map((e) => [e.data, e.metadata]))).not.toContain('binance-secret-value-1');
    expect(events[0].metadata).toMatchObject({ userId: uid, schemaVersion: 1 });
  });

  it('keeps users apart: another user\'s credential is 404, a foreign userId 403', async () => {
    const carol = new Client(t.app.url);
    const c = await carol.signUp('carol@example.com');
    const dave = new Client(t.app.url);
    const d = await dave.signUp('dave@example.com');
    const key = await carol.post('/api/api-credentials', { access: { ...binanceKey, userId: c.uid } });
    expect(key.status).toBe(201);

    expect((await dave.delete(`/api/api-credentials/${key.body.id}`)).status).toBe(404);
    expect((await dave.delete('/api/api-credentials/not-a-uuid')).status).toBe(404);
    expect((await dave.get(`/api/api-credentials/${c.uid}`)).status).toBe(403);
    const foreign = await dave.post('/api/api-credentials', { access: { ...binanceKey, userId: c.uid } });
    expect(foreign.status).toBe(403);
    expect((await dave.get(`/api/api-credentials/${d.uid}`)).body).toEqual([]);
    expect((await carol.get(`/api/api-credentials/${c.uid}`)).body).toEqual([{ id: key.body.id, exchange: 'Binance', apikeyid: 'binance-public-key-1' }]);
  });

  it('needs a session and the CSRF header', async () => {
    const anon = new Client(t.app.url);
    expect((await anon.post('/api/api-credentials', { access: binanceKey })).status).toBe(401);
    expect((await anon.get('/api/api-credentials/someone')).status).toBe(401);
    const eve = new Client(t.app.url);
    await eve.signUp('eve@example.com');
    expect((await eve.post('/api/api-credentials', { access: binanceKey }, { csrf: false })).status).toBe(403);
  });

  it('answers bad input with 400 and the spec\'s texts', async () => {
    const frank = new Client(t.app.url);
    const { uid } = await frank.signUp('frank@example.com');
    const post = (access: Record<string, unknown>) => frank.post('/api/api-credentials', { access: { ...binanceKey, userId: uid, ...access } });
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ apiKey: '' }, 'apiKey', 'API Key is required'],
      [{ apiKey: undefined }, 'apiKey', 'API Key is required'],
      [{ apiKey: 'abcd' }, 'apiKey', 'API key must be at least 5 characters'],
      [{ apiKey: 'a'.repeat(101) }, 'apiKey', 'API key must be at most 100 characters'],
      [{ keySecret: '' }, 'keySecret', 'Secret Key is required'],
      [{ keySecret: 'short-secret' .slice(0, 11) }, 'keySecret', 'Secret Key number must be at least 12 characters'],
      [{ keySecret: 's'.repeat(101) }, 'keySecret', 'Secret Key must be at most 100 characters'],
      [{ exchange: '' }, 'exchange', 'Exchange is required'],
      [{ exchange: 'B' }, 'exchange', 'Exchange must be at least 2 characters'],
      [{ exchange: 'x'.repeat(21) }, 'exchange', 'Exchange must be at most 20 characters'],
      [{ exchange: 'Kraken' }, 'exchange', 'Exchange must be Binance or Kucoin'],
      [{ exchange: 'Kucoin', passPhrase: 'abc' }, 'passPhrase', 'Passphrase must be at least 4 characters'],
      [{ exchange: 'Kucoin', passPhrase: 'p'.repeat(41) }, 'passPhrase', 'Passphrase must be at most 40 characters'],
    ];
    for (const [access, field, message] of cases) {
      const res = await post(access);
      expect({ access, status: res.status }).toEqual({ access, status: 400 });
      expect(res.body).toMatchObject({ statusCode: 400, errors: [{ field, message }] });
    }
    const all = await frank.post('/api/api-credentials', { access: {} });
    expect(all.status).toBe(400);
    expect(all.body.errors).toEqual([
      { field: 'exchange', message: 'Exchange is required' },
      { field: 'apiKey', message: 'API Key is required' },
      { field: 'keySecret', message: 'Secret Key is required' },
    ]);
    expect((await frank.post('/api/api-credentials', [1, 2])).status).toBe(400);
    expect((await frank.raw('POST', '/api/api-credentials', { body: '{"access": {', headers: { 'content-type': 'application/json' } })).status).toBe(400);
    // nothing was stored
    expect((await frank.get(`/api/api-credentials/${uid}`)).body).toEqual([]);
  });

  it('refuses a secret in the query string with 400, before anything else', async () => {
    const gina = new Client(t.app.url);
    const { uid } = await gina.signUp('gina@example.com');
    for (const q of ['keySecret=abcdefghijklm', 'apiKey=abcdef', 'passPhrase=abcd', 'secretKey=abcdefghijklm', 'secret=abcdefghijklm', 'access%5BkeySecret%5D=x']) {
      const res = await gina.post(`/api/api-credentials?userId=${uid}&exchange=Binance&${q}`, { access: { ...binanceKey, userId: uid } });
      expect({ q, status: res.status }).toEqual({ q, status: 400 });
      expect(res.body.message).toMatch(/only in the JSON body/);
      expect(res.text).not.toContain('abcd');
    }
    // also on GET routes and without a session
    expect((await new Client(t.app.url).get('/api/balanceSpot?exchange=Binance&secret=abcdefghijklm')).status).toBe(400);
    expect((await gina.get(`/api/api-credentials/${uid}`)).body).toEqual([]);
  });
});

describe('exchange routes, paper mode (default)', () => {
  const t = useTestApp();

  it('serves balances, prices and futures leverage from the user\'s paper account', async () => {
    const { c: hank, uid } = await signUpTrader(t.app.url, 'hank@example.com');
    for (const market of ['Spot', 'Futures']) {
      for (const exchange of ['Binance', 'Kucoin']) {
        const res = await hank.get(`/api/balance${market}?userId=${uid}&exchange=${exchange}`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual([{ symbol: 'USDT', exchange, balance: 10000, available: 10000 }]);
        const price = await hank.get(`/api/price${market}?symbol=BTCUSDT&exchange=${exchange}`);
        expect(price.status).toBe(200);
        expect(typeof price.body).toBe('number');
        expect(price.body).toBeGreaterThan(0);
        // the bare number of the spec, said to be JSON (issue 31: it came as text/html)
        expect(price.headers.get('content-type')).toMatch(/^application\/json(;|$)/);
        expect(JSON.parse(price.text)).toBe(price.body);
      }
    }
    const risk = await hank.get(`/api/futuresPositionRisk?userId=${uid}&exchange=Binance`);
    expect(risk.status).toBe(200);
    expect(Array.isArray(risk.body)).toBe(true);
    for (const r of risk.body) expect(Object.keys(r).sort()).toEqual(['leverage', 'symbol']);
    expect((await hank.get('/api/futuresPositionRisk')).status).toBe(200); // exchange defaults to Binance
  });

  it('validates the query and the user', async () => {
    const ivy = new Client(t.app.url);
    await ivy.signUp('ivy@example.com');
    expect((await ivy.get('/api/balanceSpot')).body).toMatchObject({ statusCode: 400, errors: [{ field: 'exchange', message: 'Exchange is required' }] });
    expect((await ivy.get('/api/balanceSpot?exchange=Kraken')).body).toMatchObject({ statusCode: 400, errors: [{ field: 'exchange', message: 'Exchange must be Binance or Kucoin' }] });
    expect((await ivy.get('/api/priceSpot?exchange=Binance')).status).toBe(400);
    expect((await ivy.get('/api/priceSpot?exchange=Binance&symbol=NOPEUSDT')).status).toBe(400);
    expect((await ivy.get('/api/priceSpot?exchange=Binance&symbol=btcusdt')).status).toBe(200);
    expect((await ivy.get('/api/balanceSpot?exchange=Binance&userId=someone-else')).status).toBe(403);
    expect((await ivy.get('/api/futuresPositionRisk?userId=someone-else')).status).toBe(403);
    expect((await new Client(t.app.url).get('/api/balanceSpot?exchange=Binance')).status).toBe(401);
  });
});

describe('exchange routes, live mode', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    // An origin where nothing listens: no call may leave the machine.
    app = await startTestApp({ EXCHANGE_MODE: 'live', EXCHANGE_API_ORIGIN: 'http://127.0.0.1:9' });
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers 409 with a clear message when the user has no API key for that exchange', async () => {
    const jack = new Client(app.url);
    const { uid } = await jack.signUp('jack@example.com');
    for (const path of [`/api/balanceSpot?userId=${uid}&exchange=Binance`, `/api/balanceFutures?exchange=Kucoin`, '/api/futuresPositionRisk?exchange=Binance']) {
      const res = await jack.get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 409 });
      expect(res.body.message).toMatch(/No API key is registered for (Binance|Kucoin)\. Add one on the security page first\./);
    }
  });
});

describe('exchange routes, live mode against a local stand-in for Binance', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  let stub: ExchangeStub;
  beforeAll(async () => {
    // like the real exchange, the stand-in refuses a signed call whose signature does not verify
    const fx = exchangeFixture('binance');
    const routes = Object.fromEntries(
      Object.entries(fx.routes).map(([route, handler]) => [
        route,
        (req: Parameters<typeof handler>[0]) => (req.headers['x-mbx-apikey'] && !verifySignature('binance', req) ? fx.errors.badKey : handler(req)),
      ]),
    );
    stub = await ExchangeStub.start(routes);
    app = await startTestApp({ EXCHANGE_MODE: 'live', EXCHANGE_API_ORIGIN: stub.origin });
  });
  afterAll(async () => {
    await app.close();
    await stub.close();
  });

  it('decrypts the key only to sign the exchange call; after a delete the key is gone (409 again)', async () => {
    const kate = new Client(app.url);
    const { uid } = await kate.signUp('kate@example.com');
    expect((await kate.get('/api/balanceSpot?exchange=Binance')).status).toBe(409);
    const key = await kate.post('/api/api-credentials', { access: { exchange: 'Binance', apiKey: STUB_KEY.apiKey, keySecret: STUB_KEY.secret, passPhrase: '', userId: uid } });
    expect(key.status).toBe(201);

    const balances = await kate.get(`/api/balanceSpot?userId=${uid}&exchange=Binance`);
    expect(balances.status).toBe(200);
    expect(balances.body.find((b: { symbol: string }) => b.symbol === 'USDT')).toMatchObject({ symbol: 'USDT', exchange: 'Binance', balance: expect.any(Number), available: expect.any(Number) });
    const signed = stub.requests.filter((r) => r.headers['x-mbx-apikey']);
    expect(signed.length).toBeGreaterThan(0);
    for (const r of signed) expect(verifySignature('binance', r)).toBe(true);
    // the secret itself never travels, only signatures made with it
    for (const r of stub.requests) expect(JSON.stringify(r)).not.toContain(STUB_KEY.secret);

    // prices are public: no key needed
    const otherUser = new Client(app.url);
    await otherUser.signUp('lena@example.com');
    const price = await otherUser.get('/api/priceSpot?symbol=BTCUSDT&exchange=Binance');
    expect(price.status).toBe(200);
    expect(typeof price.body).toBe('number');

    // a key the exchange refuses is a clear 409 that says so, not a retry storm or a 5xx
    const mallory = new Client(app.url);
    const m = await mallory.signUp('mallory@example.com');
    await mallory.post('/api/api-credentials', { access: { exchange: 'Binance', apiKey: STUB_KEY.apiKey, keySecret: 'not-the-right-secret-123', passPhrase: '', userId: m.uid } });
    const refused = await mallory.get('/api/balanceSpot?exchange=Binance');
    expect({ status: refused.status, message: refused.body.message }).toEqual({ status: 409, message: expect.stringMatching(/key/i) });

    expect((await kate.delete(`/api/api-credentials/${key.body.id}`)).status).toBe(204);
    const after = await kate.get('/api/balanceSpot?exchange=Binance');
    expect(after.status).toBe(409);
    expect(after.body.message).toMatch(/No API key is registered for Binance/);
  });
});
