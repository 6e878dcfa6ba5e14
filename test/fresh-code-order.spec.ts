import { until } from '@gridrocket/shared/testing/until';
import { Authenticator } from './support/authenticator';
import { Client, spotBot } from './support/http-client';
import { startTestApp } from './support/test-app';

/**
 * Issue 40, point 13: an action that will be refused is refused before the two-factor code is asked for or
 * spent. Before, FreshCodeGuard used the code up before the route's own checks ran, so deleting a key a bot
 * uses, or saving a webhook on a loopback address, spent the code and the corrected request had to wait
 * for the next one (up to 30 s). For every operation of the API document that takes `X-TOTP` (the routes
 * behind FreshCodeGuard), with two-factor sign-in on:
 *   1. the refused request without a code gets its refusal (400/404/409), not "enter a code";
 *   2. with a code, the same refusal, and the code is not spent:
 *   3. the corrected request without a code is 403 `totp` (the route does confirm with the code),
 *   4. with the same code it succeeds,
 *   5. and that code is then used (another action with it is 403 "already used").
 * One account per route: each spends two codes (enabling, then the route's), so no test waits for a step.
 */
jest.setTimeout(240_000);

const PASSWORD = 'correct-horse-1';
const USED = 'That code was already used. Wait for the next code in your authenticator app';

type Call = { method: string; path: string; body?: unknown };
type Prepared = { refused: Call; refusedStatus: number; refusedField?: string; between?: () => Promise<void>; valid: Call; okStatus: number };

