import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OAuth2Server } from 'oauth2-mock-server';
import { SqliteEventStore } from '@gridrocket/event-store';
import { base32Decode, hotp, totpStep } from '@gridrocket/identity';
import { loadConfig } from '@gridrocket/shared/runtime';
import { RunningApp, startApp } from '../apps/api/src/bootstrap';
import { Client } from './support/http-client';
import { until } from '@gridrocket/shared/testing/until';
import { freePort } from './support/free-port';
import { useTestApp } from './support/trader-app';

/** A browser tab: a cookie jar, redirects one hop at a time. */
class Browser {
  readonly jar = new Map<string, string>();

  cookie(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async get(url: string, sendCookies = true) {
    const res = await fetch(url, { redirect: 'manual', headers: sendCookies ? { cookie: this.cookie() } : {} });
    if (sendCookies) {
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const i = pair.indexOf('=');
        const value = pair.slice(i + 1);
        if (value === '' || /expires=Thu, 01 Jan 1970/i.test(c)) this.jar.delete(pair.slice(0, i));
        else this.jar.set(pair.slice(0, i), value);
      }
    }
    return { status: res.status, location: res.headers.get('location'), headers: res.headers, text: await res.text() };
  }
}

/** The message the popup page posts to its opener, and the origin it restricts it to. */
function popupMessage(html: string): { message: { type: string; ok: boolean; error?: string }; origin: string } {
  const message = /var message = (\{.*?\});/.exec(html)?.[1];
  const origin = /var origin = "(.*?)";/.exec(html)?.[1];
  if (!message || !origin) throw new Error(`not a popup page: ${html.slice(0, 300)}`);
  return { message: JSON.parse(message), origin };
}

