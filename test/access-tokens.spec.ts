import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io } from 'socket.io-client';
import { loadConfig } from '@gridrocket/shared/runtime';
import { startApp } from '../apps/api/src/bootstrap';
import { AccessTokenService } from '@gridrocket/identity/nest';
import { Client, spotBot } from './support/http-client';
import { startTestApp } from './support/test-app';

/**
 * Issue 31, "Personal access tokens": a script drives a bot's whole life with a token made in the
 * dashboard, through a client built from the OpenAPI document (/api/docs-json) at test time.
 */

type Operation = { method: string; path: string; parameters: Array<{ name: string; in: string; required?: boolean }>; bearer: boolean };
type Call = { path?: Record<string, string>; query?: Record<string, string | number | boolean>; body?: unknown; headers?: Record<string, string> };
type Answer = { status: number; body: any; text: string; headers: Headers };

/**
 * A client generated from the document: one function per operationId, which fills the path template
 * from the document, sends the query and a JSON body, and authenticates with `Authorization: Bearer`
 * only (no cookie, no CSRF header: a script's request). A path parameter the template has but the call
 * lacks is an error of the caller, as in a generated client.
 */
function generateClient(doc: { paths: Record<string, Record<string, { operationId?: string; parameters?: Operation['parameters']; security?: Array<Record<string, string[]>> }>> }, baseUrl: string, token: () => string) {
  const ops = new Map<string, Operation>();
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      if (!op.operationId) continue;
      if (ops.has(op.operationId)) throw new Error(`operationId ${op.operationId} is not unique`);
      ops.set(op.operationId, { method: method.toUpperCase(), path, parameters: op.parameters ?? [], bearer: (op.security ?? []).some((req) => 'bearer' in req) });
    }
  }
  const call = async (operationId: string, args: Call = {}): Promise<Answer> => {
    const op = ops.get(operationId);
    if (!op) throw new Error(`no operation ${operationId} in the document`);
    // as a generated client: only the parameters the document declares, every required one
    for (const name of Object.keys(args.query ?? {})) {
      if (!op.parameters.some((p) => p.in === 'query' && p.name === name)) throw new Error(`${operationId} declares no query parameter ${name}`);
    }
    for (const p of op.parameters) if (p.in === 'query' && p.required && args.query?.[p.name] === undefined) throw new Error(`${operationId} needs the query parameter ${p.name}`);
    const url = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const v = args.path?.[name];
      if (v === undefined) throw new Error(`${operationId} needs the path parameter ${name}`);
      return encodeURIComponent(v);
    });
    const qs = new URLSearchParams(Object.entries(args.query ?? {}).map(([k, v]) => [k, String(v)] as [string, string])).toString();
    const headers: Record<string, string> = { authorization: `Bearer ${token()}`, ...(args.headers ?? {}) };
    if (args.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(baseUrl + url + (qs ? `?${qs}` : ''), { method: op.method, headers, body: args.body === undefined ? undefined : JSON.stringify(args.body) });
    const text = await res.text();
    let body: any;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    return { status: res.status, body, text, headers: res.headers };
  };
  /** The operationId of `METHOD /path` in the document (the test names routes as the product spec does). */
  const idOf = (route: string) => {
    const [method, path] = route.split(' ');
    const found = [...ops].find(([, op]) => op.method === method && op.path === path);
    if (!found) throw new Error(`${route} is not in the document`);
    return found[0];
  };
  /** Whether the document says the operation takes a personal access token (its `bearer` security). */
  const takesToken = (operationId: string) => ops.get(operationId)?.bearer === true;
  return { call, idOf, ops, takesToken };
}

