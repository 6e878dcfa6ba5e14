import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteEventStore } from '@gridrocket/event-store';
import { base32Decode } from '@gridrocket/identity';
import { Authenticator } from './support/authenticator';
import { Client } from './support/http-client';
import { startTestApp } from './support/test-app';

/**
 * Issue 30: two-factor sign-in through the API as a browser uses it. Codes are computed from the secret
 * the setup answers, with the RFC's algorithm (checked against the RFC's vectors in totp.spec.ts). Each
 * account keeps the last time step it used; `codeFor` waits (at most one 30 s step) when the next
 * usable step is not yet within the window.
 */
jest.setTimeout(180_000);

const PASSWORD = 'correct-horse-1';


describe('two-factor sign-in (issue 30)', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;

  beforeAll(async () => {
    // a small per-client code budget, so throttling shows in a few attempts
    app = await startTestApp({ AUTH_THROTTLE_PER_EMAIL: '3', AUTH_THROTTLE_WINDOW_SECONDS: '60' });
  });
  afterAll(async () => {
    await app?.close();
  });

  /** Registers, starts the setup, confirms it: returns the client, its authenticator and recovery codes. */
  async function enrolled(email: string) {
    const c = new Client(app.url);
    const user = await c.signUp(email, PASSWORD);
    expect((await c.get('/api/auth/2fa')).body).toEqual({ enabled: false, setupStarted: false, recoveryCodesLeft: 0 });
    const setup = await c.post('/api/auth/2fa/setup');
    expect(setup.status).toBe(200);
    expect(setup.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    // the Key Uri Format an authenticator app reads (github.com/google/google-authenticator/wiki/Key-Uri-Format)
    const uri = new URL(setup.body.otpauthUri);
    expect(`${uri.protocol}//${uri.host}${decodeURIComponent(uri.pathname)}`).toBe(`otpauth://totp/GridRocket:${email}`);
    expect(Object.fromEntries(uri.searchParams)).toEqual({ secret: setup.body.secret, issuer: 'GridRocket', algorithm: 'SHA1', digits: '6', period: '30' });
    // and the QR code that carries it, an SVG image
    expect(setup.body.qr).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(setup.body.qr.split(',')[1], 'base64').toString()).toMatch(/^<svg [^>]*viewBox="0 0 \d+ \d+"[\s\S]*<path [\s\S]*<\/svg>\s*$/);
    const auth = new Authenticator(setup.body.secret);
    const on = await c.post('/api/auth/2fa/enable', { code: await auth.code() });
    expect(on.status).toBe(200);
    expect(on.body.recoveryCodes).toHaveLength(10);
    return { c, uid: user.uid, auth, recovery: on.body.recoveryCodes as string[], secret: setup.body.secret as string };
  }

  async function passwordStep(email: string, c = new Client(app.url)) {
    const res = await c.post('/api/auth/login', { email, password: PASSWORD });
    return { c, res };
  }

  it('enrol, then sign in: the password answers "code needed" and a pending half-session that opens nothing; the code completes it; the code cannot be replayed', async () => {
    const { auth, uid, c: first } = await enrolled('tfa-ann@example.com');
    expect((await first.get('/api/auth/2fa')).body).toEqual({ enabled: true, setupStarted: false, recoveryCodesLeft: 10 });
    // a second setup while it is on is refused
    expect((await first.post('/api/auth/2fa/setup')).status).toBe(409);

    const { c, res } = await passwordStep('tfa-ann@example.com');
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ twoFactorRequired: true, message: 'Enter the 6-digit code from your authenticator app' });
    // no session: the pending cookie opens nothing but the code step
    expect((await c.get('/api/auth/me')).status).toBe(401);
    expect((await c.get(`/api/bots/${uid}`)).status).toBe(401);
    expect((await c.post('/api/auth/2fa/setup')).status).toBe(401);

    // a wrong code: 401 with the field, still no session
    const wrong = await c.post('/api/auth/2fa/verify', { code: auth.wrongCode() });
    expect(wrong.status).toBe(401);
    expect(wrong.body.errors).toEqual([{ field: 'code', message: expect.stringMatching(/^That code is not right/) }]);
    expect((await c.get('/api/auth/me')).status).toBe(401);

    const code = await auth.code();
    const ok = await c.post('/api/auth/2fa/verify', { code });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ uid, email: 'tfa-ann@example.com' });
    expect((await c.get('/api/auth/me')).status).toBe(200);

    // the same code again, from another browser after a right password: refused as used
    const other = (await passwordStep('tfa-ann@example.com')).c;
    const replay = await other.post('/api/auth/2fa/verify', { code });
    expect(replay.status).toBe(401);
    expect(replay.body.message).toBe('That code was already used. Wait for the next code in your authenticator app');
    expect((await other.get('/api/auth/me')).status).toBe(401);
  });

  it('one code sent by two browsers at once opens one session: the other is refused as used', async () => {
    const { auth } = await enrolled('tfa-kit@example.com');
    const a = (await passwordStep('tfa-kit@example.com')).c;
    const b = (await passwordStep('tfa-kit@example.com')).c;
    const code = await auth.code();
    const [ra, rb] = await Promise.all([a.post('/api/auth/2fa/verify', { code }), b.post('/api/auth/2fa/verify', { code })]);
    expect([ra.status, rb.status].sort()).toEqual([200, 401]);
    expect([ra, rb].find((r) => r.status === 401)!.body.message).toBe('That code was already used. Wait for the next code in your authenticator app');
    const signedIn = await Promise.all([a.get('/api/auth/me'), b.get('/api/auth/me')]);
    expect(signedIn.map((r) => r.status).sort()).toEqual([200, 401]);
  });

  it('a recovery code signs in once, then no longer works', async () => {
    const { recovery, c: first } = await enrolled('tfa-bo@example.com');
    const { c } = await passwordStep('tfa-bo@example.com');
    const ok = await c.post('/api/auth/2fa/verify', { recoveryCode: recovery[3].toUpperCase() });
    expect(ok.status).toBe(200);
    expect((await c.get('/api/auth/me')).status).toBe(200);
    expect((await first.get('/api/auth/2fa')).body.recoveryCodesLeft).toBe(9);

    const again = (await passwordStep('tfa-bo@example.com')).c;
    const used = await again.post('/api/auth/2fa/verify', { recoveryCode: recovery[3] });
    expect(used.status).toBe(401);
    expect(used.body.errors).toEqual([{ field: 'recoveryCode', message: 'That recovery code is not right or was already used' }]);
    expect((await again.get('/api/auth/me')).status).toBe(401);
  });

  it('"remember this browser": the same browser skips the code for 30 days, another browser does not', async () => {
    const { recovery } = await enrolled('tfa-cy@example.com');
    const { c } = await passwordStep('tfa-cy@example.com');
    const ok = await c.raw('POST', '/api/auth/2fa/verify', { body: JSON.stringify({ recoveryCode: recovery[0], remember: true }), headers: { 'content-type': 'application/json' } });
    expect(ok.status).toBe(200);
    const cookie = ok.headers.getSetCookie().find((s) => s.startsWith('gr_2fa_browser='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/Path=\/api\/auth/);
    expect(Number(/Max-Age=(\d+)/.exec(cookie)![1])).toBe(30 * 86_400);

    expect((await c.post('/api/auth/logout')).status).toBe(204);
    const back = await c.post('/api/auth/login', { email: 'tfa-cy@example.com', password: PASSWORD });
    expect(back.status).toBe(200);
    expect((await c.get('/api/auth/me')).status).toBe(200);

    expect((await passwordStep('tfa-cy@example.com')).res.status).toBe(202);
    // the cookie is bound to its account: on another account with 2FA it skips nothing
    const dee = await enrolled('tfa-dee@example.com');
    const theirs = await c.post('/api/auth/login', { email: 'tfa-dee@example.com', password: PASSWORD });
    expect(theirs.status).toBe(202);
    // a tampered cookie neither
    const forged = new Client(app.url);
    await forged.fetchCsrf();
    const tampered = cookie.split(';')[0].replace(/.$/, (ch) => (ch === 'A' ? 'B' : 'A'));
    const res = await forged.raw('POST', '/api/auth/login', { body: JSON.stringify({ email: 'tfa-cy@example.com', password: PASSWORD }), headers: { 'content-type': 'application/json', cookie: `${forged.cookieHeader()}; ${tampered}` } });
    expect(res.status).toBe(202);
    expect(dee.uid).toBeTruthy();
  });

  it('a forged or missing pending cookie completes nothing', async () => {
    const { auth } = await enrolled('tfa-eve@example.com');
    const c = new Client(app.url);
    expect((await c.post('/api/auth/2fa/verify', { code: '123456' })).status).toBe(401);
    const { c: pending } = await passwordStep('tfa-eve@example.com');
    const value = pending.cookieHeader().split('; ').find((p) => p.startsWith('gr_2fa_pending='))!;
    // another account's uid in a copied cookie fails its MAC
    const forged = value.replace(/^gr_2fa_pending=[^.]+/, 'gr_2fa_pending=someoneelse');
    await c.fetchCsrf();
    const res = await c.raw('POST', '/api/auth/2fa/verify', { body: JSON.stringify({ code: await auth.code() }), headers: { 'content-type': 'application/json', cookie: `${c.cookieHeader()}; ${forged}` } });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('This sign-in has expired or was already completed; sign in again');
    // bad input is a 400 with field messages
    const bad = await pending.post('/api/auth/2fa/verify', { code: '12ab' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: 'code', message: 'Code must be 6 digits' }]);
    expect((await pending.post('/api/auth/2fa/verify', {})).body.errors).toEqual([{ field: 'code', message: 'Code is required' }]);
  });

  it('codes are throttled like passwords: after the free failures even the right code waits (429 with Retry-After)', async () => {
    const { auth } = await enrolled('tfa-fay@example.com');
    const { c } = await passwordStep('tfa-fay@example.com');
    for (let i = 0; i < 3; i++) expect((await c.post('/api/auth/2fa/verify', { code: auth.wrongCode() })).status).toBe(401);
    const limited = await c.post('/api/auth/2fa/verify', { code: await auth.code() });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await c.get('/api/auth/me')).status).toBe(401);
  });

  it('sensitive actions ask for a fresh code (X-TOTP) when 2FA is on: add and delete a key, change alert channels', async () => {
    const { c, uid, auth } = await enrolled('tfa-gus@example.com');
    const access = { exchange: 'Binance', apiKey: 'tfa-gus-key-00000001', keySecret: 'tfa-gus-secret-0000001', passPhrase: '', userId: uid };
    const json = { 'content-type': 'application/json' };

    const none = await c.post('/api/api-credentials', { access });
    expect(none.status).toBe(403);
    expect(none.body).toEqual({
      statusCode: 403,
      message: 'Two-factor sign-in is on: enter a current code from your authenticator app to confirm this',
      errors: [{ field: 'totp', message: 'Two-factor sign-in is on: enter a current code from your authenticator app to confirm this' }],
    });
    const wrong = await c.raw('POST', '/api/api-credentials', { body: JSON.stringify({ access }), headers: { ...json, 'x-totp': auth.wrongCode() } });
    expect(wrong.status).toBe(403);
    expect(wrong.body.message).toMatch(/^That code is not right/);
    expect((await c.get(`/api/api-credentials/${uid}`)).body).toEqual([]);

    const added = await c.raw('POST', '/api/api-credentials', { body: JSON.stringify({ access }), headers: { ...json, 'x-totp': await auth.code() } });
    expect(added.status).toBe(201);
    // the same code once more: used
    const replay = await c.raw('DELETE', `/api/api-credentials/${added.body.id}`, { headers: { 'x-totp': auth.usedCode() } });
    expect(replay.status).toBe(403);
    expect(replay.body.message).toBe('That code was already used. Wait for the next code in your authenticator app');
    expect((await c.delete(`/api/api-credentials/${added.body.id}`)).status).toBe(403);
    expect((await c.get(`/api/api-credentials/${uid}`)).body).toHaveLength(1);
    const removed = await c.raw('DELETE', `/api/api-credentials/${added.body.id}`, { headers: { 'x-totp': await auth.code() } });
    expect(removed.status).toBe(204);
    expect((await c.get(`/api/api-credentials/${uid}`)).body).toEqual([]);

    const settings = { kinds: ['cycle'], email: { enabled: true }, webhook: { enabled: false }, telegram: { enabled: false } };
    expect((await c.put(`/api/alerts/${uid}`, settings)).status).toBe(403);
    const saved = await c.raw('PUT', `/api/alerts/${uid}`, { body: JSON.stringify(settings), headers: { ...json, 'x-totp': await auth.code() } });
    expect(saved.status).toBe(200);
    expect((await c.get(`/api/alerts/${uid}`)).body.kinds).toEqual(['cycle']);
  });

  it('without 2FA nothing changes: sign-in and sensitive actions ask for no code', async () => {
    const c = new Client(app.url);
    const user = await c.signUp('tfa-hal@example.com', PASSWORD);
    await c.addKey(user.uid);
    expect((await new Client(app.url).post('/api/auth/login', { email: 'tfa-hal@example.com', password: PASSWORD })).status).toBe(200);
  });

  it('disable only with a current code or a recovery code; afterwards the password alone signs in; secrets are not in the log in clear', async () => {
    const { c, auth, recovery, secret, uid } = await enrolled('tfa-ivy@example.com');
    expect((await c.post('/api/auth/2fa/disable', {})).status).toBe(400);
    const wrong = await c.post('/api/auth/2fa/disable', { code: auth.wrongCode() });
    expect(wrong.status).toBe(403);
    expect((await c.get('/api/auth/2fa')).body.enabled).toBe(true);
    const off = await c.post('/api/auth/2fa/disable', { recoveryCode: recovery[9] });
    expect(off.status).toBe(200);
    expect((await c.get('/api/auth/2fa')).body).toEqual({ enabled: false, setupStarted: false, recoveryCodesLeft: 0 });
    expect((await passwordStep('tfa-ivy@example.com')).res.status).toBe(200);

    const store = new SqliteEventStore(join(app.dataDir, 'events.sqlite'));
    const types = (await store.readStream(`user-${uid}`)).map((e) => e.type);
    await store.close();
    // the wrong code is remembered on the account for a day (issue 38)
    expect(types.slice(-6)).toEqual(['TwoFactorEnrolmentStarted', 'TwoFactorEnabled', 'TwoFactorCodeFailed', 'TwoFactorRecoveryCodeUsed', 'TwoFactorDisabled', 'UserSignedIn']);
    // the database and its write-ahead log
    const raw = ['events.sqlite', 'events.sqlite-wal']
      .map((f) => join(app.dataDir, f))
      .filter((f) => existsSync(f))
      .map((f) => readFileSync(f).toString('latin1'))
      .join('');
    expect(raw).toContain('TwoFactorEnabled');
    const hex = Buffer.from(base32Decode(secret)!).toString('hex');
    expect(raw.includes(secret)).toBe(false);
    expect(raw.includes(hex)).toBe(false);
    for (const r of recovery) {
      expect(raw.includes(r)).toBe(false);
      expect(raw.includes(r.replace(/-/g, ''))).toBe(false);
    }

    // with a current code too
    const jo = await enrolled('tfa-jo@example.com');
    const byCode = await jo.c.post('/api/auth/2fa/disable', { code: await jo.auth.code() });
    expect(byCode.status).toBe(200);
    expect((await passwordStep('tfa-jo@example.com')).res.status).toBe(200);
  });
});
