import { readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import { io, Socket } from 'socket.io-client';
import { join } from 'node:path';
import { findNginx, hasOpenssl, RunningNginx, SITE_FILE, startNginx } from '../e2e/nginx';
import { spotBot } from './support/http-client';
import { startTestApp } from './support/test-app';

/**
 * Issue 31, finding 6 and its "done when": GridRocket behind Debian's nginx with TLS, configured by
 * deploy/nginx/gridrocket.conf itself (e2e/nginx.js templates only its names, ports and paths). Through it a
 * browser signs in (Secure cookies, HSTS), starts a paper bot and hears the push over wss; and, with the
 * API trusting nginx's address (TRUST_PROXY), failed logins from one client address do not lock out
 * another. The clients connect from two loopback addresses (127.0.0.2 and 127.0.0.3) and nginx reaches the
 * API from a third (127.0.0.4, `proxy_bind`), so the API sees a proxy that is not 127.0.0.1 and two
 * clients that only X-Forwarded-For tells apart: the compose file's situation (a proxy in another
 * container). Skips, saying why, where nginx or openssl is not installed.
 */
const nginx = findNginx();
const missing = !nginx.path ? nginx.reason : !hasOpenssl() ? 'openssl is not installed (it makes the test certificate)' : null;
if (missing) console.warn(`proxy-nginx: skipped: ${missing}`);
const withNginx = missing ? describe.skip : describe;

const ATTACKER = '127.0.0.2';
const VICTIM = '127.0.0.3';
const NGINX_FROM = '127.0.0.4';
const PASSWORD = 'correct-horse-1';

interface Answer {
  status: number;
  body: any;
  headers: Record<string, string | string[] | undefined>;
  cookies: string[];
}

/** A browser at one client address: keeps its cookies, sends the CSRF header, trusts the test certificate. */
class Browser {
  private jar = new Map<string, string>();
  constructor(
    readonly base: string,
    readonly ca: Buffer,
    readonly localAddress: string,
  ) {}

  cookieHeader() {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const url = new URL(path, this.base);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const csrf = this.jar.get('csrf_token');
    const all: Record<string, string> = {
      ...(payload ? { 'content-type': 'application/json' } : {}),
      ...(this.jar.size ? { cookie: this.cookieHeader() } : {}),
      ...(csrf ? { 'x-csrf-token': csrf } : {}),
      ...headers,
    };
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = request(url, { method, headers: all, ca: this.ca, localAddress: this.localAddress, agent: false }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => {
          const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
          for (const c of cookies) {
            const [pair] = c.split(';');
            const i = pair.indexOf('=');
            const value = pair.slice(i + 1);
            if (value === '' || /expires=Thu, 01 Jan 1970/i.test(c)) this.jar.delete(pair.slice(0, i));
            else this.jar.set(pair.slice(0, i), value);
          }
          let json: any;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, body: json, headers: res.headers, cookies });
        });
      });
      req.on('error', reject);
      req.end(payload);
    });
  }

  async csrf() {
    if (!this.jar.has('csrf_token')) await this.send('GET', '/api/auth/csrf');
  }
  async post(path: string, body?: unknown) {
    await this.csrf();
    return this.send('POST', path, body);
  }
  async get(path: string) {
    await this.csrf();
    return this.send('GET', path);
  }
  login(email: string, password: string, headers: Record<string, string> = {}) {
    return this.csrf().then(() => this.send('POST', '/api/auth/login', { email, password }, headers));
  }

  /** socket.io over wss through nginx, from this browser's address, with its cookie and the given Origin. */
  socket(origin: string): Promise<{ socket: Socket; ready: boolean; error?: string }> {
    return new Promise((resolve) => {
      // engine.io-client hands `ca` and `localAddress` to ws in Node (transports/websocket.js picks them),
      // though its types do not list localAddress
      const options = {
        path: '/socket.io',
        transports: ['websocket'],
        ca: this.ca.toString(),
        localAddress: this.localAddress,
        extraHeaders: { cookie: this.cookieHeader(), origin },
        reconnection: false,
      };
      const socket = io(this.base, options);
      let error: string | undefined;
      socket.on('auth:error', (e: { message: string }) => (error = e.message));
      socket.once('ready', () => resolve({ socket, ready: true }));
      socket.once('connect_error', (e) => resolve({ socket, ready: false, error: e.message }));
      socket.once('disconnect', () => resolve({ socket, ready: false, error }));
    });
  }
}

/** The API (TRUST_PROXY as given, Secure cookies, its public name elsewhere) behind nginx. */
async function behindNginx(trustProxy: string) {
  const app = await startTestApp({ TRUST_PROXY: trustProxy, COOKIE_SECURE: 'true', PUBLIC_URL: 'https://gridrocket.example.com' });
  let proxy: RunningNginx;
  try {
    proxy = await startNginx({ upstreamPort: app.port, proxyBind: NGINX_FROM });
  } catch (e) {
    await app.close();
    throw e;
  }
  return {
    app,
    proxy,
    browser: (address: string) => new Browser(proxy.url, proxy.ca, address),
    async close() {
      await proxy.stop();
      await app.close();
    },
  };
}

/** 11 wrong passwords for the victim's account from the attacker's address (it also forges X-Forwarded-For with the victim's). */
async function elevenFailures(world: Awaited<ReturnType<typeof behindNginx>>, email: string) {
  const statuses: number[] = [];
  for (let i = 0; i < 11; i++) {
    statuses.push((await world.browser(ATTACKER).login(email, `wrong-guess-${i}`, { 'x-forwarded-for': VICTIM })).status);
  }
  return statuses;
}