describe('personal access tokens (issue 31)', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  let browser: Client;
  let uid: string;
  let doc: any;

  beforeAll(async () => {
    app = await startTestApp();
    browser = new Client(app.url);
    uid = (await browser.signUp('script-owner@example.com')).uid;
    doc = (await browser.get('/api/docs-json')).body;
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  async function makeToken(name: string, scopes: string[], expiresInDays = 30): Promise<{ id: string; token: string }> {
    const res = await browser.post('/api/tokens', { name, scopes, expiresInDays });
    expect(res.status).toBe(201);
    expect(res.body.token).toMatch(/^grt_[A-Za-z0-9_-]{43}$/);
    return res.body;
  }

  it('a token with read+trade (and keys for the exchange key) drives a paper bot through create, start, stop and delete; no CSRF header, no cookie', async () => {
    const { token } = await makeToken('grid script', ['read', 'trade', 'keys']);
    const api = generateClient(doc, app.url, () => token);
    // the document says which operations take a token (the same route metadata the guard reads)
    for (const route of ['POST /api/api-credentials', 'POST /api/bots', 'GET /api/startBot', 'GET /api/stopBot', 'DELETE /api/bots/{id}', 'GET /api/bots/{id}']) expect([route, api.takesToken(api.idOf(route))]).toEqual([route, true]);
    for (const route of ['GET /api/tokens', 'POST /api/tokens', 'GET /api/sessions']) expect([route, api.takesToken(api.idOf(route))]).toEqual([route, false]);

    // a bot starts only with a key for its exchange (the paper venue is the key's sandbox)
    const key = await api.call(api.idOf('POST /api/api-credentials'), { body: { access: { exchange: 'Binance', apiKey: 'script-binance-key-01', keySecret: 'script-secret-0123456789', passPhrase: '' } } });
    expect(key.status).toBe(201);

    const created = await api.call(api.idOf('POST /api/bots'), { body: { ...spotBot } });
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    expect(created.body).toMatchObject({ botstatus: false });

    const started = await api.call(api.idOf('GET /api/startBot'), { query: { id } });
    expect(started.status).toBe(202);
    // the start is accepted (202) and the runner takes it up: the script polls as a script would
    let running = await api.call(api.idOf('GET /api/bot-details/{id}'), { path: { id } });
    for (let i = 0; i < 100 && running.body?.state !== 'running'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      running = await api.call(api.idOf('GET /api/bot-details/{id}'), { path: { id } });
    }
    expect(running.status).toBe(200);
    expect(running.body).toMatchObject({ id, botstatus: true, state: 'running' });

    const stopped = await api.call(api.idOf('GET /api/stopBot'), { query: { id, cancelAllOrders: true } });
    expect(stopped.status).toBe(202);
    let after = await api.call(api.idOf('GET /api/bot-details/{id}'), { path: { id } });
    for (let i = 0; i < 100 && after.body?.state !== 'stopped'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      after = await api.call(api.idOf('GET /api/bot-details/{id}'), { path: { id } });
    }
    expect(after.body).toMatchObject({ botstatus: false, state: 'stopped' });

    const removed = await api.call(api.idOf('DELETE /api/bots/{id}'), { path: { id } });
    expect(removed.status).toBeLessThan(300);
    expect((await api.call(api.idOf('GET /api/bot-details/{id}'), { path: { id } })).status).toBe(404);
    // the browser sees what the script did
    expect((await browser.get(`/api/bots/${uid}`)).body).toHaveLength(0);
  }, 60_000);

  it('the list shows the token with its last use and count; no GET ever carries the secret', async () => {
    const { id, token } = await makeToken('poller', ['read']);
    const api = generateClient(doc, app.url, () => token);
    expect((await api.call(api.idOf('GET /api/bots/{id}'), { path: { id: uid } })).status).toBe(200);
    const listed = await browser.get('/api/tokens');
    expect(listed.status).toBe(200);
    const mine = listed.body.tokens.find((t: any) => t.id === id);
    expect(mine).toMatchObject({ name: 'poller', scopes: ['read'], expired: false, useCount: 1 });
    expect(Date.parse(mine.lastUsedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(Math.abs(Date.parse(mine.expiresAt) - Date.parse(mine.createdAt) - 30 * 86_400_000)).toBeLessThan(60_000);
    // neither the token nor any part of its random body, in the list or anywhere a GET reaches
    const secret = token.slice('grt_'.length);
    for (const path of ['/api/tokens', '/api/auth/me', `/api/bots/${uid}`, '/api/sessions']) {
      const res = await browser.get(path);
      expect({ path, leaks: res.text.includes(secret) || res.text.includes(secret.slice(0, 16)) }).toEqual({ path, leaks: false });
    }
    // nor does the digest-keyed document leak the digest: the list holds only what the page shows
    expect(Object.keys(mine).sort()).toEqual(['createdAt', 'expired', 'expiresAt', 'id', 'lastUsedAt', 'name', 'scopes', 'useCount']);
  }, 30_000);

  it('a token without the trade scope cannot start a bot (403); it can read', async () => {
    await browser.addKey(uid, 'Binance');
    const bot = await browser.post('/api/bots', { ...spotBot });
    expect(bot.status).toBe(201);
    const { token } = await makeToken('read only', ['read']);
    const api = generateClient(doc, app.url, () => token);
    const refused = await api.call(api.idOf('GET /api/startBot'), { query: { id: bot.body.id } });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/trade scope/);
    expect(refused.headers.get('www-authenticate')).toMatch(/insufficient_scope/);
    expect((await api.call(api.idOf('POST /api/bots'), { body: { ...spotBot } })).status).toBe(403);
    // nor reach the keys without the keys scope
    expect((await api.call(api.idOf('GET /api/api-credentials/{id}'), { path: { id: uid } })).status).toBe(403);
    expect((await api.call(api.idOf('GET /api/bot-details/{id}'), { path: { id: bot.body.id } })).body).toMatchObject({ botstatus: false });
  }, 30_000);

  it('a revoked token is refused (401) at once', async () => {
    const { id, token } = await makeToken('to revoke', ['read', 'trade']);
    const api = generateClient(doc, app.url, () => token);
    expect((await api.call(api.idOf('GET /api/bots/{id}'), { path: { id: uid } })).status).toBe(200);
    expect((await browser.delete(`/api/tokens/${id}`)).status).toBe(204);
    const refused = await api.call(api.idOf('GET /api/bots/{id}'), { path: { id: uid } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/invalid_token/);
    expect((await browser.get('/api/tokens')).body.tokens.map((t: any) => t.id)).not.toContain(id);
    expect((await browser.delete(`/api/tokens/${id}`)).status).toBe(404);
  }, 30_000);

  it('an expired token is refused (401) and shown as expired', async () => {
    const { id, token } = await makeToken('a week', ['read'], 7);
    const api = generateClient(doc, app.url, () => token);
    expect((await api.call(api.idOf('GET /api/bots/{id}'), { path: { id: uid } })).status).toBe(200);
    const service = app.app.get(AccessTokenService);
    const realNow = service.now;
    service.now = () => Date.now() + 7 * 86_400_000 + 1_000; // the clock a week and a second on
    try {
      expect((await api.call(api.idOf('GET /api/bots/{id}'), { path: { id: uid } })).status).toBe(401);
      expect((await browser.get('/api/tokens')).body.tokens.find((t: any) => t.id === id)).toMatchObject({ expired: true });
    } finally {
      service.now = realNow;
    }
  }, 30_000);

  it('a bearer request carrying the session cookie too is refused (400); tokens cannot manage tokens, sessions or two-factor, nor open the push socket', async () => {
    const { token } = await makeToken('everything', ['read', 'trade', 'keys']);
    const both = await fetch(`${app.url}/api/bots/${uid}`, { headers: { authorization: `Bearer ${token}`, cookie: browser.cookieHeader() } });
    expect(both.status).toBe(400);
    expect(await both.json()).toMatchObject({ errors: [{ field: 'authorization' }] });
    const api = generateClient(doc, app.url, () => token);
    for (const [route, args] of [
      ['GET /api/tokens', {}],
      ['POST /api/tokens', { body: { name: 'minted by a token', scopes: ['read'], expiresInDays: 7 } }],
      ['DELETE /api/tokens/{id}', { path: { id: '00000000-0000-4000-8000-000000000000' } }],
      ['GET /api/sessions', {}],
      ['POST /api/sessions/sign-out-others', {}],
      ['GET /api/auth/2fa', {}],
      ['POST /api/auth/2fa/setup', {}],
    ] as Array<[string, Call]>) {
      const res = await api.call(api.idOf(route), args);
      // state-changing ones meet the CSRF check first (a token does not lift it where tokens are refused)
      expect({ route, status: res.status }).toEqual({ route, status: route.startsWith('GET') ? 401 : 403 });
    }
    expect((await browser.get('/api/tokens')).body.tokens.map((t: any) => t.name)).not.toContain('minted by a token');
    // the push socket takes the session cookie only
    const refused = await new Promise<string>((resolve) => {
      const s = io(app.url, { path: '/socket.io', transports: ['websocket'], extraHeaders: { authorization: `Bearer ${token}`, origin: app.url }, reconnection: false });
      s.once('ready', () => {
        s.close();
        resolve('opened');
      });
      s.once('connect_error', () => resolve('refused'));
      s.once('disconnect', () => resolve('refused'));
    });
    expect(refused).toBe('refused');
  }, 30_000);

  it('tokens are made only from a signed-in browser with the CSRF header; bad input is a 400 with fields; at most 10 live tokens', async () => {
    expect((await browser.post('/api/tokens', { name: 'x', scopes: ['read'], expiresInDays: 30 }, { csrf: false })).status).toBe(403);
    const anonymous = new Client(app.url);
    expect((await anonymous.post('/api/tokens', { name: 'x', scopes: ['read'], expiresInDays: 30 })).status).toBe(401);
    const bad = await browser.post('/api/tokens', { name: '', scopes: ['admin'], expiresInDays: 3 });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => e.field).sort()).toEqual(['expiresInDays', 'name', 'scopes.0']);
    expect((await browser.post('/api/tokens', { name: 'x', scopes: [], expiresInDays: 30 })).body.errors).toEqual([{ field: 'scopes', message: 'Choose at least one scope' }]);

    const other = new Client(app.url);
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
    expect((await browser.delete(`/api/tokens/${(await other.get('/api/tokens')).body.tokens[0].id}`)).status).toBe(404);
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
