import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@gridrocket/shared/runtime';
import { RunningApp, startApp } from '../apps/api/src/bootstrap';
import { Client, spotBot } from './support/http-client';
import { startTestApp } from './support/test-app';

/** Issue 11, finding 6: no X-Frame-Options or CSP frame-ancestors on the dashboard. */
describe('security: headers on every response', () => {
  let app: RunningApp;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gr-headers-'));
    const web = join(dir, 'web');
    mkdirSync(web);
    writeFileSync(join(web, 'index.html'), '<!doctype html><div id="root"></div><script type="module" src="/assets/app.js"></script>');
    app = await startApp(loadConfig({ DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', WEB_DIST: web }));
  }, 60_000);
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the dashboard, the API, errors and 404s all refuse framing and sniffing, with a CSP', async () => {
    const c = new Client(app.url);
    const answers = [
      await fetch(`${app.url}/`),
      await fetch(`${app.url}/bots`),
      await fetch(`${app.url}/index.html`),
      await fetch(`${app.url}/api/health`),
      await fetch(`${app.url}/api/auth/me`), // 401
      await fetch(`${app.url}/api/nowhere`), // 404
      await fetch(`${app.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{bad' }), // 400
    ];
    expect((await c.get('/bots')).status).toBe(200);
    for (const res of answers) {
      const where = `${res.url} ${res.status}`;
      const h = (name: string) => [where, res.headers.get(name)];
      expect(h('x-frame-options')).toEqual([where, 'DENY']);
      expect(h('x-content-type-options')).toEqual([where, 'nosniff']);
      expect(h('referrer-policy')).toEqual([where, 'no-referrer']);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect([where, csp]).toEqual([where, expect.stringContaining("frame-ancestors 'none'")]);
      expect([where, csp]).toEqual([where, expect.stringContaining("script-src 'self'")]);
      expect(h('strict-transport-security')).toEqual([where, null]); // plain HTTP: no HSTS
      await res.text();
    }
  }, 60_000);
});

describe('security: HSTS behind HTTPS', () => {
  it('COOKIE_SECURE=true adds Strict-Transport-Security', async () => {
    const app = await startTestApp({ COOKIE_SECURE: 'true' });
    try {
      const res = await fetch(`${app.url}/api/health`);
      expect(res.headers.get('strict-transport-security')).toMatch(/max-age=31536000/);
    } finally {
      await app.close();
    }
  }, 60_000);
});

/** Issue 11, finding 7: userId in the query, secrets in odd query spellings, quotas, retries. */
describe('security: smaller holes', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  let c: Client;
  let uid: string;
  let other: string;

  beforeAll(async () => {
    app = await startTestApp({ QUOTA_BOTS: '3', QUOTA_KEYS: '2', QUOTA_SESSIONS: '3' });
    c = new Client(app.url);
    uid = (await c.signUp('smaller@example.com')).uid;
    other = (await new Client(app.url).signUp('someone-else@example.com')).uid;
  }, 60_000);
  afterAll(async () => {
    await app.close();
  });

  it('a userId in the query string that is not the session user\'s is 403, even where the body has none', async () => {
    const bot = await c.post('/api/bots', { ...spotBot });
    expect(bot.status).toBe(201);
    const key = { access: { exchange: 'Binance', apiKey: 'smaller-key-00000001', keySecret: 'smaller-secret-000000001', passPhrase: '' } };
    const calls: Array<[string, Promise<{ status: number }>]> = [
      ['POST /api/api-credentials', c.post(`/api/api-credentials?userId=${other}`, key)],
      ['POST /api/bots', c.post(`/api/bots?userId=${other}`, { ...spotBot })],
      ['PUT /api/bots/{id}', c.put(`/api/bots/${bot.body.id}?userId=${other}`, { exchange: 'Binance', numOfOrders: 5, orderSize: '0.01', interval: 100, entryPrice: 60000, takeProfit: 1 })],
      ['DELETE /api/bots/{id}', c.raw('DELETE', `/api/bots/${bot.body.id}?userId=${other}`)],
      ['GET /api/bot-details/{id}', c.get(`/api/bot-details/${bot.body.id}?userId=${other}`)],
      ['GET /api/bots (page)', c.get(`/api/bots?userId=${other}`)],
      ['POST /api/user', c.post(`/api/user?userId=${other}`, { username: 'x' })],
      ['GET /api/startBot', c.get(`/api/startBot?id=${bot.body.id}&UserId=${other}`)],
      ['GET /api/balanceSpot', c.get(`/api/balanceSpot?exchange=Binance&user_id=${other}`)],
    ];
    for (const [name, p] of calls) expect([name, (await p).status]).toEqual([name, 403]);
    expect((await c.get(`/api/bot-details/${bot.body.id}?userId=${uid}`)).status).toBe(200);
    expect((await c.get(`/api/api-credentials/${uid}`)).body).toEqual([]);
    expect((await c.delete(`/api/bots/${bot.body.id}`)).status).toBe(204);
  }, 60_000);

  it('keySecret with a NUL, a space or a zero-width space in its name is refused like keySecret', async () => {
    for (const name of ['keySecret%00', 'keySecret%20', 'key%E2%80%8BSecret', 'KEY_SECRET', 'keySecret%09', 'pass%00Phrase']) {
      const res = await c.post(`/api/api-credentials?${name}=s3cr3t-value`, { access: { exchange: 'Binance', apiKey: 'smaller-key-00000002', keySecret: 'smaller-secret-000000002', passPhrase: '' } });
      expect([name, res.status]).toEqual([name, 400]);
      expect(res.text).not.toContain('s3cr3t-value');
    }
    expect((await c.get(`/api/api-credentials/${uid}`)).body).toEqual([]);
  }, 60_000);

  it('Idempotency-Key: the same create retried answers the same and creates one; another body with the key is 422', async () => {
    const send = (body: unknown, key: string) =>
      c.raw('POST', '/api/bots', { body: JSON.stringify(body), headers: { 'content-type': 'application/json', 'idempotency-key': key } });
    const first = await send({ ...spotBot }, 'retry-1');
    expect(first.status).toBe(201);
    const again = await send({ ...spotBot }, 'retry-1');
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const [x, y] = await Promise.all([send({ ...spotBot, numOfOrders: 4 }, 'retry-2'), send({ ...spotBot, numOfOrders: 4 }, 'retry-2')]);
    // two at once: one runs, the other waits its turn (409) or replays the same answer
    expect([x.status, y.status].sort()).toEqual(x.status === 201 && y.status === 201 ? [201, 201] : [201, 409]);
    if (x.status === 201 && y.status === 201) expect(y.body.id).toBe(x.body.id);
    const changed = await send({ ...spotBot, numOfOrders: 6 }, 'retry-1');
    expect(changed.status).toBe(422);
    expect(changed.body.message).toMatch(/Idempotency-Key was already used with a different request/);
    const bots = (await c.get(`/api/bots/${uid}`)).body as Array<{ id: string }>;
    expect(bots).toHaveLength(2);

    const key = { access: { exchange: 'Binance', apiKey: 'smaller-key-00000003', keySecret: 'smaller-secret-000000003', passPhrase: '' } };
    const k1 = await c.raw('POST', '/api/api-credentials', { body: JSON.stringify(key), headers: { 'content-type': 'application/json', 'idempotency-key': 'key-1' } });
    const k2 = await c.raw('POST', '/api/api-credentials', { body: JSON.stringify(key), headers: { 'content-type': 'application/json', 'idempotency-key': 'key-1' } });
    expect([k1.status, k2.status]).toEqual([201, 201]);
    expect(k2.body).toEqual(k1.body);
    expect((await c.get(`/api/api-credentials/${uid}`)).body).toHaveLength(1);
    // a bad key is a field message
    const bad = await c.raw('POST', '/api/bots', { body: JSON.stringify(spotBot), headers: { 'content-type': 'application/json', 'idempotency-key': 'a b' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: 'Idempotency-Key', message: 'Idempotency-Key must be 1 to 200 visible ASCII characters' }]);
    for (const b of bots) expect((await c.delete(`/api/bots/${b.id}`)).status).toBe(204);
  }, 60_000);

  it('quotas: bots, keys and sessions per user, with a clear 409; a paginated list beside the spec\'s', async () => {
    for (let i = 0; i < 3; i++) expect((await c.post('/api/bots', { ...spotBot, numOfOrders: i + 1 })).status).toBe(201);
    const fourth = await c.post('/api/bots', { ...spotBot });
    expect(fourth.status).toBe(409);
    expect(fourth.body.message).toBe('Limit reached: at most 3 bots per user. Delete a bot you no longer need before creating another.');
    expect((await c.get(`/api/bots/${uid}`)).body).toHaveLength(3);

    const page = await c.get('/api/bots?limit=2&offset=1');
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ total: 3, limit: 2, offset: 1 });
    expect(page.body.items.map((b: { numoforders: number }) => b.numoforders)).toEqual([2, 3]);
    expect((await c.get('/api/bots?limit=1000')).status).toBe(400);

    const key = (n: number) => ({ access: { exchange: 'Binance', apiKey: `quota-key-0000000${n}`, keySecret: `quota-secret-00000000${n}`, passPhrase: '' } });
    expect((await c.post('/api/api-credentials', key(2))).status).toBe(201); // the idempotency test left one
    const third = await c.post('/api/api-credentials', key(3));
    expect(third.status).toBe(409);
    expect(third.body.message).toMatch(/^Limit reached: at most 2 API keys per user\./);

    // sessions: the signup's, then two more; the fourth is refused until one signs out
    const logins = [];
    for (let i = 0; i < 3; i++) {
      const s = new Client(app.url);
      logins.push([s, (await s.post('/api/auth/login', { email: 'smaller@example.com', password: 'correct-horse-1' })).status] as const);
    }
    expect(logins.map(([, status]) => status)).toEqual([200, 200, 409]);
    expect((await logins[0][0].post('/api/auth/logout')).status).toBe(204);
    expect((await new Client(app.url).post('/api/auth/login', { email: 'smaller@example.com', password: 'correct-horse-1' })).status).toBe(200);
  }, 60_000);
});
