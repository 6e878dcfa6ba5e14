import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io } from 'socket.io-client';
import { loadConfig } from '@gridrocket/shared/runtime';
import { startApp } from '../apps/api/src/bootstrap';
import { AccessTokenService } from '@gridrocket/identity/nest';
import { createGridRocketClient, type GridRocketClient } from '../clients/typescript/client';
import { Client, spotBot } from './support/http-client';
import { useTraderApp } from './support/trader-app';

/**
 * Issue 31, "Personal access tokens": a script drives a bot's whole life with a token made in the
 * dashboard, through the TypeScript client generated from the OpenAPI document
 * (clients/typescript: openapi-typescript's types, openapi-fetch's typed fetch; test/generated-client.spec.ts
 * checks that the committed types are what the running app's document generates). The compiler
 * checks every call below against the document (`npm run typecheck`).
 */

type Doc = { paths: Record<string, Record<string, { security?: Array<Record<string, string[]>> }>> };

/** Whether the document says `METHOD /path` takes a personal access token (its `bearer` security). */
const takesToken = (doc: Doc, route: string) => {
  const [method, path] = route.split(' ');
  const op = doc.paths[path]?.[method.toLowerCase()];
  if (!op) throw new Error(`${route} is not in the document`);
  return (op.security ?? []).some((req) => 'bearer' in req);
};

/** The spec's spot bot as a script sends it: the document's types (numbers as numbers, botType from its enum). */
const scriptBot = {
  exchange: spotBot.exchange,
  symbol: spotBot.symbol,
  botType: 'Spot' as const,
  numOfOrders: spotBot.numOfOrders,
  orderSize: Number(spotBot.orderSize),
  interval: spotBot.interval,
  entryPrice: spotBot.entryPrice,
  takeProfit: spotBot.takeProfit,
};

/** A script polls a bot's state as a script would (the start and stop are accepted with 202, the runner takes them up). */
async function waitForState(api: GridRocketClient, id: string, state: string) {
  let details = await api.GET('/api/bot-details/{id}', { params: { path: { id } } });
  for (let i = 0; i < 100 && details.data?.state !== state; i++) {
    await new Promise((r) => setTimeout(r, 100));
    details = await api.GET('/api/bot-details/{id}', { params: { path: { id } } });
  }
  return details;
}

