import { Client } from './support/http-client';
import { startTestApp } from './support/test-app';
import { useTraderApp } from './support/trader-app';

type App = Awaited<ReturnType<typeof startTestApp>>;

function expectThrottled(res: { status: number; body: any; headers: Headers }, windowSeconds: number) {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ statusCode: 429, message: 'Too many attempts; please wait before trying again' });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
}

describe('identity: throttling per email address', () => {
  let app: App;
  beforeAll(async () => {
    app = await startTestApp({ AUTH_THROTTLE_PER_EMAIL: '3', AUTH_THROTTLE_PER_IP: '1000', AUTH_THROTTLE_WINDOW_SECONDS: '60' });
  });
  afterAll(async () => {
    await app.close();
  });

  it('login: failed attempts count; after the limit even the right password gets 429 + Retry-After; other addresses are unaffected', async () => {
    await new Client(app.url).signUp('olga@example.com', 'correct-horse-1');
    const attacker = new Client(app.url);
    for (let i = 0; i < 3; i++) {
      const res = await attacker.post('/api/auth/login', { email: 'olga@example.com', password: `wrong-guess-${i}` });
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('Invalid email or password');
    }
    expectThrottled(await attacker.post('/api/auth/login', { email: 'olga@example.com', password: 'wrong-guess-9' }), 60);
    expectThrottled(await new Client(app.url).post('/api/auth/login', { email: 'OLGA@example.com', password: 'correct-horse-1' }), 60);

    await new Client(app.url).signUp('pia@example.com', 'correct-horse-1');
    expect((await new Client(app.url).post('/api/auth/login', { email: 'pia@example.com', password: 'correct-horse-1' })).status).toBe(200);
  });

  it('login: successful sign-ins never spend points', async () => {
    await new Client(app.url).signUp('quin@example.com', 'correct-horse-1');
    for (let i = 0; i < 6; i++) {
      expect((await new Client(app.url).post('/api/auth/login', { email: 'quin@example.com', password: 'correct-horse-1' })).status).toBe(200);
    }
  });

  it('forgot-password: 429 after the limit, for a known and an unknown address alike', async () => {
    await new Client(app.url).signUp('ray@example.com', 'correct-horse-1');
    const anon = new Client(app.url);
    for (const email of ['ray@example.com', 'ghost@example.com']) {
      for (let i = 0; i < 3; i++) expect((await anon.post('/api/auth/forgot-password', { email })).status).toBe(202);
      expectThrottled(await anon.post('/api/auth/forgot-password', { email }), 60);
    }
  });

  it('resend-verification: 429 after the limit', async () => {
    const sam = new Client(app.url);
    await sam.signUp('sam@example.com', 'correct-horse-1');
    expect((await sam.post('/api/auth/resend-verification')).status).toBe(202);
    expect((await sam.post('/api/auth/resend-verification')).status).toBe(202);
    expect((await sam.post('/api/auth/resend-verification')).status).toBe(202);
    expectThrottled(await sam.post('/api/auth/resend-verification'), 60);
  });
});

describe('identity: throttling per IP address', () => {
  let app: App;
  beforeAll(async () => {
    app = await startTestApp({ AUTH_THROTTLE_PER_IP: '4', AUTH_THROTTLE_LOGIN_PER_IP: '2', AUTH_THROTTLE_PER_EMAIL: '1000', AUTH_THROTTLE_WINDOW_SECONDS: '120' });
  });
  afterAll(async () => {
    await app.close();
  });

  // Issue 28: failed logins used to spend this same budget, so anonymous guesses behind one address (NAT,
  // a proxy container) shut register and forgot-password for everyone there. They now have their own.
  it('register and forgot-password share the budget of one address; then 429 + Retry-After', async () => {
    const known = new Client(app.url);
    await known.signUp('bulk0@example.com');
    for (let i = 1; i < 3; i++) await new Client(app.url).signUp(`bulk${i}@example.com`);
    expect((await new Client(app.url).post('/api/auth/forgot-password', { email: 'bulk1@example.com' })).status).toBe(202);
    const c = new Client(app.url);
    expectThrottled(await c.post('/api/auth/register', { email: 'bulk9@example.com', password: 'correct-horse-1' }), 120);
    expectThrottled(await c.post('/api/auth/forgot-password', { email: 'bulk1@example.com' }), 120);
    // nothing was registered by the refused call
    expect((await c.get('/api/auth/me')).status).toBe(401);

    // failed logins from browsers unknown to the account have a budget of their own (AUTH_THROTTLE_LOGIN_PER_IP)
    expect((await new Client(app.url).post('/api/auth/login', { email: 'bulk1@example.com', password: 'wrong-password' })).status).toBe(401);
    expect((await new Client(app.url).post('/api/auth/login', { email: 'bulk2@example.com', password: 'wrong-password' })).status).toBe(401);
    expectThrottled(await new Client(app.url).post('/api/auth/login', { email: 'bulk0@example.com', password: 'correct-horse-1' }), 120);
    // a browser that signed in to the account before is judged by its own limit, not the address's
    expect((await known.post('/api/auth/login', { email: 'bulk0@example.com', password: 'correct-horse-1' })).status).toBe(200);
  });
});

