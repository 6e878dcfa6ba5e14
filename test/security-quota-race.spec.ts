import { Socket } from 'socket.io-client';
import { Client, spotBot } from './support/http-client';
import { startTestApp } from './support/test-app';

/**
 * Issue 28, finding 7: the per-user quotas hold under concurrency. 50 creates fired at once against a
 * quota of 5 leave exactly 5 (they were counted on the read model, which lags the writes: 12 bots of
 * 5, 30 keys of 3, 9 sessions of 4). A delete frees its slot.
 */
describe('security: quotas under concurrency (issue 28)', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;

  beforeAll(async () => {
    // The sign-in limits count an attempt as failed until its password is checked (so that a burst is
    // throttled before it reaches the hash): 50 logins at once from one address would meet them first.
    // They are raised here so that the session quota is what decides (test/security-login-proxy.spec.ts tests them).
    app = await startTestApp({
      QUOTA_BOTS: '5',
      QUOTA_KEYS: '5',
      QUOTA_SESSIONS: '5',
      QUOTA_SOCKETS: '5',
      AUTH_THROTTLE_PER_EMAIL: '200',
      AUTH_THROTTLE_PER_ACCOUNT: '200',
      AUTH_THROTTLE_LOGIN_PER_IP: '1000',
    });
  }, 60_000);
  afterAll(async () => {
    await app.close();
  });

  const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((t, s) => ({ ...t, [s]: (t[s] ?? 0) + 1 }), {});

  it('bots: 50 concurrent creates against QUOTA_BOTS=5 leave exactly 5; a delete frees a slot', async () => {
    const c = new Client(app.url);
    const { uid } = await c.signUp('race-bots@example.com');
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => c.post('/api/bots', { ...spotBot, numOfOrders: (i % 9) + 1 })));
    expect(tally(results.map((r) => r.status))).toEqual({ 201: 5, 409: 45 });
    const refused = results.find((r) => r.status === 409)!;
    expect(refused.body.message).toBe('Limit reached: at most 5 bots per user. Delete a bot you no longer need before creating another.');
    const bots = (await c.get(`/api/bots/${uid}`)).body as Array<{ id: string }>;
    expect(bots).toHaveLength(5);

    expect((await c.post('/api/bots', { ...spotBot })).status).toBe(409);
    expect((await c.delete(`/api/bots/${bots[0].id}`)).status).toBe(204);
    const again = await Promise.all(Array.from({ length: 10 }, () => c.post('/api/bots', { ...spotBot })));
    expect(tally(again.map((r) => r.status))).toEqual({ 201: 1, 409: 9 });
    expect((await c.get(`/api/bots/${uid}`)).body).toHaveLength(5);
  }, 120_000);

  it('API keys: 50 concurrent adds against QUOTA_KEYS=5 leave exactly 5; a delete frees a slot', async () => {
    const c = new Client(app.url);
    const { uid } = await c.signUp('race-keys@example.com');
    const key = (n: number) => ({ access: { exchange: 'Binance', apiKey: `race-key-${String(n).padStart(8, '0')}`, keySecret: `race-secret-${String(n).padStart(12, '0')}`, passPhrase: '' } });
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => c.post('/api/api-credentials', key(i))));
    expect(tally(results.map((r) => r.status))).toEqual({ 201: 5, 409: 45 });
    expect(results.find((r) => r.status === 409)!.body.message).toBe('Limit reached: at most 5 API keys per user. Delete an API key you no longer use before adding another.');
    const keys = (await c.get(`/api/api-credentials/${uid}`)).body as Array<{ id: string }>;
    expect(keys).toHaveLength(5);

    expect((await c.delete(`/api/api-credentials/${keys[0].id}`)).status).toBe(204);
    const again = await Promise.all(Array.from({ length: 10 }, (_, i) => c.post('/api/api-credentials', key(100 + i))));
    expect(tally(again.map((r) => r.status))).toEqual({ 201: 1, 409: 9 });
    expect((await c.get(`/api/api-credentials/${uid}`)).body).toHaveLength(5);
  }, 120_000);

  it('sessions: 50 concurrent logins against QUOTA_SESSIONS=5 leave exactly 5; a logout frees a slot', async () => {
    const email = 'race-sessions@example.com';
    await new Client(app.url).signUp(email); // the first session
    const clients = Array.from({ length: 50 }, () => new Client(app.url));
    await Promise.all(clients.map((s) => s.fetchCsrf()));
    const results = await Promise.all(clients.map((s) => s.post('/api/auth/login', { email, password: 'correct-horse-1' })));
    expect(tally(results.map((r) => r.status))).toEqual({ 200: 4, 409: 46 });
    expect(results.find((r) => r.status === 409)!.body.message).toBe(
      'Limit reached: at most 5 signed-in sessions per user. Sign out on another device, or wait until an old session expires.',
    );
    const signedIn = clients.filter((_, i) => results[i].status === 200);
    for (const s of signedIn) expect((await s.get('/api/auth/me')).status).toBe(200);

    expect((await signedIn[0].post('/api/auth/logout')).status).toBe(204);
    const more = Array.from({ length: 10 }, () => new Client(app.url));
    await Promise.all(more.map((s) => s.fetchCsrf()));
    const again = await Promise.all(more.map((s) => s.post('/api/auth/login', { email, password: 'correct-horse-1' })));
    expect(tally(again.map((r) => r.status))).toEqual({ 200: 1, 409: 9 });
  }, 120_000);

  it('sockets: 50 concurrent connections against QUOTA_SOCKETS=5 leave exactly 5 open', async () => {
    const c = new Client(app.url);
    await c.signUp('race-sockets@example.com');
    const outcomes = await Promise.allSettled(Array.from({ length: 50 }, () => c.socket()));
    const open = outcomes.filter((o): o is PromiseFulfilledResult<Socket> => o.status === 'fulfilled').map((o) => o.value);
    try {
      await new Promise((r) => setTimeout(r, 200)); // a socket refused late would disconnect here
      expect(open.filter((s) => s.connected)).toHaveLength(5);
    } finally {
      for (const s of open) s.disconnect();
    }
  }, 120_000);
});
