import { io, Socket } from 'socket.io-client';
import { until } from '@gridrocket/shared/testing/until';
import { SEEN_EVERY_MS, SessionService } from '@gridrocket/identity/nest';
import { Client } from './support/http-client';
import { startTestApp } from './support/test-app';

/**
 * Issue 30: the user's sessions under the user's control. A list of the sessions (created, last seen,
 * browser, address, which one is this), "sign out" per session and "sign out everywhere"; both end the
 * sessions' sockets at once.
 */
const PASSWORD = 'correct-horse-1';
const CHROME_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

type TestApp = Awaited<ReturnType<typeof startTestApp>>;

interface SessionView {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  browser: string;
  address: string | null;
  current: boolean;
}

/** A browser signed in as `email` with this User-Agent, and its open socket (ready), whose disconnect is noted. */
async function browser(app: TestApp, email: string, userAgent: string) {
  const c = new Client(app.url);
  await c.fetchCsrf();
  const login = await c.raw('POST', '/api/auth/login', {
    body: JSON.stringify({ email, password: PASSWORD }),
    headers: { 'content-type': 'application/json', 'user-agent': userAgent },
  });
  expect(login.status).toBe(200);
  const socket = await openSocket(app, c);
  const heard = { disconnected: false, error: undefined as string | undefined };
  socket.on('auth:error', (e: { message: string }) => (heard.error = e.message));
  socket.on('disconnect', () => (heard.disconnected = true));
  return { c, socket, heard };
}

function openSocket(app: TestApp, c: Client): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = io(app.url, { path: '/socket.io', transports: ['websocket'], extraHeaders: { cookie: c.cookieHeader() }, reconnection: false });
    socket.once('ready', () => resolve(socket));
    socket.once('connect_error', (e) => reject(e));
    socket.once('disconnect', () => reject(new Error('socket refused')));
  });
}

async function sessionsOf(c: Client): Promise<SessionView[]> {
  const res = await c.get('/api/sessions');
  expect(res.status).toBe(200);
  return res.body.sessions;
}