describe('identity: Google and Facebook popups through passport against a local OAuth2 server', () => {
  let provider: OAuth2Server;
  let app: RunningApp;
  let dataDir: string;
  let base: string;
  let userinfo: Record<string, unknown>;

  beforeAll(async () => {
    provider = new OAuth2Server();
    await provider.issuer.keys.generate('RS256');
    await provider.start(0, '127.0.0.1');
    const idp = provider.issuer.url!;
    provider.service.on('beforeUserinfo', (response: { body: unknown }) => {
      response.body = userinfo;
    });
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    dataDir = mkdtempSync(join(tmpdir(), 'gr-oauth-'));
    app = await startApp(
      loadConfig({
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: base,
        LOG_LEVEL: 'silent',
        WEB_DIST: join(dataDir, 'no-web'),
        GOOGLE_CLIENT_ID: 'gridrocket-google',
        GOOGLE_CLIENT_SECRET: 'google-secret',
        GOOGLE_AUTHORIZATION_URL: `${idp}/authorize`,
        GOOGLE_TOKEN_URL: `${idp}/token`,
        GOOGLE_PROFILE_URL: `${idp}/userinfo`,
        FACEBOOK_CLIENT_ID: 'gridrocket-facebook',
        FACEBOOK_CLIENT_SECRET: 'facebook-secret',
        FACEBOOK_AUTHORIZATION_URL: `${idp}/authorize`,
        FACEBOOK_TOKEN_URL: `${idp}/token`,
        FACEBOOK_PROFILE_URL: `${idp}/userinfo`,
      }),
    );
  });
  afterAll(async () => {
    await app?.close();
    await provider?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Opens the popup, lets the provider answer, follows the callback; returns the page's message. */
  async function popup(browser: Browser, name: 'google' | 'facebook', tamper?: (url: URL) => void) {
    const start = await browser.get(`${base}/api/auth/${name}`);
    expect(start.status).toBe(302);
    const authorize = new URL(start.location!);
    expect(authorize.origin + authorize.pathname).toBe(`${provider.issuer.url}/authorize`);
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${base}/api/auth/${name}/callback`);
    expect(authorize.searchParams.get('client_id')).toBe(`gridrocket-${name}`);
    expect(authorize.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{32}$/);
    if (name === 'google') expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    const consent = await browser.get(authorize.href, false);
    expect(consent.status).toBe(302);
    const back = new URL(consent.location!);
    tamper?.(back);
    const page = await browser.get(back.href);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toMatch(/script-src 'nonce-/);
    expect(page.text).toContain(`nonce="${/nonce-([^']+)'/.exec(csp)![1]}"`);
    return popupMessage(page.text);
  }

  async function me(browser: Browser) {
    const res = await fetch(`${base}/api/auth/me`, { headers: { cookie: browser.cookie() } });
    return { status: res.status, body: (res.status === 200 ? await res.json() : undefined) as any };
  }

  it('Google: a new user is created with the provider name and photo, signed in, and told through postMessage to our origin only', async () => {
    userinfo = { sub: 'google-lia', email: 'lia@example.com', email_verified: true, name: 'Lia Marsh', picture: 'https://photos.example/lia.png' };
    const tab = new Browser();
    const { message, origin } = await popup(tab, 'google');
    expect(message).toEqual({ type: 'gridrocket:auth', ok: true });
    expect(origin).toBe(base);
    expect(tab.jar.has('gr_oauth_google')).toBe(false); // the state cookie is single-use
    const who = await me(tab);
    expect(who.status).toBe(200);
    expect(who.body).toEqual({ uid: expect.any(String), displayName: 'Lia Marsh', email: 'lia@example.com', emailVerified: true, photoURL: 'https://photos.example/lia.png' });

    // the same Google account again: the same user, no second registration
    const again = new Browser();
    expect((await popup(again, 'google')).message.ok).toBe(true);
    expect((await me(again)).body.uid).toBe(who.body.uid);

    const store = new SqliteEventStore(join(dataDir, 'events.sqlite'));
    const events = await store.readStream(`user-${who.body.uid}`);
    await store.close();
    expect(events.map((e) => e.type)).toEqual(['UserRegistered', 'ProviderLinked', 'EmailVerified', 'UserSignedIn', 'UserSignedIn']);
    expect(events[0].data).toMatchObject({ method: 'google', passwordHash: null });
    expect(events[1].data).toEqual({ provider: 'google', subject: 'google-lia', email: 'lia@example.com' });
    // no provider token is kept
    expect(JSON.stringify(events.map((e) => e.data))).not.toMatch(/access_token|eyJ/);
  });

  it('Google: a verified email that matches an existing user signs into that user (ProviderLinked); the password still works', async () => {
    const mo = new Client(base);
    const user = await mo.signUp('mo@example.com', 'correct-horse-1');
    // verify the address first, through the mailed link
    // mailed off the request path (issue 30)
    const mail = await until('the verification mail to mo', () =>
      existsSync(join(dataDir, 'mail')) && readdirSync(join(dataDir, 'mail')).map((f) => readFileSync(join(dataDir, 'mail', f), 'utf8')).find((m) => /^To: mo@example\.com$/m.test(m)),
    );
    const token = /token=3D([A-Za-z0-9_-]{43})|token=([A-Za-z0-9_-]{43})/.exec(mail.replace(/=\r?\n/g, ''))!.slice(1).find(Boolean)!;
    expect((await mo.post('/api/auth/verify-email', { token })).status).toBe(200);

    userinfo = { sub: 'google-mo', email: 'Mo@Example.com', email_verified: true, name: 'Mo Google', picture: 'https://photos.example/mo.png' };
    const tab = new Browser();
    expect((await popup(tab, 'google')).message).toEqual({ type: 'gridrocket:auth', ok: true });
    const who = await me(tab);
    expect(who.body).toMatchObject({ uid: user.uid, email: 'mo@example.com', emailVerified: true, displayName: '' });
    expect((await new Client(base).post('/api/auth/login', { email: 'mo@example.com', password: 'correct-horse-1' })).status).toBe(200);

    const store = new SqliteEventStore(join(dataDir, 'events.sqlite'));
    const types = (await store.readStream(`user-${user.uid}`)).map((e) => e.type);
    await store.close();
    expect(types.slice(-3)).toEqual(['ProviderLinked', 'UserSignedIn', 'UserSignedIn']);
  });

  it('Google: an unverified provider email never signs into an existing account', async () => {
    await new Client(base).signUp('noor@example.com', 'correct-horse-1');
    userinfo = { sub: 'google-noor', email: 'noor@example.com', email_verified: false, name: 'Not Noor' };
    const tab = new Browser();
    const { message } = await popup(tab, 'google');
    expect(message.ok).toBe(false);
    expect(message.error).toMatch(/^An account with this email already exists/);
    expect((await me(tab)).status).toBe(401);
  });

  it('Google: a denied consent shows a clear error and signs nobody in', async () => {
    provider.service.once('beforeAuthorizeRedirect', ({ url }: { url: URL }) => {
      url.searchParams.delete('code');
      url.searchParams.set('error', 'access_denied');
      url.searchParams.set('error_description', 'The user denied access');
    });
    const tab = new Browser();
    const { message } = await popup(tab, 'google');
    expect(message).toEqual({ type: 'gridrocket:auth', ok: false, error: 'Google sign-in was cancelled: you did not allow GridRocket to use your Google account' });
    expect(tab.jar.has('gr_session')).toBe(false);
  });

  it('refuses a callback whose state is not the one this browser started (login CSRF)', async () => {
    userinfo = { sub: 'google-x', email: 'x@example.com', email_verified: true, name: 'X' };
    const tab = new Browser();
    const { message } = await popup(tab, 'google', (url) => url.searchParams.set('state', 'A'.repeat(32)));
    expect(message).toEqual({ type: 'gridrocket:auth', ok: false, error: 'Google sign-in failed, please try again' });
    // a callback in a browser that never started the flow
    const stranger = new Browser();
    const page = await stranger.get(`${base}/api/auth/google/callback?code=abc&state=${'B'.repeat(32)}`);
    expect(popupMessage(page.text).message.ok).toBe(false);
    expect((await me(stranger)).status).toBe(401);
  });

  it('Facebook: a new user is created with the name and photo; an existing email is linked; a denied consent is explained', async () => {
    userinfo = { id: 'fb-nia', name: 'Nia Fox', email: 'nia@example.com', picture: { data: { url: 'https://photos.example/nia.jpg' } } };
    const tab = new Browser();
    expect((await popup(tab, 'facebook')).message).toEqual({ type: 'gridrocket:auth', ok: true });
    expect((await me(tab)).body).toMatchObject({ displayName: 'Nia Fox', email: 'nia@example.com', emailVerified: true, photoURL: 'https://photos.example/nia.jpg' });

    // Lia came with Google; her Facebook account has the same address: same user
    const lia = new Browser();
    userinfo = { sub: 'google-lia', email: 'lia@example.com', email_verified: true, name: 'Lia Marsh' };
    await popup(lia, 'google');
    const liaUid = (await me(lia)).body.uid;
    userinfo = { id: 'fb-lia', name: 'Lia on Facebook', email: 'lia@example.com' };
    const fbTab = new Browser();
    expect((await popup(fbTab, 'facebook')).message.ok).toBe(true);
    expect((await me(fbTab)).body).toMatchObject({ uid: liaUid, displayName: 'Lia Marsh' });

    provider.service.once('beforeAuthorizeRedirect', ({ url }: { url: URL }) => {
      url.searchParams.delete('code');
      url.searchParams.set('error', 'access_denied');
      url.searchParams.set('error_reason', 'user_denied');
    });
    const denied = await popup(new Browser(), 'facebook');
    expect(denied.message).toEqual({ type: 'gridrocket:auth', ok: false, error: 'Facebook sign-in was cancelled: you did not allow GridRocket to use your Facebook account' });

    userinfo = { id: 'fb-nomail', name: 'No Mail' };
    const noMail = await popup(new Browser(), 'facebook');
    expect(noMail.message).toEqual({ type: 'gridrocket:auth', ok: false, error: 'Your Facebook account did not share an email address' });
  });

  it('Google with two-factor sign-in on (issue 30): the popup asks for the code and opens no session; the code completes it', async () => {
    userinfo = { sub: 'google-tia', email: 'tia@example.com', email_verified: true, name: 'Tia' };
    const tab = new Browser();
    expect((await popup(tab, 'google')).message.ok).toBe(true);
    // the signed-in tab turns 2FA on (CSRF double-submit as the dashboard sends it)
    await tab.get(`${base}/api/auth/csrf`);
    const post = async (path: string, body: unknown) => {
      const res = await fetch(base + path, { method: 'POST', headers: { cookie: tab.cookie(), 'x-csrf-token': tab.jar.get('csrf_token')!, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const i = pair.indexOf('=');
        if (pair.slice(i + 1) === '') tab.jar.delete(pair.slice(0, i));
        else tab.jar.set(pair.slice(0, i), pair.slice(i + 1));
      }
      return { status: res.status, body: (await res.json()) as any };
    };
    const { secret } = (await post('/api/auth/2fa/setup', {})).body;
    const key = base32Decode(secret)!;
    const step = totpStep(Date.now());
    expect((await post('/api/auth/2fa/enable', { code: hotp(key, step) })).status).toBe(200);

    // a new browser: Google vouches for Tia, and the account asks for its code
    tab.jar.clear();
    const { message } = await popup(tab, 'google');
    expect(message).toEqual({ type: 'gridrocket:auth', ok: false, twoFactorRequired: true, error: 'Enter the 6-digit code from your authenticator app' });
    expect(tab.jar.has('gr_session')).toBe(false);
    expect(tab.jar.has('gr_2fa_pending')).toBe(true);
    expect((await me(tab)).status).toBe(401);
    await tab.get(`${base}/api/auth/csrf`);
    const done = await post('/api/auth/2fa/verify', { code: hotp(key, step + 1) });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ email: 'tia@example.com' });
    expect((await me(tab)).status).toBe(200);
  });

  it('GET /api/config says both providers are configured', async () => {
    const res = await fetch(`${base}/api/config`);
    expect(((await res.json()) as any).providers).toEqual({ google: true, facebook: true });
  });
});

describe('identity: providers that are not configured', () => {
  const t = useTestApp({ PUBLIC_URL: 'http://localhost:5173' });

  it.each([
    ['google', 'Google'],
    ['facebook', 'Facebook'],
  ])('GET /api/auth/%s answers a popup page saying so (no 404)', async (name, label) => {
    for (const path of [`/api/auth/${name}`, `/api/auth/${name}/callback?code=x&state=y`]) {
      const res = await fetch(t.app.url + path, { redirect: 'manual' });
      expect(res.status).toBe(200);
      const { message, origin } = popupMessage(await res.text());
      expect(message).toEqual({ type: 'gridrocket:auth', ok: false, error: `${label} sign-in is not configured` });
      expect(origin).toBe('http://localhost:5173');
    }
  });

  it('GET /api/config says no provider is configured', async () => {
    expect((await new Client(t.app.url).get('/api/config')).body.providers).toEqual({ google: false, facebook: false });
  });
});
