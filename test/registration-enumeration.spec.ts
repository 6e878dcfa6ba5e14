import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { SqliteEventStore } from '@gridrocket/event-store';
import { until } from '@gridrocket/shared/testing/until';
import { Client } from './support/http-client';
import { startTestApp } from './support/test-app';
import { useTestApp } from './support/trader-app';
import { mailFiles } from './support/mailbox';

/**
 * Issue 30: registering an address that has an account answered 409 "An account with this email already
 * exists": anyone could test which addresses are customers. Now both answer alike (status, body, the
 * cookies set), do the same work, and the owner is mailed a notice with a password reset link.
 */
const PUBLIC_URL = 'http://localhost:5173';
const PASSWORD = 'correct-horse-1';
type TestApp = Awaited<ReturnType<typeof startTestApp>>;

/** The .eml files the embedded mailer wrote (DATA_DIR/mail), oldest first. */
function mailbox(app: TestApp) {
  return mailFiles(app.dataDir).map(({ to, subject, text }) => ({ to, subject, text, links: text.match(/https?:\/\/[^\s"<>]+\?token=[A-Za-z0-9_-]+/g) ?? [] }));
}

/** What a registration answers, less what differs by nature between any two answers (values of cookies, dates). */
function shapeOf(res: { status: number; body: Record<string, unknown>; headers: Headers }, email: string) {
  const { uid, ...rest } = res.body;
  return {
    status: res.status,
    body: { ...rest, uid: typeof uid === 'string' && uid.length > 0 ? 'a uid' : uid, email: rest.email === email ? 'the address given' : rest.email },
    cookies: res.headers
      .getSetCookie()
      .map((c) => c.replace(/^([^=]+)=[^;]*/, '$1=…').replace(/Expires=[^;]+/i, 'Expires=…'))
      .sort(),
    headers: [...res.headers.keys()].filter((k) => !['date', 'content-length', 'etag', 'x-correlation-id', 'x-request-id'].includes(k)).sort(),
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

describe('registration does not tell which addresses have an account (issue 30)', () => {
  const t = useTestApp({ PUBLIC_URL });

  async function register(email: string, password = 'a-fresh-passphrase-9') {
    const c = new Client(t.app.url);
    await c.fetchCsrf();
    return { c, res: await c.post('/api/auth/register', { email, password }) };
  }

  it('an existing and a new address get the same status, body and cookies; the owner is mailed a notice with a reset link', async () => {
    const owner = new Client(t.app.url);
    const account = await owner.signUp('owner@example.com', PASSWORD);
    await owner.post('/api/user', { userId: account.uid, username: 'Owner Name' });

    const existing = await register('owner@example.com');
    const fresh = await register('newcomer@example.com');
    expect(existing.res.status).toBe(201);
    expect(shapeOf(existing.res, 'owner@example.com')).toEqual(shapeOf(fresh.res, 'newcomer@example.com'));
    // nothing of the real account shows (its name, its verified state)
    expect(existing.res.body).toEqual({ uid: account.uid, email: 'owner@example.com', displayName: '', emailVerified: false, photoURL: null });
    expect(JSON.stringify(existing.res.body)).not.toContain('Owner Name');

    // the owner's mailbox has the notice, with a working reset link
    const notice = await until('the notice to the owner', () => mailbox(t.app).find((m) => m.to === 'owner@example.com' && /tried to register/i.test(m.subject)), 5_000);
    expect(notice.subject).toBe('Someone tried to register with your email address');
    expect(notice.text).toMatch(/Somebody tried to create a GridRocket account with your email address/);
    const link = notice.links.find((l) => l.startsWith(`${PUBLIC_URL}/reset-password?token=`))!;
    expect(link).toBeDefined();
    // the newcomer got the verification mail as before
    await until('the verification mail to the newcomer', () => mailbox(t.app).find((m) => m.to === 'newcomer@example.com' && m.links.some((l) => l.includes('/verify-email-address'))), 5_000);

    // the account is untouched: the owner's session lives, the old password signs in, the one tried does not
    expect((await owner.get('/api/auth/me')).body).toMatchObject({ displayName: 'Owner Name' });
    expect((await new Client(t.app.url).post('/api/auth/login', { email: 'owner@example.com', password: PASSWORD })).status).toBe(200);
    expect((await new Client(t.app.url).post('/api/auth/login', { email: 'owner@example.com', password: 'a-fresh-passphrase-9' })).status).toBe(401);
    // the cookie handed to whoever tried opens nothing of the account
    expect((await existing.c.get('/api/auth/me')).status).toBe(401);
    expect((await fresh.c.get('/api/auth/me')).status).toBe(200);

    // a second try within the hour answers the same, and does not mail the owner again
    const again = await register('owner@example.com');
    expect(shapeOf(again.res, 'owner@example.com')).toEqual(shapeOf(fresh.res, 'newcomer@example.com'));
    const store = new SqliteEventStore(join(t.app.dataDir, 'events.sqlite'));
    const attempts = (await store.readStream(`user-${account.uid}`)).filter((e) => e.type === 'RegistrationAttempted').map((e) => (e.data as { mailed: boolean }).mailed);
    await store.close();
    expect(attempts).toEqual([true, false]); // the second is recorded, not mailed
    expect(mailbox(t.app).filter((m) => m.to === 'owner@example.com' && /tried to register/i.test(m.subject))).toHaveLength(1);

    // the reset link works for the owner
    const token = new URL(link).searchParams.get('token')!;
    expect((await new Client(t.app.url).post('/api/auth/reset-password', { token, password: 'owner-new-pass-30' })).status).toBe(200);
    expect((await new Client(t.app.url).post('/api/auth/login', { email: 'owner@example.com', password: 'owner-new-pass-30' })).status).toBe(200);
  }, 60_000);

  it('bad input is refused alike for both (a common password is refused before anything is looked up)', async () => {
    await new Client(t.app.url).signUp('taken@example.com', PASSWORD);
    for (const password of ['password', '12345678', 'Password1']) {
      const a = await register('taken@example.com', password);
      const b = await register('untaken@example.com', password);
      expect(a.res.status).toBe(400);
      expect(a.res.body).toEqual(b.res.body);
      expect(a.res.body.errors).toEqual([{ field: 'password', message: 'This password is too common. Choose another.' }]);
    }
    expect((await register('untaken@example.com', 'short')).res.body.errors).toEqual([{ field: 'password', message: 'Password must be at least 8 characters' }]);
    // nothing was created, nobody was mailed
    expect((await new Client(t.app.url).post('/api/auth/login', { email: 'untaken@example.com', password: '12345678' })).status).toBe(401);
    expect(mailbox(t.app).filter((m) => m.to === 'untaken@example.com')).toEqual([]);
  }, 60_000);

  it('a common password is refused on reset too; sign-in does not judge an old password', async () => {
    const c = new Client(t.app.url);
    await c.fetchCsrf();
    const res = await c.post('/api/auth/reset-password', { token: 'A'.repeat(43), password: 'password' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'password', message: 'This password is too common. Choose another.' }]);
  });

  /**
   * A behavioural check, not a speed goal: both paths hash the password and append one command, and mail
   * off the request path, so the medians of many tries are close. The factor is generous (1.5) so that a
   * loaded 2-core machine does not make it flaky; the old code (no hash for a known address, an instant
   * 409) answered in a fraction of the time of a new registration.
   */
  it('takes about as long for an existing as for a new address (the median of paired, interleaved tries)', async () => {
    await new Client(t.app.url).signUp('timed@example.com', PASSWORD);
    await until('the sign-up mail', () => mailbox(t.app).some((m) => m.to === 'timed@example.com'), 5_000);
    const times = { existing: [] as number[], fresh: [] as number[] };
    const TRIES = 14;
    for (let i = 0; i < TRIES + 2; i++) {
      // alternate which goes first; the first two rounds warm up and are not counted
      const order: Array<'existing' | 'fresh'> = i % 2 ? ['existing', 'fresh'] : ['fresh', 'existing'];
      for (const kind of order) {
        const email = kind === 'existing' ? 'timed@example.com' : `timed-new-${i}@example.com`;
        const c = new Client(t.app.url);
        await c.fetchCsrf();
        const mails = mailbox(t.app).filter((m) => m.to === email).length;
        const t0 = performance.now();
        const res = await c.post('/api/auth/register', { email, password: 'a-fresh-passphrase-9' });
        const ms = performance.now() - t0;
        expect(res.status).toBe(201);
        if (i >= 2) times[kind].push(ms);
        // a new account's verification mail goes in the background: let it finish before the next try (the
        // owner of the known address is mailed once an hour at most: nothing to wait for after the first)
        if (kind === 'fresh') await until('the mail of this try', () => mailbox(t.app).filter((m) => m.to === email).length > mails, 10_000);
      }
    }
    // each round's two tries are compared with each other (a load that comes and goes touches both alike)
    const ratio = median(times.existing.map((e, i) => e / times.fresh[i]));
    const summary = { existingMs: Math.round(median(times.existing)), freshMs: Math.round(median(times.fresh)), ratio: Math.round(ratio * 100) / 100 };
    expect({ ...summary, withinFactor: ratio <= 1.5 && ratio >= 1 / 1.5 }).toEqual({ ...summary, withinFactor: true });
  }, 120_000);
});