describe('identity: throttling can be switched off', () => {
  let app: App;
  beforeAll(async () => {
    app = await startTestApp({ AUTH_THROTTLE: 'off', AUTH_THROTTLE_PER_EMAIL: '1' });
  });
  afterAll(async () => {
    await app.close();
  });

  it('AUTH_THROTTLE=off lets every attempt through', async () => {
    for (let i = 0; i < 4; i++) expect((await new Client(app.url).post('/api/auth/login', { email: 'x@example.com', password: 'wrong-password' })).status).toBe(401);
  });
});

describe('identity: bad input on every auth route gets a 4xx with the spec messages', () => {
  const t = useTraderApp('valid@example.com');

  const longEmail = `${'a'.repeat(40)}@example.com`; // 52 characters
  const emailCases: [string, unknown, string][] = [
    ['missing', undefined, 'Email is required'],
    ['empty', '', 'Email is required'],
    ['not text', 12345, 'Email is required'],
    ['too short', 'a@b', 'Email must be at least 5 characters'],
    ['too long', longEmail, 'Email must be at most 50 characters'],
    ['not an email', 'not-an-email', 'Email must be a valid email address'],
  ];
  const passwordCases: [string, unknown, string][] = [
    ['missing', undefined, 'Password is required'],
    ['empty', '', 'Password is required'],
    ['too short', 'short', 'Password must be at least 8 characters'],
    ['too long', 'x'.repeat(31), 'Password must be at most 30 characters'],
  ];
  const tokenCases: [string, unknown, string][] = [
    ['missing', undefined, 'Token is required'],
    ['empty', '', 'Token is required'],
    ['too long', 'x'.repeat(201), 'Token must be at most 200 characters'],
  ];

  async function expectFieldError(path: string, body: Record<string, unknown>, field: string, message: string, client = new Client(t.app.url), summary = 'Invalid input') {
    const res = await client.post(path, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, message: summary });
    expect(res.body.errors).toContainEqual({ field, message });
  }

  describe.each(['/api/auth/register', '/api/auth/login'])('%s', (path) => {
    it.each(emailCases)('email %s', (_, email, message) => expectFieldError(path, { email, password: 'correct-horse-1' }, 'email', message));
    it.each(passwordCases)('password %s', (_, password, message) => expectFieldError(path, { email: 'valid@example.com', password }, 'password', message));
  });

  describe('/api/auth/forgot-password', () => {
    it.each(emailCases)('email %s', (_, email, message) => expectFieldError('/api/auth/forgot-password', { email }, 'email', message));
  });

  describe('/api/auth/reset-password', () => {
    it.each(tokenCases)('token %s', (_, token, message) => expectFieldError('/api/auth/reset-password', { token, password: 'correct-horse-1' }, 'token', message));
    it.each(passwordCases)('password %s', (_, password, message) => expectFieldError('/api/auth/reset-password', { token: 'A'.repeat(43), password }, 'password', message));
    it('an unknown token', () => {
      const m = 'This password reset link is invalid or has already been used';
      return expectFieldError('/api/auth/reset-password', { token: 'A'.repeat(43), password: 'correct-horse-1' }, 'token', m, new Client(t.app.url), m);
    });
  });

  describe('/api/auth/verify-email', () => {
    it.each(tokenCases)('token %s', (_, token, message) => expectFieldError('/api/auth/verify-email', { token }, 'token', message));
    it('a malformed token', () => {
      const m = 'This verification link is invalid or has already been used';
      return expectFieldError('/api/auth/verify-email', { token: 'not a token' }, 'token', m, new Client(t.app.url), m);
    });
  });

  describe('/api/user', () => {
    it('too long, wrong type, bad URL', async () => {
      await expectFieldError('/api/user', { username: 'x'.repeat(101) }, 'username', 'Username must be at most 100 characters', t.c);
      await expectFieldError('/api/user', { lastname: 42 }, 'lastname', 'Last name must be text', t.c);
      await expectFieldError('/api/user', { picurl: 'ftp://example.com/p.png' }, 'picurl', 'Picture URL must be an http or https address', t.c);
    });
  });

  const routes = ['/api/auth/register', '/api/auth/login', '/api/auth/forgot-password', '/api/auth/reset-password', '/api/auth/verify-email', '/api/auth/resend-verification', '/api/user'];

  it.each(routes)('%s: broken JSON → 400 with a clear message', async (path) => {
    const res = await t.c.raw('POST', path, { body: '{"email": "a@b.c", ', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, message: 'Malformed JSON body', errors: [{ field: 'body', message: 'The body is not valid JSON' }] });
  });

  it.each(routes.filter((r) => r !== '/api/auth/resend-verification'))('%s: a JSON array or an oversized body is a 4xx, never a 5xx', async (path) => {
    const arr = await t.c.raw('POST', path, { body: '[1,2]', headers: { 'content-type': 'application/json' } });
    expect(arr.status).toBe(400);
    const big = await t.c.raw('POST', path, { body: JSON.stringify({ email: 'x'.repeat(100_000) }), headers: { 'content-type': 'application/json' } });
    expect(big.status).toBe(413);
  });

  it('the spec messages stand alone when several fields are wrong', async () => {
    const res = await new Client(t.app.url).post('/api/auth/register', {});
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { field: 'email', message: 'Email is required' },
      { field: 'password', message: 'Password is required' },
    ]);
  });
});
