import { Authenticator } from './support/authenticator';
import { Client } from './support/http-client';
import { startTestApp } from './support/test-app';
import { useTestApp } from './support/trader-app';

/**
 * Issue 38, break 3: two-factor enrolment needed no password. A stolen session turned 2FA on, kept the
 * recovery codes, and the owner was locked out for good (a password reset still asked for the thief's
 * code). Now setting up, enabling and disabling 2FA, making an access token and changing the alert
 * channels need the current password in X-Current-Password, or a sign-in within RECENT_SIGN_IN_SECONDS.
 * Here no sign-in counts as recent (RECENT_SIGN_IN_SECONDS=0): every session is one a thief could hold.
 */
jest.setTimeout(60_000);

const PASSWORD = 'correct-horse-1';
const NEEDED = { statusCode: 403, message: 'Enter your current password to confirm this', errors: [{ field: 'currentPassword', message: 'Enter your current password to confirm this' }] };

describe('what a stolen session cannot do without the password (issue 38, break 3)', () => {
  const t = useTestApp({ RECENT_SIGN_IN_SECONDS: '0' });

  const withPassword = (password: string) => ({ 'content-type': 'application/json', 'x-current-password': password });

  it('a thief\'s session cannot set up or turn on two-factor sign-in; the owner, with the password, can', async () => {
    const thief = new Client(t.app.url);
    const { uid } = await thief.signUp('stolen@example.com', PASSWORD);
    const setup = await thief.post('/api/auth/2fa/setup');
    expect(setup.status).toBe(403);
    expect(setup.body).toEqual(NEEDED);
    expect((await thief.get('/api/auth/2fa')).body).toEqual({ enabled: false, setupStarted: false, recoveryCodesLeft: 0 });
    // a guessed password is refused, with its own message
    const guessed = await thief.raw('POST', '/api/auth/2fa/setup', { headers: withPassword('not-the-password') });
    expect(guessed.status).toBe(403);
    expect(guessed.body.errors).toEqual([{ field: 'currentPassword', message: 'That is not your current password' }]);

    // the owner knows it: setup and enable go through
    const owner = thief; // the same account, now with the password
    const ok = await owner.raw('POST', '/api/auth/2fa/setup', { headers: withPassword(PASSWORD) });
    expect(ok.status).toBe(200);
    const auth = new Authenticator(ok.body.secret);
    const enableWithout = await owner.post('/api/auth/2fa/enable', { code: await auth.code() });
    expect(enableWithout.status).toBe(403);
    expect(enableWithout.body).toEqual(NEEDED);
    const on = await owner.raw('POST', '/api/auth/2fa/enable', { body: JSON.stringify({ code: await auth.code() }), headers: withPassword(PASSWORD) });
    expect(on.status).toBe(200);
    // turning it off needs the password too, before any code is spent
    const off = await owner.post('/api/auth/2fa/disable', { recoveryCode: on.body.recoveryCodes[0] });
    expect(off.status).toBe(403);
    expect(off.body).toEqual(NEEDED);
    expect((await owner.get('/api/auth/2fa')).body).toEqual({ enabled: true, setupStarted: false, recoveryCodesLeft: 10 });
    expect(uid).toBeTruthy();
  });

  it('nor make an access token or change the alert channels', async () => {
    const c = new Client(t.app.url);
    const { uid } = await c.signUp('tokens-and-alerts@example.com', PASSWORD);
    const token = await c.post('/api/tokens', { name: 'thief', scopes: ['read', 'trade', 'keys'], expiresInDays: 30 });
    expect(token.status).toBe(403);
    expect(token.body).toEqual(NEEDED);
    expect((await c.get('/api/tokens')).body).toEqual({ tokens: [] });
    const alerts = await c.put(`/api/alerts/${uid}`, { kinds: ['cycle'], webhook: { enabled: true, url: 'https://attacker.example/hook', secret: 'a-webhook-secret-0123456789' } });
    expect(alerts.status).toBe(403);
    expect(alerts.body).toEqual(NEEDED);
    expect((await c.get(`/api/alerts/${uid}`)).body.webhook.enabled).toBe(false);
    // with the password both go through
    const made = await c.raw('POST', '/api/tokens', { body: JSON.stringify({ name: 'mine', scopes: ['read'], expiresInDays: 30 }), headers: withPassword(PASSWORD) });
    expect(made.status).toBe(201);
  });
});

describe('a sign-in within the last minutes counts as the password (issue 38)', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    app = await startTestApp({}); // the default: 5 minutes
  });
  afterAll(async () => {
    await app?.close();
  });

  it('a session that just signed in sets up 2FA without typing the password again', async () => {
    const c = new Client(app.url);
    await c.signUp('fresh@example.com', PASSWORD);
    expect((await c.post('/api/auth/2fa/setup')).status).toBe(200);
  });
});