withNginx('behind Debian\'s nginx with TLS (deploy/nginx/gridrocket.conf)', () => {
  describe(`TRUST_PROXY=${NGINX_FROM} (nginx's address)`, () => {
    let world: Awaited<ReturnType<typeof behindNginx>>;
    const sockets: Socket[] = [];
    beforeAll(async () => {
      world = await behindNginx(NGINX_FROM);
    }, 60_000);
    afterAll(async () => {
      for (const s of sockets) s.close();
      await world?.close();
    });

    it('signs in over TLS with Secure cookies, starts a paper bot and hears the push over wss', async () => {
      const owner = world.browser(VICTIM);
      const registered = await owner.post('/api/auth/register', { email: 'proxied@example.com', password: PASSWORD });
      expect(registered.status).toBe(201);
      const uid = registered.body.uid as string;

      // another browser signs in: every cookie Secure, HSTS sent
      const browser = world.browser(VICTIM);
      const signedIn = await browser.login('proxied@example.com', PASSWORD);
      expect(signedIn.status).toBe(200);
      expect(signedIn.cookies.length).toBeGreaterThan(0);
      for (const c of signedIn.cookies) expect({ cookie: c.split('=')[0], secure: /;\s*Secure/i.test(c) }).toEqual({ cookie: c.split('=')[0], secure: true });
      expect(signedIn.headers['strict-transport-security']).toMatch(/max-age=\d+/);

      // the API saw the client's address (nginx's X-Forwarded-For), not nginx's
      const sessions = await browser.get('/api/sessions');
      expect(sessions.status).toBe(200);
      expect(sessions.body.sessions.find((s: { current: boolean }) => s.current).address).toBe(VICTIM);

      // the live connection through nginx's WebSocket upgrade, from the page's origin (https://127.0.0.1:<port>)
      const live = await browser.socket(world.proxy.url);
      sockets.push(live.socket);
      expect(live).toMatchObject({ ready: true });
      expect(live.socket.io.engine.transport.name).toBe('websocket');
      // a page on plain http with the same host and port is another origin
      const plain = await browser.socket(world.proxy.url.replace('https:', 'http:'));
      sockets.push(plain.socket);
      expect(plain.ready).toBe(false);

      const key = await browser.post('/api/api-credentials', { access: { exchange: 'Binance', apiKey: 'test-binance-key', keySecret: 'test-secret-0123456789', passPhrase: '', userId: uid } });
      expect([200, 201]).toContain(key.status);
      const bot = await browser.post('/api/bots', { ...spotBot, userId: uid });
      expect(bot.status).toBe(201);
      const id = bot.body.id as string;
      const pushed = new Promise<unknown>((resolve) => {
        live.socket.on('bot:status', (p: { id: string; botstatus: boolean }) => {
          if (p.id === id && p.botstatus === true) resolve(p);
        });
      });
      const started = await browser.get(`/api/startBot?userId=${uid}&id=${id}`);
      expect(started.status).toBe(202);
      expect(await pushed).toMatchObject({ id, botstatus: true });
      const details = await browser.get(`/api/bot-details/${id}`);
      expect(details.body).toMatchObject({ botstatus: true, state: 'running' });
    }, 60_000);

    it('plain HTTP is redirected to HTTPS', async () => {
      const res = await world.browser(VICTIM).send('GET', new URL('/bots', world.proxy.httpUrl).toString());
      expect(res.status).toBe(301);
      expect(res.headers.location).toMatch(/^https:\/\/127\.0\.0\.1\/bots$/);
    });

    it('11 failed logins from one client address do not lock another client out (issue 31: they did, with the proxy untrusted)', async () => {
      expect((await world.browser(VICTIM).post('/api/auth/register', { email: 'victim@example.com', password: PASSWORD })).status).toBe(201);
      // the attacker's 10 free failures, then its delay: its address is its own, whatever it forges
      expect(await elevenFailures(world, 'victim@example.com')).toEqual([...Array(10).fill(401), 429]);
      // the victim, from another address, in a browser the account has not seen: signed in
      const victim = world.browser(VICTIM);
      expect((await victim.login('victim@example.com', PASSWORD)).status).toBe(200);
      // and the attacker is still waiting
      expect((await world.browser(ATTACKER).login('victim@example.com', PASSWORD)).status).toBe(429);
    }, 60_000);
  });

  // What finding 6 saw: a proxy whose address the API does not trust makes every client that one address.
  describe('TRUST_PROXY=127.0.0.1 (not nginx\'s address): the control', () => {
    let world: Awaited<ReturnType<typeof behindNginx>>;
    beforeAll(async () => {
      world = await behindNginx('127.0.0.1');
    }, 60_000);
    afterAll(async () => {
      await world?.close();
    });

    it('every client is nginx\'s address: the attacker\'s failures lock the victim\'s correct password out', async () => {
      expect((await world.browser(VICTIM).post('/api/auth/register', { email: 'victim@example.com', password: PASSWORD })).status).toBe(201);
      expect(await elevenFailures(world, 'victim@example.com')).toEqual([...Array(10).fill(401), 429]);
      expect((await world.browser(VICTIM).login('victim@example.com', PASSWORD)).status).toBe(429);
    }, 60_000);
  });
});

describe('the nginx configuration the README shows', () => {
  it('is deploy/nginx/gridrocket.conf, word for word (the file the tests above run)', () => {
    const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
    const file = readFileSync(SITE_FILE, 'utf8');
    expect(readme).toContain('```nginx\n' + file + '```');
  });

  it('the compose file passes TRUST_PROXY and COOKIE_SECURE from .env to the API', () => {
    const compose = readFileSync(join(__dirname, '..', 'docker-compose.yml'), 'utf8');
    expect(compose).toContain('TRUST_PROXY: ${TRUST_PROXY:-loopback}');
    expect(compose).toContain('COOKIE_SECURE: ${COOKIE_SECURE:-false}');
  });
});
