import { Client, spotBot } from './support/http-client';
import { useTraderApp } from './support/trader-app';
import { ROUTES_OF_ISSUES_30_TO_32, SIGNAL_ROUTE, changingState } from './support/security-routes';
import { readEventFile } from './support/event-file';

/**
 * Issue 11, finding 1: CSRF was decided from `req.path` as spelled, while routing ignored case and
 * trailing slashes, so `/API/bots`, `/api/STARTBOT`, `/api/stopBot/` changed state with the session
 * cookie alone. Every route of the OpenAPI document that changes state is tried without the token in
 * several spellings: none may change anything.
 */

describe('security: CSRF cannot be dodged by spelling the path', () => {
  let keyId: string;
  let tokenId: string;
  let templateId: string;
  const t = useTraderApp('csrf-victim@example.com', { bot: spotBot });
  beforeAll(async () => {
    const key = await t.c.post('/api/api-credentials', { access: { exchange: 'Binance', apiKey: 'victim-key-000000001', keySecret: 'victim-secret-0000000001', passPhrase: '', userId: t.uid } });
    expect(key.status).toBe(201);
    keyId = key.body.id;
    const token = await t.c.post('/api/tokens', { name: 'victim script', scopes: ['read'], expiresInDays: 30 });
    expect(token.status).toBe(201);
    tokenId = token.body.id;
    const template = await t.c.post('/api/bot-templates', { name: 'victim template', botId: t.botId });
    expect(template.status).toBe(201);
    templateId = template.body.id;
  });

  const head = (): Promise<bigint> => readEventFile(t.app.dataDir, (store) => store.headPosition());

  /** What an attacker's page makes the victim's browser send: the cookies ride along, no X-CSRF-Token. */
  function forged(method: string, url: string, body?: unknown) {
    return fetch(t.app.url + url, {
      method,
      redirect: 'manual',
      headers: { cookie: t.c.cookieHeader(), 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  /** The spellings an attacker tries: case, trailing slash, doubled slashes, percent-encoded letters. */
  function spellings(path: string): string[] {
    const [, first, rest] = /^\/api\/([^/]+)(.*)$/.exec(path)!;
    const encoded = first.replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16)}`);
    return [
      path,
      path.toUpperCase().replace(/%[0-9A-F]{2}/g, (m) => m),
      `/API/${first}${rest}`,
      `/Api/${first}${rest}`,
      `/api/${first.toUpperCase()}${rest}`,
      `/api/${first.toLowerCase()}${rest}`,
      `${path}/`,
      `/${path}`,
      `/api//${first}${rest}`,
      `/api/${encoded}${rest}`,
      `/%61pi/${first}${rest}`,
      `/api/${first}${rest}/.`,
      `/api/./${first}${rest}`,
    ];
  }

  it('every state-changing route of the OpenAPI document, in every spelling, without the token: nothing changes', async () => {
    const doc = (await t.c.get('/api/docs-json')).body as { paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }> }>> };
    const routes: Array<{ method: string; path: string }> = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const method of Object.keys(ops)) {
        const m = method.toUpperCase();
        if (m !== 'GET' || path === '/api/startBot' || path === '/api/stopBot') routes.push({ method: m, path });
      }
    }
    // the routes of the attack are among them
    expect(routes).toEqual(
      expect.arrayContaining([
        { method: 'POST', path: '/api/bots' },
        { method: 'PUT', path: '/api/bots/{id}' },
        { method: 'DELETE', path: '/api/bots/{id}' },
        { method: 'GET', path: '/api/startBot' },
        { method: 'GET', path: '/api/stopBot' },
        { method: 'POST', path: '/api/api-credentials' },
        { method: 'POST', path: '/api/user' },
        { method: 'POST', path: '/api/auth/logout' },
        // issues 30 to 32: sessions, two-factor, tokens, signals, templates
        ...changingState(ROUTES_OF_ISSUES_30_TO_32),
      ]),
    );

    const bodies: Record<string, unknown> = {
      '/api/bots': { ...spotBot, userId: t.uid },
      '/api/bots/{id}': { exchange: 'Binance', numOfOrders: 3, orderSize: 1, interval: 10, entryPrice: 100, takeProfit: 2 },
      '/api/api-credentials': { access: { exchange: 'Binance', apiKey: 'attacker-key-0000001', keySecret: 'attacker-secret-00000001', passPhrase: '', userId: t.uid } },
      '/api/user': { userId: t.uid, username: 'pwned' },
      '/api/auth/register': { email: 'csrf-new@example.com', password: 'correct-horse-1' },
      '/api/auth/login': { email: 'csrf-victim@example.com', password: 'correct-horse-1' },
      '/api/auth/2fa/enable': { code: '123456' },
      '/api/auth/2fa/disable': { code: '123456' },
      '/api/auth/2fa/verify': { code: '123456', remember: true },
      '/api/tokens': { name: 'forged', scopes: ['read', 'trade', 'keys'], expiresInDays: 365 },
      '/api/bot-templates': { name: 'forged', settings: { ...spotBot, numOfOrders: undefined, interval: undefined, entryPrice: undefined, lower: 50000, upper: 60000, levels: 5 } },
    };
    const before = await head();
    const seen: string[] = [];
    for (const { method, path } of routes) {
      const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => (/user/i.test(name) ? t.uid : path.startsWith('/api/api-credentials') ? keyId : path.startsWith('/api/tokens') ? tokenId : path.startsWith('/api/bot-templates') ? templateId : t.botId));
      const query = path === '/api/startBot' || path === '/api/stopBot' ? `?id=${t.botId}&userId=${t.uid}&cancelAllOrders=true` : '';
      for (const spelled of spellings(filled)) {
        const res = await forged(method, spelled + query, method === 'GET' || method === 'DELETE' ? undefined : (bodies[path] ?? {}));
        seen.push(`${method} ${spelled}${query} → ${res.status}`);
        await res.text();
        // never a success, never a server error
        expect({ call: `${method} ${spelled}`, ok: res.status < 200 || res.status >= 300, serverError: res.status >= 500 }).toEqual({
          call: `${method} ${spelled}`,
          ok: true,
          serverError: false,
        });
        // the path as the route spells it is refused for the missing token; the signal webhook alone takes
        // no token and reads no cookie (issue 32): a bot without a webhook is 404 there, nothing recorded
        const expected = path === SIGNAL_ROUTE ? 404 : 403;
        if (spelled === filled) expect({ call: `${method} ${spelled}`, status: res.status }).toEqual({ call: `${method} ${spelled}`, status: expected });
      }
    }
    expect(seen.length).toBeGreaterThan(100);
    expect(await head()).toBe(before);
    // the t.c is still signed in, with the bot and key as they were
    const bot = await t.c.get(`/api/bot-details/${t.botId}`);
    expect(bot.status).toBe(200);
    expect(bot.body).toMatchObject({ botstatus: false, numoforders: 5 });
    expect((await t.c.get(`/api/api-credentials/${t.uid}`)).body).toHaveLength(1);
    expect((await t.c.get('/api/tokens')).body.tokens.map((t: { id: string }) => t.id)).toEqual([tokenId]);
  }, 120_000);

  it('issue 31: an Authorization header does not lift CSRF for the cookie: beside the session cookie it is refused (400), and nothing changes', async () => {
    const before = await head();
    for (const [method, url, body] of [
      ['POST', '/api/bots', { ...spotBot, userId: t.uid }],
      ['GET', `/api/startBot?id=${t.botId}`, undefined],
      ['DELETE', `/api/bots/${t.botId}`, undefined],
      ['POST', '/api/tokens', { name: 'forged', scopes: ['read'], expiresInDays: 7 }],
      ['DELETE', `/api/tokens/${tokenId}`, undefined],
    ] as Array<[string, string, unknown]>) {
      for (const authorization of ['Bearer grt_' + 'A'.repeat(43), 'Bearer ', 'bearer x']) {
        const res = await fetch(t.app.url + url, {
          method,
          headers: { cookie: t.c.cookieHeader(), authorization, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        await res.text();
        expect({ call: `${method} ${url} ${authorization}`, status: res.status }).toEqual({ call: `${method} ${url} ${authorization}`, status: url.startsWith('/api/tokens') ? 403 : 400 });
      }
    }
    expect(await head()).toBe(before);
  }, 60_000);

  it('the spec\'s GET /api/startBot and /api/stopBot need the header like a POST; with it they work', async () => {
    expect((await t.c.get(`/api/startBot?id=${t.botId}`, { csrf: false })).status).toBe(403);
    expect((await t.c.get(`/api/stopBot?id=${t.botId}&cancelAllOrders=true`, { csrf: false })).status).toBe(403);
    expect((await t.c.get(`/api/startBot?id=${t.botId}`)).status).toBe(202);
    expect((await t.c.get(`/api/stopBot?id=${t.botId}`)).status).toBe(202);
  }, 60_000);

  it('issue 32: only the signal webhook goes without the CSRF header, and a session cookie there drives nothing', async () => {
    // the document: every state-changing operation needs the header but the signal webhook's
    const doc = (await t.c.get('/api/docs-json')).body as { paths: Record<string, Record<string, { security?: Array<Record<string, unknown>> }>> };
    const withoutCsrf: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const changing = method !== 'get' || path === '/api/startBot' || path === '/api/stopBot';
        if (changing && !(op.security ?? []).some((s) => 'csrf' in s)) withoutCsrf.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(withoutCsrf).toEqual([`POST ${SIGNAL_ROUTE}`]);
    // the t.c turns signals on for the bot (with the header, as the dashboard does)
    expect((await t.c.post(`/api/bots/${t.botId}/signals`, {})).status).toBe(201);
    const before = await head();
    // a page of another site makes the victim's browser post a signal: the cookies ride along, no signature
    for (const body of [JSON.stringify({ action: 'start' }), 'start', JSON.stringify({ action: 'start', id: 'forged-1', timestamp: Math.floor(Date.now() / 1000), secret: 'guess' })]) {
      for (const csrf of [false, true]) {
        const headers: Record<string, string> = { cookie: t.c.cookieHeader(), 'content-type': body.startsWith('{') ? 'application/json' : 'text/plain' };
        if (csrf) headers['x-csrf-token'] = t.c.csrf!;
        const res = await fetch(`${t.app.url}/api/signals/${t.botId}`, { method: 'POST', headers, body });
        await res.text();
        expect({ body, csrf, status: res.status }).toEqual({ body, csrf, status: body.includes('guess') ? 401 : 400 });
      }
    }
    // refusals are recorded in the bot's history (bounded); the bot was not started
    await readEventFile(t.app.dataDir, async (store) => {
      const written = await store.readAll({ fromPosition: before });
      expect([...new Set(written.map((e) => e.type))]).toEqual(['SignalRefused']);
    });
    expect((await t.c.get(`/api/bot-details/${t.botId}`)).body).toMatchObject({ botstatus: false });
    expect((await t.c.delete(`/api/bots/${t.botId}/signals`)).status).toBe(204);
  }, 60_000);

  it('routing is exact: other spellings are 404 even with the token', async () => {
    expect((await t.c.post('/api/bots', { ...spotBot, userId: t.uid })).status).toBe(201);
    for (const path of ['/API/bots', '/api/Bots', '/api/bots/', '//api/bots', '/api/%62ots']) {
      const res = await t.c.post(path, { ...spotBot, userId: t.uid });
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
    }
    expect((await t.c.get(`/api/STARTBOT?id=${t.botId}`)).status).toBe(404);
    expect((await t.c.get(`/api/bots/${t.uid}`)).body).toHaveLength(2);
  }, 60_000);
});