describe('sessions under the user\'s control (issue 30)', () => {
  let app: TestApp;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    app = await startTestApp();
  }, 60_000);
  afterAll(async () => {
    for (const s of sockets) s.close();
    await app.close();
  });

  async function threeBrowsers(email: string) {
    await new Client(app.url).signUp(email, PASSWORD); // a fourth session, left alone: signUp signs in too
    const b = [await browser(app, email, CHROME_LINUX), await browser(app, email, FIREFOX_WINDOWS), await browser(app, email, SAFARI_IPHONE)];
    sockets.push(...b.map((x) => x.socket));
    return b;
  }

  it('lists the sessions: created, last seen, browser, address, the current one marked; no session id in full', async () => {
    const [chrome, firefox] = await threeBrowsers('lister@example.com');
    const list = await sessionsOf(chrome.c);
    expect(list).toHaveLength(4);
    expect(list[0]).toMatchObject({ current: true, browser: 'Chrome on Linux', address: '127.0.0.1' });
    expect(list.filter((s) => s.current)).toHaveLength(1);
    expect(list.map((s) => s.browser).sort()).toEqual(['Chrome on Linux', 'Firefox on Windows', 'Node.js', 'Safari on iPhone']);
    for (const s of list) {
      expect(s.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(Date.parse(s.createdAt)).toBeGreaterThan(Date.now() - 60_000);
      expect(Date.parse(s.lastSeenAt)).toBeGreaterThanOrEqual(Date.parse(s.createdAt));
    }
    // the other browser sees the same sessions, itself marked as the current one
    const seen = await sessionsOf(firefox.c);
    expect(seen.find((s) => s.current)!.browser).toBe('Firefox on Windows');
    expect(seen.map((s) => s.id).sort()).toEqual(list.map((s) => s.id).sort());
    // neither the token nor its digest (the session id) is ever shown
    const token = /gr_session=([^;]+)/.exec(chrome.c.cookieHeader())![1];
    const text = (await chrome.c.get('/api/sessions')).text;
    expect(text).not.toContain(token);
    const { createHash } = await import('node:crypto');
    expect(text).not.toContain(createHash('sha256').update(token).digest('hex'));
  }, 30_000);

  it('"sign out everywhere" from one browser ends the other sessions and closes their sockets within a second', async () => {
    const [chrome, firefox, safari] = await threeBrowsers('everywhere@example.com');
    expect((await firefox.c.get('/api/auth/me')).status).toBe(200);
    const res = await chrome.c.post('/api/sessions/sign-out-others');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ signedOut: 3 });
    // the sockets of the ended sessions are closed by the server, within a second
    await until('the other two sockets are disconnected', () => firefox.heard.disconnected && safari.heard.disconnected, 1_000);
    expect(firefox.heard.error).toBe('Signed out');
    expect(safari.heard.error).toBe('Signed out');
    // their next request is refused; this one goes on, with its socket
    expect((await firefox.c.get('/api/auth/me')).status).toBe(401);
    expect((await safari.c.get('/api/bots')).status).toBe(401);
    expect((await chrome.c.get('/api/auth/me')).status).toBe(200);
    expect(chrome.socket.connected).toBe(true);
    expect(chrome.heard.disconnected).toBe(false);
    const left = await sessionsOf(chrome.c);
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ current: true, browser: 'Chrome on Linux' });
    // nothing left to end
    expect((await chrome.c.post('/api/sessions/sign-out-others')).body).toEqual({ signedOut: 0 });
  }, 30_000);

  it('"sign out" of one session ends that session and its socket only', async () => {
    const [chrome, firefox, safari] = await threeBrowsers('one@example.com');
    const list = await sessionsOf(chrome.c);
    const target = list.find((s) => s.browser === 'Safari on iPhone')!;
    expect((await chrome.c.delete(`/api/sessions/${target.id}`)).status).toBe(204);
    await until('the iPhone socket is disconnected', () => safari.heard.disconnected, 1_000);
    expect((await safari.c.get('/api/auth/me')).status).toBe(401);
    expect((await firefox.c.get('/api/auth/me')).status).toBe(200);
    expect(firefox.socket.connected).toBe(true);
    expect((await sessionsOf(chrome.c)).map((s) => s.id)).not.toContain(target.id);
    // the same id again: gone
    expect((await chrome.c.delete(`/api/sessions/${target.id}`)).status).toBe(404);
  }, 30_000);

  it("another user's session id is 404, as an id that never was; their session lives on", async () => {
    const [mine] = await threeBrowsers('mallory@example.com');
    await new Client(app.url).signUp('victim30@example.com', PASSWORD);
    const victim = await browser(app, 'victim30@example.com', CHROME_LINUX);
    sockets.push(victim.socket);
    const theirs = (await sessionsOf(victim.c)).map((s) => s.id);
    for (const id of theirs) {
      const res = await mine.c.delete(`/api/sessions/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('No such session');
    }
    const never = await mine.c.delete(`/api/sessions/${'A'.repeat(22)}`);
    expect(never.status).toBe(404);
    expect(never.body.message).toBe('No such session');
    expect((await mine.c.delete('/api/sessions/not-an-id')).status).toBe(404);
    expect((await victim.c.get('/api/auth/me')).status).toBe(200);
    expect(victim.socket.connected).toBe(true);
    expect((await sessionsOf(victim.c)).map((s) => s.id).sort()).toEqual([...theirs].sort());
  }, 30_000);

  it('"last seen" and the address move when a session is used after a while (recorded at most every few minutes)', async () => {
    const [chrome] = await threeBrowsers('seen@example.com');
    const before = (await sessionsOf(chrome.c)).find((s) => s.current)!;
    // used moments after the sign-in: nothing is recorded yet
    expect((await sessionsOf(chrome.c)).find((s) => s.current)).toEqual(before);
    // the same session, seen as if SEEN_EVERY_MS had passed since, from another address
    const service = app.app.get(SessionService);
    const token = /gr_session=([^;]+)/.exec(chrome.c.cookieHeader())![1];
    const resolved = (await service.resolve(token))!;
    service.noteSeen({ ...resolved, lastSeenAt: Date.now() - SEEN_EVERY_MS - 1 }, '::ffff:10.1.2.3');
    const after = await until('the new address shows', async () => (await sessionsOf(chrome.c)).find((s) => s.current && s.address === '10.1.2.3'), 5_000);
    expect(after.createdAt).toBe(before.createdAt);
    expect(Date.parse(after.lastSeenAt)).toBeGreaterThan(Date.parse(before.lastSeenAt));
  }, 30_000);

  it('needs a session and the CSRF header', async () => {
    const stranger = new Client(app.url);
    expect((await stranger.get('/api/sessions')).status).toBe(401);
    expect((await stranger.post('/api/sessions/sign-out-others')).status).toBe(401);
    const [chrome, firefox] = await threeBrowsers('csrf30@example.com');
    expect((await chrome.c.post('/api/sessions/sign-out-others', undefined, { csrf: false })).status).toBe(403);
    const id = (await sessionsOf(chrome.c)).find((s) => !s.current)!.id;
    expect((await chrome.c.raw('DELETE', `/api/sessions/${id}`, { csrf: false })).status).toBe(403);
    expect((await firefox.c.get('/api/auth/me')).status).toBe(200);
    expect((await sessionsOf(chrome.c))).toHaveLength(4);
  }, 30_000);
});