describe('personal access tokens (issue 31)', () => {
  let doc: Doc;
  const t = useTraderApp('script-owner@example.com');
  beforeAll(async () => {
    doc = (await t.c.get('/api/docs-json')).body;
  });

  async function makeToken(name: string, scopes: string[], expiresInDays = 30): Promise<{ id: string; token: string }> {
    const res = await t.c.post('/api/tokens', { name, scopes, expiresInDays });
    expect(res.status).toBe(201);
    expect(res.body.token).toMatch(/^grt_[A-Za-z0-9_-]{43}$/);
    return res.body;
  }

  it('a token with read+trade (and keys for the exchange key) drives a paper bot through create, start, stop and delete with the generated client; no CSRF header, no cookie', async () => {
    const { token } = await makeToken('grid script', ['read', 'trade', 'keys']);
    const api = createGridRocketClient(t.app.url, token);
    // the document says which operations take a token (the same route metadata the guard reads)
    for (const route of ['POST /api/api-credentials', 'POST /api/bots', 'GET /api/startBot', 'GET /api/stopBot', 'DELETE /api/bots/{id}', 'GET /api/bots/{id}']) expect([route, takesToken(doc, route)]).toEqual([route, true]);
    for (const route of ['GET /api/tokens', 'POST /api/tokens', 'GET /api/sessions']) expect([route, takesToken(doc, route)]).toEqual([route, false]);

    // a bot starts only with a key for its exchange (the paper venue is the key's sandbox)
    const key = await api.POST('/api/api-credentials', { body: { access: { exchange: 'Binance', apiKey: 'script-binance-key-01', keySecret: 'script-secret-0123456789', passPhrase: '' } } });
    expect(key.response.status).toBe(201);

    const created = await api.POST('/api/bots', { body: scriptBot });
    expect(created.response.status).toBe(201);
    const id = created.data!.id;
    expect(created.data).toMatchObject({ botstatus: false });

    const started = await api.GET('/api/startBot', { params: { query: { id } } });
    expect(started.response.status).toBe(202);
    const running = await waitForState(api, id, 'running');
    expect(running.response.status).toBe(200);
    expect(running.data).toMatchObject({ id, botstatus: true, state: 'running' });

    const stopped = await api.GET('/api/stopBot', { params: { query: { id, cancelAllOrders: true } } });
    expect(stopped.response.status).toBe(202);
    expect((await waitForState(api, id, 'stopped')).data).toMatchObject({ botstatus: false, state: 'stopped' });

    const removed = await api.DELETE('/api/bots/{id}', { params: { path: { id } } });
    expect(removed.response.status).toBeLessThan(300);
    const gone = await api.GET('/api/bot-details/{id}', { params: { path: { id } } });
    expect(gone.response.status).toBe(404);
    expect(gone.error).toMatchObject({ statusCode: 404 });
    // the t.c sees what the script did
    expect((await t.c.get(`/api/bots/${t.uid}`)).body).toHaveLength(0);
  }, 60_000);

  it('the list shows the token with its last use and count; no GET ever carries the secret', async () => {
    const { id, token } = await makeToken('poller', ['read']);
    const api = createGridRocketClient(t.app.url, token);
    expect((await api.GET('/api/bots/{id}', { params: { path: { id: t.uid } } })).response.status).toBe(200);
    const listed = await t.c.get('/api/tokens');
    expect(listed.status).toBe(200);
    const mine = listed.body.tokens.find((t: any) => t.id === id);
    expect(mine).toMatchObject({ name: 'poller', scopes: ['read'], expired: false, useCount: 1 });
    expect(Date.parse(mine.lastUsedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(Math.abs(Date.parse(mine.expiresAt) - Date.parse(mine.createdAt) - 30 * 86_400_000)).toBeLessThan(60_000);
    // neither the token nor any part of its random body, in the list or anywhere a GET reaches
    const secret = token.slice('grt_'.length);
    for (const path of ['/api/tokens', '/api/auth/me', `/api/bots/${t.uid}`, '/api/sessions']) {
      const res = await t.c.get(path);
      expect({ path, leaks: res.text.includes(secret) || res.text.includes(secret.slice(0, 16)) }).toEqual({ path, leaks: false });
    }
    // nor does the digest-keyed document leak the digest: the list holds only what the page shows
    expect(Object.keys(mine).sort()).toEqual(['createdAt', 'expired', 'expiresAt', 'id', 'lastUsedAt', 'name', 'scopes', 'useCount']);
  }, 30_000);

  it('a token without the trade scope cannot start a bot (403); it can read', async () => {
    await t.c.addKey(t.uid, 'Binance');
    const bot = await t.c.post('/api/bots', { ...spotBot });
    expect(bot.status).toBe(201);
    const { token } = await makeToken('read only', ['read']);
    const api = createGridRocketClient(t.app.url, token);
    const refused = await api.GET('/api/startBot', { params: { query: { id: bot.body.id } } });
    expect(refused.response.status).toBe(403);
    expect(refused.error?.message).toMatch(/trade scope/);
    expect(refused.response.headers.get('www-authenticate')).toMatch(/insufficient_scope/);
    expect((await api.POST('/api/bots', { body: scriptBot })).response.status).toBe(403);
    // nor reach the keys without the keys scope
    expect((await api.GET('/api/api-credentials/{id}', { params: { path: { id: t.uid } } })).response.status).toBe(403);
    expect((await api.GET('/api/bot-details/{id}', { params: { path: { id: bot.body.id } } })).data).toMatchObject({ botstatus: false });
  }, 30_000);

  it('a revoked token is refused (401) at once', async () => {
    const { id, token } = await makeToken('to revoke', ['read', 'trade']);
    const api = createGridRocketClient(t.app.url, token);
    expect((await api.GET('/api/bots/{id}', { params: { path: { id: t.uid } } })).response.status).toBe(200);
    expect((await t.c.delete(`/api/tokens/${id}`)).status).toBe(204);
    const refused = await api.GET('/api/bots/{id}', { params: { path: { id: t.uid } } });
    expect(refused.response.status).toBe(401);
    expect(refused.response.headers.get('www-authenticate')).toMatch(/invalid_token/);
    expect((await t.c.get('/api/tokens')).body.tokens.map((t: any) => t.id)).not.toContain(id);
    expect((await t.c.delete(`/api/tokens/${id}`)).status).toBe(404);
  }, 30_000);

  it('an expired token is refused (401) and shown as expired', async () => {
    const { id, token } = await makeToken('a week', ['read'], 7);
    const api = createGridRocketClient(t.app.url, token);
    expect((await api.GET('/api/bots/{id}', { params: { path: { id: t.uid } } })).response.status).toBe(200);
    const service = t.app.app.get(AccessTokenService);
    const realNow = service.now;
    service.now = () => Date.now() + 7 * 86_400_000 + 1_000; // the clock a week and a second on
    try {
      expect((await api.GET('/api/bots/{id}', { params: { path: { id: t.uid } } })).response.status).toBe(401);
      expect((await t.c.get('/api/tokens')).body.tokens.find((t: any) => t.id === id)).toMatchObject({ expired: true });
    } finally {
      service.now = realNow;
    }
  }, 30_000);

  it('a bearer request carrying the session cookie too is refused (400); tokens cannot manage tokens, sessions or two-factor, nor open the push socket', async () => {
    const { token } = await makeToken('everything', ['read', 'trade', 'keys']);
    const both = await fetch(`${t.app.url}/api/bots/${t.uid}`, { headers: { authorization: `Bearer ${token}`, cookie: t.c.cookieHeader() } });
    expect(both.status).toBe(400);
    expect(await both.json()).toMatchObject({ errors: [{ field: 'authorization' }] });
    const api = createGridRocketClient(t.app.url, token);
    const none = '00000000-0000-4000-8000-000000000000';
    const attempts: Array<[string, Promise<{ response: Response }>]> = [
      ['GET /api/tokens', api.GET('/api/tokens')],
      ['POST /api/tokens', api.POST('/api/tokens', { body: { name: 'minted by a token', scopes: ['read'], expiresInDays: 7 } })],
      ['DELETE /api/tokens/{id}', api.DELETE('/api/tokens/{id}', { params: { path: { id: none } } })],
      ['GET /api/sessions', api.GET('/api/sessions')],
      ['POST /api/sessions/sign-out-others', api.POST('/api/sessions/sign-out-others')],
      ['GET /api/auth/2fa', api.GET('/api/auth/2fa')],
      ['POST /api/auth/2fa/setup', api.POST('/api/auth/2fa/setup')],
    ];
    for (const [route, attempt] of attempts) {
      const { response } = await attempt;
      // state-changing ones meet the CSRF check first (a token does not lift it where tokens are refused)
      expect({ route, status: response.status }).toEqual({ route, status: route.startsWith('GET') ? 401 : 403 });
    }
    expect((await t.c.get('/api/tokens')).body.tokens.map((t: any) => t.name)).not.toContain('minted by a token');
    // the push socket takes the session cookie only
    const refused = await new Promise<string>((resolve) => {
      const s = io(t.app.url, { path: '/socket.io', transports: ['websocket'], extraHeaders: { authorization: `Bearer ${token}`, origin: t.app.url }, reconnection: false });
      s.once('ready', () => {
        s.close();
        resolve('opened');
      });
      s.once('connect_error', () => resolve('refused'));
      s.once('disconnect', () => resolve('refused'));
    });
    expect(refused).toBe('refused');
  }, 30_000);

  it('tokens are made only from a signed-in t.c with the CSRF header; bad input is a 400 with fields; at most 10 live tokens', async () => {
    expect((await t.c.post('/api/tokens', { name: 'x', scopes: ['read'], expiresInDays: 30 }, { csrf: false })).status).toBe(403);
    const anonymous = new Client(t.app.url);
    expect((await anonymous.post('/api/tokens', { name: 'x', scopes: ['read'], expiresInDays: 30 })).status).toBe(401);
    const bad = await t.c.post('/api/tokens', { name: '', scopes: ['admin'], expiresInDays: 3 });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => e.field).sort()).toEqual(['expiresInDays', 'name', 'scopes.0']);
    expect((await t.c.post('/api/tokens', { name: 'x', scopes: [], expiresInDays: 30 })).body.errors).toEqual([{ field: 'scopes', message: 'Choose at least one scope' }]);

    const other = new Client(t.app.url);
    await other.signUp('quota-owner@example.com');
    for (let i = 0; i < 10; i++) expect((await other.post('/api/tokens', { name: `t${i}`, scopes: ['read'], expiresInDays: 7 })).status).toBe(201);
    const eleventh = await other.post('/api/tokens', { name: 't10', scopes: ['read'], expiresInDays: 7 });
    expect(eleventh.status).toBe(409);
    expect(eleventh.body.message).toMatch(/revoke one/);
    // revoking one makes room
    const first = (await other.get('/api/tokens')).body.tokens[0].id;
    expect((await other.delete(`/api/tokens/${first}`)).status).toBe(204);
    expect((await other.post('/api/tokens', { name: 't10', scopes: ['read'], expiresInDays: 7 })).status).toBe(201);
    // one user's token id means nothing to another
    expect((await t.c.delete(`/api/tokens/${(await other.get('/api/tokens')).body.tokens[0].id}`)).status).toBe(404);
  }, 60_000);
});

