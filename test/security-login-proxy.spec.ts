import { SessionService } from '@gridrocket/identity/nest';
import { loadConfig } from '@gridrocket/shared/runtime';
import { Client } from './support/http-client';
import { startTestApp } from './support/test-app';

/**
 * Issue 28, finding 6: login throttling could be dodged by rotating X-Forwarded-For behind a trusted
 * proxy, and turned on everyone behind one address (register, forgot-password and the owner's correct
 * password all 429 after 330 anonymous failed logins), while every one of those attempts ran the
 * password hash.
 */
type App = Awaited<ReturnType<typeof startTestApp>>;

/** A browser behind a proxy that passes X-Forwarded-For on (the API trusts loopback by default). */
class Browser extends Client {
  constructor(baseUrl: string, public ip: string) {
    super(baseUrl);
  }
  send(path: string, body: unknown) {
    return this.raw('POST', path, { body: JSON.stringify(body), headers: { 'content-type': 'application/json', 'x-forwarded-for': this.ip } });
  }
  login(email: string, password: string) {
    return this.send('/api/auth/login', { email, password });
  }
}

/** Counts the password hash's verifications (each one is ~20 ms of a core with argon2id). */
function countHashes(app: App): { count: number; restore: () => void } {
  const hasher = (app.app.get(SessionService) as unknown as { hasher: { verify: (...a: unknown[]) => Promise<boolean> } }).hasher;
  const original = hasher.verify;
  const counter = { count: 0, restore: () => void (hasher.verify = original) };
  hasher.verify = function (...args: unknown[]) {
    counter.count++;
    return original.apply(this, args);
  };
  return counter;
}

describe('security: login throttling behind a proxy (defaults: 20 failures per account, 100 failed logins per address)', () => {
  let app: App;
  beforeAll(async () => {
    app = await startTestApp();
  }, 60_000);
  afterAll(async () => {
    await app.close();
  });

  it('rotating X-Forwarded-For does not reset the account count: the 21st wrong password is 429; the owner\'s known browser still signs in', async () => {
    const owner = new Browser(app.url, '198.51.100.7');
    expect((await owner.send('/api/auth/register', { email: 'rotated@example.com', password: 'correct-horse-1' })).status).toBe(201);
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const attacker = new Browser(app.url, `203.0.113.${i + 1}`);
      statuses.push((await attacker.login('rotated@example.com', `wrong-guess-${i}`)).status);
    }
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(statuses.slice(20)).toEqual(Array(20).fill(429));
    // a fresh browser, even with the right password, waits (the account is under attack) …
    const fresh = await new Browser(app.url, '192.0.2.200').login('rotated@example.com', 'correct-horse-1');
    expect(fresh.status).toBe(429);
    expect(Number(fresh.headers.get('retry-after'))).toBeGreaterThan(0);
    // … but the browser that signed in before is judged by its own limit, from any address
    owner.ip = '203.0.113.1';
    expect((await owner.login('rotated@example.com', 'correct-horse-1')).status).toBe(200);
  }, 120_000);

  it('330 failed logins from one address: the hash runs at most 100 times, the owner\'s known browser signs in, register and forgot-password still work', async () => {
    const nat = '203.0.113.250';
    const owner = new Browser(app.url, nat);
    expect((await owner.send('/api/auth/register', { email: 'natowner@example.com', password: 'correct-horse-1' })).status).toBe(201);
    const hashes = countHashes(app);
    const statuses: number[] = [];
    try {
      // 33 rounds of 10 at once: guesses at the owner's account and at made-up ones
      for (let round = 0; round < 33; round++) {
        const batch = Array.from({ length: 10 }, (_, i) => {
          const email = i === 0 ? 'natowner@example.com' : `nobody${round}-${i}@example.com`;
          return new Browser(app.url, nat).login(email, `wrong-guess-${round}-${i}`).then((r) => r.status);
        });
        statuses.push(...(await Promise.all(batch)));
      }
    } finally {
      hashes.restore();
    }
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    expect(statuses.filter((s) => s === 401).length).toBe(100);
    // refused attempts never reach the hash
    expect(hashes.count).toBeLessThanOrEqual(100);

    // the owner's browser, behind the same address, with the right password
    expect((await owner.login('natowner@example.com', 'correct-horse-1')).status).toBe(200);
    // everyone else behind that address can still register and ask for a reset link
    expect((await new Browser(app.url, nat).send('/api/auth/register', { email: 'natnewcomer@example.com', password: 'correct-horse-1' })).status).toBe(201);
    expect((await new Browser(app.url, nat).send('/api/auth/forgot-password', { email: 'natowner@example.com' })).status).toBe(202);
  }, 180_000);
});

describe('security: TRUST_PROXY', () => {
  it('parses a hop count, loopback and address/CIDR lists, and refuses anything else', () => {
    expect(loadConfig({}).trustProxy).toBe('loopback');
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: ' loopback, 10.0.0.0/8 , 172.18.0.2, fd00::/8 ' }).trustProxy).toEqual(['loopback', '10.0.0.0/8', '172.18.0.2', 'fd00::/8']);
    for (const bad of ['true', 'yes', '10.0.0.0/33', '300.1.1.1', '-1', '1.5', 'example.com']) {
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(/TRUST_PROXY/);
    }
  });

  it('X-Forwarded-For from an address outside TRUST_PROXY is ignored: rotating it does not split the count', async () => {
    const app = await startTestApp({ TRUST_PROXY: '10.0.0.0/8' });
    try {
      await new Browser(app.url, '198.51.100.7').send('/api/auth/register', { email: 'direct@example.com', password: 'correct-horse-1' });
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) statuses.push((await new Browser(app.url, `203.0.113.${i + 1}`).login('direct@example.com', `wrong-guess-${i}`)).status);
      // the 10 free failures of one client (127.0.0.1, the real peer), then its delay
      expect(statuses).toEqual([...Array(10).fill(401), 429]);
    } finally {
      await app.close();
    }
  }, 60_000);
});
