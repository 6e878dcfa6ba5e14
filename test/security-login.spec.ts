import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuthThrottle } from '@gridrocket/identity/nest';
import { LoginDelayPolicy, delayAfterFailures, recordFailure, refundPoint, reserveAttempt } from '@gridrocket/identity';
import { SqliteReadStore } from '@gridrocket/read-store';
import { Keyring, loadConfig } from '@gridrocket/shared/runtime';
import { TooManyRequestsError } from '@gridrocket/shared';
import { Client } from './support/http-client';
import { useTestApp } from './support/trader-app';

/**
 * Issue 11, finding 4: ten failed logins from anywhere made the owner's correct password answer 429 for
 * 15 minutes. Failures now count per account AND client, with progressive delays, and the state lives
 * in the read store.
 */
class At extends Client {
  constructor(baseUrl: string, private readonly ip: string) {
    super(baseUrl);
  }
  /** The same client, seen from another address (the API trusts X-Forwarded-For from loopback only). */
  login(email: string, password: string) {
    return this.raw('POST', '/api/auth/login', { body: JSON.stringify({ email, password }), headers: { 'content-type': 'application/json', 'x-forwarded-for': this.ip } });
  }
}

describe('security: failed logins never lock the owner out', () => {
  const t = useTestApp({ AUTH_THROTTLE_PER_EMAIL: '3', AUTH_THROTTLE_PER_IP: '1000', AUTH_THROTTLE_WINDOW_SECONDS: '900' });

  it('ten failures from an attacker: the attacker waits, the owner signs in from their browser and from another address', async () => {
    const owner = new At(t.app.url, '198.51.100.7');
    await owner.signUp('owner@example.com', 'correct-horse-1'); // this browser is now known to the account
    const attacker = new At(t.app.url, '203.0.113.9');
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await attacker.login('owner@example.com', `wrong-guess-${i}`)).status);
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses.slice(3)).toEqual([429, 429, 429, 429, 429, 429, 429]);
    // even the right password waits, from the attacker's client
    const blocked = await attacker.login('owner@example.com', 'correct-horse-1');
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);

    // the owner's own browser, even behind the attacker's address (same NAT)
    const sameNat = new At(t.app.url, '203.0.113.9');
    (sameNat as unknown as { cookies: Map<string, string> }).cookies = new Map((owner as unknown as { cookies: Map<string, string> }).cookies);
    expect((await sameNat.login('owner@example.com', 'correct-horse-1')).status).toBe(200);
    // a fresh browser at another address
    expect((await new At(t.app.url, '192.0.2.44').login('owner@example.com', 'correct-horse-1')).status).toBe(200);
    expect((await owner.login('owner@example.com', 'correct-horse-1')).status).toBe(200);
  }, 60_000);

  it('delays grow with each failure, up to the window', () => {
    const p: LoginDelayPolicy = { freeFailures: 3, firstDelaySeconds: 5, maxDelaySeconds: 900 };
    expect([1, 2, 3, 4, 5, 6, 7, 12].map((n) => delayAfterFailures(n, p))).toEqual([0, 0, 5, 10, 20, 40, 80, 900]);
    let doc = null;
    for (let i = 0; i < 4; i++) doc = recordFailure(doc, 'x', 1_000_000, p);
    expect(doc).toEqual({ id: 'x', failures: 4, lastFailureAt: 1_000_000, blockedUntil: 1_010_000 });
    // forgotten after the window
    expect(recordFailure(doc, 'x', 1_000_000 + 900_000, p).failures).toBe(1);
  });

  it('the limiter state lives in the read store: two replicas on one read store see the same failures', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gr-throttle-'));
    const a = new SqliteReadStore(join(dir, 'read.sqlite'));
    const b = new SqliteReadStore(join(dir, 'read.sqlite'));
    try {
      const config = loadConfig({ DATA_DIR: dir, AUTH_THROTTLE_PER_EMAIL: '2' });
      const keyring = Keyring.fromKey(Buffer.alloc(32, 7));
      const replicaA = new AuthThrottle(config, a, keyring);
      const replicaB = new AuthThrottle(config, b, keyring);
      const client = replicaA.clientOf('uid-1', '203.0.113.9', undefined);
      // two attempts (each counted as failed until it succeeds), one on each replica
      await replicaA.beginLogin('shared@example.com', client);
      await replicaB.beginLogin('shared@example.com', client);
      await expect(replicaA.beginLogin('shared@example.com', client)).rejects.toBeInstanceOf(TooManyRequestsError);
      await expect(replicaB.beginLogin('shared@example.com', client)).rejects.toBeInstanceOf(TooManyRequestsError);
      await expect(replicaB.beginLogin('shared@example.com', replicaB.clientOf('uid-1', '192.0.2.1', undefined))).resolves.toBeUndefined();
    } finally {
      await a.close();
      await b.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('security: the sign-in counts, pure rules (issue 28)', () => {
  const p: LoginDelayPolicy = { freeFailures: 2, firstDelaySeconds: 5, maxDelaySeconds: 900 };

  it('an attempt is refused while its client waits, else counted before the password is checked', () => {
    const first = reserveAttempt(null, 'x', 1_000, p);
    expect(first).toEqual({ wait: 0, next: { id: 'x', failures: 1, lastFailureAt: 1_000, blockedUntil: 1_000 } });
    const second = reserveAttempt(first.next!, 'x', 2_000, p);
    expect(second.next).toEqual({ id: 'x', failures: 2, lastFailureAt: 2_000, blockedUntil: 7_000 });
    expect(reserveAttempt(second.next!, 'x', 3_000, p)).toEqual({ wait: 4_000, next: undefined });
  });

  it('a success gives back the point it spent, in the same window only', () => {
    expect(refundPoint({ id: 'b', count: 3, windowStart: 0 }, 10, 100)).toEqual({ id: 'b', count: 2, windowStart: 0 });
    expect(refundPoint({ id: 'b', count: 3, windowStart: 0 }, 100, 100)).toBeUndefined();
    expect(refundPoint({ id: 'b', count: 0, windowStart: 0 }, 10, 100)).toBeUndefined();
    expect(refundPoint(null, 10, 100)).toBeUndefined();
  });
});