describe('personal access tokens of an auditor (issue 31)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gr-pat-auditor-'));
  const start = (env: Record<string, string> = {}) =>
    startApp(loadConfig({ ...env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', WEB_DIST: join(dataDir, 'no-web') }));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("an auditor makes no token; a token made before the address became an auditor's is read-only like the auditor's session", async () => {
    // made while the address was an ordinary user's
    let app = await start();
    const user = new Client(app.url);
    await user.signUp('auditor@example.com');
    const made = await user.post('/api/tokens', { name: 'audit script', scopes: ['read', 'trade'], expiresInDays: 7 });
    expect(made.status).toBe(201);
    await app.close();
    // the operator lists the address as an auditor's and restarts
    app = await start({ AUDITOR_EMAILS: 'auditor@example.com' });
    try {
      const res = await fetch(`${app.url}/api/bots`, { method: 'POST', headers: { authorization: `Bearer ${made.body.token}`, 'content-type': 'application/json' }, body: JSON.stringify(spotBot) });
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ message: 'Auditors can read histories but cannot change anything' });
      const auditor = new Client(app.url);
      const signedIn = await auditor.post('/api/auth/login', { email: 'auditor@example.com', password: 'correct-horse-1' });
      expect(signedIn.status).toBe(200);
      expect((await auditor.post('/api/tokens', { name: 'another', scopes: ['read'], expiresInDays: 7 })).status).toBe(403);
      expect((await auditor.get('/api/bots')).body).toMatchObject({ total: 0 });
    } finally {
      await app.close();
    }
  }, 60_000);
});