describe('refusals come before the two-factor code (issue 40, point 13)', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  let n = 0;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  /**
   * A new account with two-factor sign-in on (its enabling code spent): the client, its uid, its
   * authenticator, and what `before` made while 2FA was still off (so the route's code is the second).
   */
  async function enrolled<T = undefined>(before?: (c: Client, uid: string) => Promise<T>) {
    const c = new Client(app.url);
    const email = `fresh-${++n}@example.com`;
    const { uid } = await c.signUp(email, PASSWORD);
    const made = before ? await before(c, uid) : (undefined as T);
    const setup = await c.post('/api/auth/2fa/setup');
    expect(setup.status).toBe(200);
    const auth = new Authenticator(setup.body.secret);
    expect((await c.post('/api/auth/2fa/enable', { code: await auth.code() })).status).toBe(200);
    return { c, uid, auth, made };
  }

  const send = (c: Client, call: Call, code?: string) =>
    c.raw(call.method, call.path, {
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      headers: { ...(call.body === undefined ? {} : { 'content-type': 'application/json' }), ...(code ? { 'x-totp': code } : {}) },
    });

  async function bot(c: Client, uid: string) {
    const res = await c.post('/api/bots', { ...spotBot, entryPrice: 50000, userId: uid });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }
  const botState = async (c: Client, id: string) => (await c.get(`/api/bot-details/${id}`)).body.state as string;

  /** Each operation that takes X-TOTP: how to make a request it refuses, and the corrected one. */
  const ROUTES: Record<string, ((c: Client, uid: string, made: string | undefined) => Promise<Prepared>) | null> = {
    // a body with errors (the secret too short)
    CredentialsController_add: async (_c, uid) => {
      const access = { exchange: 'Binance', apiKey: 'fresh-add-key-0001', keySecret: 'fresh-add-secret-01', passPhrase: '', userId: uid };
      return {
        refused: { method: 'POST', path: '/api/api-credentials', body: { access: { ...access, keySecret: 'short' } } },
        refusedStatus: 400,
        refusedField: 'keySecret',
        valid: { method: 'POST', path: '/api/api-credentials', body: { access } },
        okStatus: 201,
      };
    },
    // the case, the key a running bot signs with: its own test below
    CredentialsController_remove: null,
    // the case: a webhook on a loopback address
    AlertsController_save: async (_c, uid) => {
      const settings = { kinds: ['cycle'], email: { enabled: true }, webhook: { enabled: false }, telegram: { enabled: false } };
      return {
        refused: { method: 'PUT', path: `/api/alerts/${uid}`, body: { ...settings, webhook: { enabled: true, url: 'http://127.0.0.1:9/hook', secret: 'a-webhook-secret-0123' } } },
        refusedStatus: 400,
        refusedField: 'webhook.url',
        valid: { method: 'PUT', path: `/api/alerts/${uid}`, body: settings },
        okStatus: 200,
      };
    },
    // a body with errors
    SignalSettingsController_enable: async (c, uid) => {
      const id = await bot(c, uid);
      return {
        refused: { method: 'POST', path: `/api/bots/${id}/signals`, body: { heldPosition: 'sometimes' } },
        refusedStatus: 400,
        refusedField: 'heldPosition',
        valid: { method: 'POST', path: `/api/bots/${id}/signals`, body: { heldPosition: 'refuse' } },
        okStatus: 201,
      };
    },
    // the state: signals are off on that bot (404), then the bot whose signals are on
    SignalSettingsController_rotate: async (c, uid, on) => {
      const off = await bot(c, uid);
      return {
        refused: { method: 'POST', path: `/api/bots/${off}/signals/rotate`, body: {} },
        refusedStatus: 404,
        valid: { method: 'POST', path: `/api/bots/${on}/signals/rotate`, body: {} },
        okStatus: 200,
      };
    },
    // a body with errors
    SignalSettingsController_choose: async (_c, _uid, id) => {
      return {
        refused: { method: 'PATCH', path: `/api/bots/${id}/signals`, body: { heldPosition: 'never' } },
        refusedStatus: 400,
        refusedField: 'heldPosition',
        valid: { method: 'PATCH', path: `/api/bots/${id}/signals`, body: { heldPosition: 'sell' } },
        okStatus: 200,
      };
    },
    // a body with errors (no name)
    AccessTokensController_create: async () => ({
      refused: { method: 'POST', path: '/api/tokens', body: { scopes: ['read'], expiresInDays: 30 } },
      refusedStatus: 400,
      refusedField: 'name',
      valid: { method: 'POST', path: '/api/tokens', body: { name: 'fresh-script', scopes: ['read'], expiresInDays: 30 } },
      okStatus: 201,
    }),
  };

  it('the API document names exactly these operations as taking X-TOTP', async () => {
    const doc = (await new Client(app.url).get('/api/docs-json')).body as { paths: Record<string, Record<string, { operationId: string; parameters?: { name: string; in: string }[] }>> };
    const withCode = Object.values(doc.paths)
      .flatMap((item) => Object.values(item))
      .filter((op) => op.parameters?.some((p) => p.in === 'header' && p.name === 'X-TOTP'))
      .map((op) => op.operationId)
      .sort();
    expect(withCode).toEqual(Object.keys(ROUTES).sort());
  });

  /** Steps 1 to 5 for one operation, `prepared` made on an account with 2FA on. */
  async function proves(c: Client, auth: Authenticator, p: Prepared) {
    const without = await send(c, p.refused);
    expect({ status: without.status, totp: without.body?.errors?.some((e: { field: string }) => e.field === 'totp') ?? false }).toEqual({ status: p.refusedStatus, totp: false });
    const code = await auth.code();
    const refused = await send(c, p.refused, code);
    expect(refused.status).toBe(p.refusedStatus);
    if (p.refusedField) expect(refused.body.errors.map((e: { field: string }) => e.field)).toContain(p.refusedField);
    await p.between?.();
    const noCode = await send(c, p.valid);
    expect(noCode.status).toBe(403);
    expect(noCode.body.errors).toEqual([{ field: 'totp', message: expect.any(String) }]);
    const ok = await send(c, p.valid, code);
    expect({ status: ok.status, body: ok.status === p.okStatus ? 'ok' : ok.body }).toEqual({ status: p.okStatus, body: 'ok' });
    // spent now: another action that would succeed is refused with it
    const replay = await send(c, { method: 'POST', path: '/api/tokens', body: { name: 'replayed', scopes: ['read'], expiresInDays: 7 } }, code);
    expect(replay.status).toBe(403);
    expect(replay.body.message).toBe(USED);
  }

  /** The routes that act on a bot whose signals are on: that bot is made before 2FA is turned on. */
  const SIGNALS_ON = new Set(['SignalSettingsController_rotate', 'SignalSettingsController_choose']);
  const withSignalsOn = async (c: Client, uid: string) => {
    const id = await bot(c, uid);
    expect((await c.post(`/api/bots/${id}/signals`, {})).status).toBe(201);
    return id;
  };

  for (const [op, prepare] of Object.entries(ROUTES)) {
    if (!prepare) continue;
    it(`${op}: refused before the code, and the same code confirms the corrected request`, async () => {
      const { c, uid, auth, made } = await enrolled(SIGNALS_ON.has(op) ? withSignalsOn : undefined);
      await proves(c, auth, await prepare(c, uid, made));
    });
  }

  it('CredentialsController_remove: deleting the key a running bot uses is refused before the code; once the bot stops, the same code deletes it', async () => {
    const { c, uid, auth, made } = await enrolled(async (c0, u) => ({ key: await c0.addKey(u), id: await bot(c0, u) }));
    const { key, id } = made;
    expect((await c.get(`/api/startBot?id=${id}&userId=${uid}`)).status).toBe(202);
    await until('running', async () => (await botState(c, id)) === 'running', 20_000);
    await proves(c, auth, {
      refused: { method: 'DELETE', path: `/api/api-credentials/${key}` },
      refusedStatus: 409,
      between: async () => {
        expect((await c.get(`/api/stopBot?id=${id}&userId=${uid}&cancelAllOrders=true`)).status).toBe(202);
        await until('stopped', async () => (await botState(c, id)) === 'stopped', 20_000);
      },
      valid: { method: 'DELETE', path: `/api/api-credentials/${key}` },
      okStatus: 204,
    });
    expect((await c.get(`/api/api-credentials/${uid}`)).body).toEqual([]);
  });
});
