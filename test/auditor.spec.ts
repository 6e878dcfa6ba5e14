import { Client, spotBot } from './support/http-client';
import { verifyByMail } from './support/mailbox';
import { useTraderApp } from './support/trader-app';
import { readEventFile } from './support/event-file';

/** The auditor role: any bot's history and state, and 403 on every state-changing route. */
describe('auditors', () => {
  let auditor: Client;
  let auditorUid: string;
  const t = useTraderApp('aud-trader@example.com', { env: { AUDITOR_EMAILS: 'someone-else@example.com, Audrey@Example.com' }, key: true, bot: spotBot });
  beforeAll(async () => {
    auditor = new Client(t.app.url);
    auditorUid = (await auditor.signUp('audrey@example.com')).uid;
    // The role needs a verified address (issue 11).
    await verifyByMail(auditor, t.app.dataDir, 'audrey@example.com');
  });

  const head = (): Promise<bigint> => readEventFile(t.app.dataDir, (store) => store.headPosition());

  it('reads any bot\'s history and state, in every format', async () => {
    const history = await auditor.get(`/api/bots/${t.botId}/history`);
    expect(history.status).toBe(200);
    expect(history.body.map((e: any) => e.type)).toEqual(['BotCreated']);
    expect(history.body[0].metadata.userId).toBe(t.uid);
    expect((await auditor.get(`/api/bots/${t.botId}/history?format=csv`)).status).toBe(200);
    expect((await auditor.get(`/api/bots/${t.botId}/history?format=ndjson`)).status).toBe(200);
    const state = await auditor.get(`/api/bots/${t.botId}/state`);
    expect(state.status).toBe(200);
    expect(state.body.view).toMatchObject({ id: t.botId, userid: t.uid });
    // a missing bot is still 404
    expect((await auditor.get('/api/bots/00000000-0000-4000-8000-000000000000/history')).status).toBe(404);
  });

  it('gets 403 on every state-changing route of the API, and nothing is written', async () => {
    const spec = (await auditor.get('/api/docs-json')).body as { paths: Record<string, Record<string, unknown>> };
    expect(spec.paths).toBeDefined();
    const calls: { method: string; path: string }[] = [];
    for (const [path, ops] of Object.entries(spec.paths)) {
      for (const method of Object.keys(ops)) {
        const m = method.toUpperCase();
        const unsafe = !['GET', 'HEAD', 'OPTIONS'].includes(m) || path === '/api/startBot' || path === '/api/stopBot';
        // the auditor's own account: signing in and out, and verifying the address the role needs
        if (!unsafe || ['/api/auth/login', '/api/auth/logout', '/api/auth/verify-email', '/api/auth/resend-verification'].includes(path)) continue;
        calls.push({ method: m, path });
      }
    }
    // the bot routes are certainly among them
    expect(calls).toEqual(expect.arrayContaining([
      { method: 'POST', path: '/api/bots' },
      { method: 'PUT', path: '/api/bots/{id}' },
      { method: 'DELETE', path: '/api/bots/{id}' },
      { method: 'GET', path: '/api/startBot' },
      { method: 'GET', path: '/api/stopBot' },
    ]));
    const before = await head();
    const bodies: Record<string, unknown> = {
      '/api/bots': { ...spotBot, userId: auditorUid },
      '/api/bots/{id}': { exchange: 'Binance', numOfOrders: 1, orderSize: 1, interval: 1, entryPrice: 1, takeProfit: 1 },
    };
    for (const call of calls) {
      const path = call.path.replace(/\{[^}]+\}/g, (p) => (/user/i.test(p) ? auditorUid : t.botId));
      const query = call.path === '/api/startBot' || call.path === '/api/stopBot' ? `?id=${t.botId}&userId=${auditorUid}` : '';
      const res = await auditor.raw(call.method, path + query, {
        body: call.method === 'GET' || call.method === 'DELETE' ? undefined : JSON.stringify(bodies[call.path] ?? {}),
        headers: { 'content-type': 'application/json' },
      });
      expect({ ...call, status: res.status }).toEqual({ ...call, status: 403 });
      expect(res.body.message).toBe('Auditors can read histories but cannot change anything');
    }
    expect(await head()).toBe(before);
    // the trader's bot is untouched
    expect((await t.c.get(`/api/bot-details/${t.botId}`)).body).toMatchObject({ botstatus: false, numoforders: 5 });
  });

  it('may still sign out and in', async () => {
    expect((await auditor.post('/api/auth/logout')).status).toBe(204);
    const login = await auditor.post('/api/auth/login', { email: 'audrey@example.com', password: 'correct-horse-1' });
    expect(login.status).toBe(200);
    expect((await auditor.get(`/api/bots/${t.botId}/history`)).status).toBe(200);
  });

  it('is not an auditor unless listed: a t.c keeps changing their own bots and reading only theirs', async () => {
    const other = new Client(t.app.url);
    const o = await other.signUp('aud-other@example.com');
    expect((await other.get(`/api/bots/${t.botId}/history`)).status).toBe(404);
    expect((await other.get(`/api/bots/${t.botId}/state`)).status).toBe(404);
    const own = await other.post('/api/bots', { ...spotBot, userId: o.uid });
    expect(own.status).toBe(201);
    expect((await other.get(`/api/bots/${own.body.id}/history`)).status).toBe(200);
    // the auditor reads it too
    expect((await auditor.get(`/api/bots/${own.body.id}/history`)).status).toBe(200);
  });
});
