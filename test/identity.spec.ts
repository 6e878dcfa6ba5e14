import { join } from 'node:path';
import { SqliteEventStore } from '@gridrocket/event-store';
import { Client } from './support/http-client';
import { startTestApp } from './support/test-app';
import { mailFiles, type MailFile } from './support/mailbox';
import { until } from '@gridrocket/shared/testing/until';

const PUBLIC_URL = 'http://localhost:5173';
type App = Awaited<ReturnType<typeof startTestApp>>;

type Mail = Omit<MailFile, 'text'> & { links: string[] };

function mailbox(app: App): Mail[] {
  return mailFiles(app.dataDir).map(({ file, raw, text, to, subject }) => ({ file, raw, to, subject, links: [...new Set(text.match(/https?:\/\/[^\s"<>]+\?token=[A-Za-z0-9_-]+/g) ?? [])] }));
}

/** Waits for the n-th message to `to` whose link goes to `path`; returns its token. */
async function tokenFromMail(app: App, to: string, path: '/verify-email-address' | '/reset-password', nth = 1, timeoutMs = 3000): Promise<string> {
  const link = await until(
    `mail #${nth} to ${to} with a ${path} link`,
    () => {
      const links = mailbox(app)
        .filter((m) => m.to === to)
        .flatMap((m) => m.links)
        .filter((l) => l.startsWith(`${PUBLIC_URL}${path}?token=`));
      return links.length >= nth && links[nth - 1];
    },
    timeoutMs,
  );
  return new URL(link).searchParams.get('token')!;
}

const PASSWORD = 'correct-horse-1';

describe('identity: verification, password reset and sessions (embedded mail)', () => {
  let app: App;

  beforeAll(async () => {
    app = await startTestApp({ PUBLIC_URL });
  });
  afterAll(async () => {
    await app.close();
  });

  it('register → an .eml in DATA_DIR/mail holds the verify link → verify → me.emailVerified is true', async () => {
    const ann = new Client(app.url);
    const user = await ann.signUp('ann@example.com', PASSWORD);
    expect(user).toMatchObject({ email: 'ann@example.com', emailVerified: false });

    // mailed off the request path (issue 30: registering answers alike for a new and a known address)
    const mail = await until('the verification mail to ann', () => mailbox(app).find((m) => m.to === 'ann@example.com'), 3000);
    expect(mail.file).toMatch(/\.eml$/);
    // an RFC 822 message: headers, a blank line, a MIME body with text and HTML parts
    expect(mail.raw).toMatch(/^From: GridRocket <no-reply@gridrocket\.example>$/m);
    expect(mail.raw).toMatch(/^Message-ID: <.+>$/m);
    expect(mail.raw).toMatch(/^Date: .+$/m);
    expect(mail.raw).toMatch(/^MIME-Version: 1\.0$/m);
    expect(mail.raw).toMatch(/Content-Type: text\/plain/);
    expect(mail.raw).toMatch(/Content-Type: text\/html/);
    expect(mail.subject).toBe('Verify your email address for GridRocket');
    expect(mail.links[0]).toMatch(new RegExp(`^${PUBLIC_URL}/verify-email-address\\?token=[A-Za-z0-9_-]{43}$`));

    const token = await tokenFromMail(app, 'ann@example.com', '/verify-email-address');
    const verified = await ann.post('/api/auth/verify-email', { token });
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ uid: user.uid, displayName: '', email: 'ann@example.com', emailVerified: true, photoURL: null });
    expect((await ann.get('/api/auth/me')).body.emailVerified).toBe(true);

    // the link is single-use
    const again = await ann.post('/api/auth/verify-email', { token });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('This verification link is invalid or has already been used');
    expect(again.body.errors).toEqual([{ field: 'token', message: 'This verification link is invalid or has already been used' }]);

    // once verified, resend says so and sends nothing
    const before = mailbox(app).length;
    const resend = await ann.post('/api/auth/resend-verification');
    expect(resend.status).toBe(202);
    expect(resend.body).toEqual({ message: 'Your email address is already verified.' });
    expect(mailbox(app)).toHaveLength(before);
  });

  it('verification works from another browser (the link needs no session)', async () => {
    const ben = new Client(app.url);
    await ben.signUp('ben@example.com', PASSWORD);
    const token = await tokenFromMail(app, 'ben@example.com', '/verify-email-address');
    const phone = new Client(app.url);
    const res = await phone.post('/api/auth/verify-email', { token });
    expect(res.status).toBe(200);
    expect(res.body.emailVerified).toBe(true);
    expect((await ben.get('/api/auth/me')).body.emailVerified).toBe(true);
  });

  it('resend works and the old link is dead', async () => {
    const cat = new Client(app.url);
    await cat.signUp('cat@example.com', PASSWORD);
    const first = await tokenFromMail(app, 'cat@example.com', '/verify-email-address', 1);

    const resend = await cat.post('/api/auth/resend-verification');
    expect(resend.status).toBe(202);
    expect(resend.body).toEqual({ message: 'Verification email sent, check your inbox.' });
    const second = await tokenFromMail(app, 'cat@example.com', '/verify-email-address', 2);
    expect(second).not.toBe(first);

    const old = await cat.post('/api/auth/verify-email', { token: first });
    expect(old.status).toBe(400);
    expect(old.body.message).toBe('This verification link is invalid or has already been used');
    expect((await cat.get('/api/auth/me')).body.emailVerified).toBe(false);

    const ok = await cat.post('/api/auth/verify-email', { token: second });
    expect(ok.status).toBe(200);
    expect(ok.body.emailVerified).toBe(true);

    // resend needs a session
    expect((await new Client(app.url).post('/api/auth/resend-verification')).status).toBe(401);
  });

  it('forgot → reset link → the new password works, the old one fails, the link is single-use, other sessions end', async () => {
    const dan = new Client(app.url);
    const user = await dan.signUp('dan@example.com', PASSWORD);
    const laptop = new Client(app.url);
    expect((await laptop.post('/api/auth/login', { email: 'dan@example.com', password: PASSWORD })).status).toBe(200);
    const laptopCookie = laptop.cookieHeader();
    const danCookie = dan.cookieHeader();

    const anon = new Client(app.url);
    const forgot = await anon.post('/api/auth/forgot-password', { email: 'Dan@Example.com' });
    expect(forgot.status).toBe(202);
    const token = await tokenFromMail(app, 'dan@example.com', '/reset-password');
    const mail = mailbox(app).find((m) => m.to === 'dan@example.com' && m.links.some((l) => l.includes('/reset-password')))!;
    expect(mail.subject).toBe('Reset your GridRocket password');

    const reset = await anon.post('/api/auth/reset-password', { token, password: 'battery-staple-2' });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ message: 'Your password has been changed. Sign in with your new password.' });

    // sessions issued before the change are dead, in every browser
    for (const cookie of [laptopCookie, danCookie]) {
      expect((await fetch(`${app.url}/api/auth/me`, { headers: { cookie } })).status).toBe(401);
    }

    const oldPassword = await new Client(app.url).post('/api/auth/login', { email: 'dan@example.com', password: PASSWORD });
    expect(oldPassword.status).toBe(401);
    expect(oldPassword.body.message).toBe('Invalid email or password');
    const fresh = new Client(app.url);
    const login = await fresh.post('/api/auth/login', { email: 'dan@example.com', password: 'battery-staple-2' });
    expect(login.status).toBe(200);
    expect(login.body.uid).toBe(user.uid);
    // the link reached the mailbox, so the address counts as verified
    expect(login.body.emailVerified).toBe(true);

    const twice = await anon.post('/api/auth/reset-password', { token, password: 'another-one-3' });
    expect(twice.status).toBe(400);
    expect(twice.body.message).toBe('This password reset link is invalid or has already been used');
    expect((await new Client(app.url).post('/api/auth/login', { email: 'dan@example.com', password: 'another-one-3' })).status).toBe(401);

    // a verification link is not a reset link, and a made-up token is refused
    const bogus = await anon.post('/api/auth/reset-password', { token: 'A'.repeat(43), password: 'another-one-3' });
    expect(bogus.status).toBe(400);
    expect(bogus.body.errors).toEqual([{ field: 'token', message: 'This password reset link is invalid or has already been used' }]);
  });

  it('a newer reset link kills the older one', async () => {
    const eve = new Client(app.url);
    await eve.signUp('eve@example.com', PASSWORD);
    await eve.post('/api/auth/forgot-password', { email: 'eve@example.com' });
    const first = await tokenFromMail(app, 'eve@example.com', '/reset-password', 1);
    await eve.post('/api/auth/forgot-password', { email: 'eve@example.com' });
    const second = await tokenFromMail(app, 'eve@example.com', '/reset-password', 2);
    expect((await eve.post('/api/auth/reset-password', { token: first, password: 'new-password-9' })).status).toBe(400);
    expect((await eve.post('/api/auth/reset-password', { token: second, password: 'new-password-9' })).status).toBe(200);
  });

  it('gives the same answer for a known and an unknown address, and mails only the known one', async () => {
    const fay = new Client(app.url);
    await fay.signUp('fay@example.com', PASSWORD);
    const anon = new Client(app.url);
    const known = await anon.post('/api/auth/forgot-password', { email: 'fay@example.com' });
    const unknown = await anon.post('/api/auth/forgot-password', { email: 'nobody@example.com' });
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(known.status);
    expect(unknown.text).toBe(known.text);
    expect(known.body).toEqual({ message: 'If an account exists for this address, a password reset email has been sent. Check your inbox.' });
    await tokenFromMail(app, 'fay@example.com', '/reset-password');
    await new Promise((r) => setTimeout(r, 200));
    expect(mailbox(app).filter((m) => m.to === 'nobody@example.com')).toEqual([]);
  });

  it('a logged-out cookie gets 401, on every guarded route', async () => {
    const gus = new Client(app.url);
    await gus.signUp('gus@example.com', PASSWORD);
    const cookie = gus.cookieHeader();
    const csrf = gus.csrf!;
    expect((await gus.post('/api/auth/logout')).status).toBe(204);
    expect((await fetch(`${app.url}/api/auth/me`, { headers: { cookie } })).status).toBe(401);
    const replay = await fetch(`${app.url}/api/auth/resend-verification`, { method: 'POST', headers: { cookie, 'x-csrf-token': csrf } });
    expect(replay.status).toBe(401);
    const profile = await fetch(`${app.url}/api/user`, { method: 'POST', headers: { cookie, 'x-csrf-token': csrf, 'content-type': 'application/json' }, body: JSON.stringify({ username: 'x' }) });
    expect(profile.status).toBe(401);
  });

  it('POST /api/user updates the profile: displayName is the username, or first and last name; another userId is 403', async () => {
    const hal = new Client(app.url);
    const user = await hal.signUp('hal@example.com', PASSWORD);
    const named = await hal.post('/api/user', { userId: user.uid, firstname: 'Hal', lastname: 'van der Berg', username: '', picurl: 'https://images.example/hal.png' });
    expect(named.status).toBe(200);
    expect(named.body).toEqual({ uid: user.uid, displayName: 'Hal van der Berg', email: 'hal@example.com', emailVerified: false, photoURL: 'https://images.example/hal.png' });
    // the spec's reading back: split on the first space
    const [first, ...rest] = named.body.displayName.split(' ');
    expect([first, rest.join(' ')]).toEqual(['Hal', 'van der Berg']);

    const byUsername = await hal.post('/api/user', { userId: user.uid, firstname: 'Hal', lastname: 'Berg', username: 'hal9000' });
    expect(byUsername.body).toMatchObject({ displayName: 'hal9000', photoURL: 'https://images.example/hal.png' });
    expect((await hal.get('/api/auth/me')).body).toMatchObject({ displayName: 'hal9000', photoURL: 'https://images.example/hal.png' });

    const cleared = await hal.post('/api/user', { userId: user.uid, username: 'hal9000', picurl: null });
    expect(cleared.body.photoURL).toBeNull();

    const other = await hal.post('/api/user', { userId: 'someone-else', username: 'x' });
    expect(other.status).toBe(403);
    const badUrl = await hal.post('/api/user', { picurl: 'javascript:alert(1)' });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.errors).toEqual([{ field: 'picurl', message: 'Picture URL must be an http or https address' }]);
    const tooLong = await hal.post('/api/user', { firstname: 'x'.repeat(51) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors).toEqual([{ field: 'firstname', message: 'First name must be at most 50 characters' }]);
    expect((await new Client(app.url).post('/api/user', { username: 'x' })).status).toBe(401);
  });

  it("an auditor reads the whole story in the user's stream, with no secret in clear", async () => {
    const ivy = new Client(app.url);
    const user = await ivy.signUp('ivy@example.com', PASSWORD);
    const verifyToken = await tokenFromMail(app, 'ivy@example.com', '/verify-email-address');
    await ivy.post('/api/auth/verify-email', { token: verifyToken });
    await ivy.post('/api/user', { username: 'ivy' });
    await ivy.post('/api/auth/forgot-password', { email: 'ivy@example.com' });
    const resetToken = await tokenFromMail(app, 'ivy@example.com', '/reset-password');
    await ivy.post('/api/auth/reset-password', { token: resetToken, password: 'new-password-7' });
    const again = new Client(app.url);
    await again.post('/api/auth/login', { email: 'ivy@example.com', password: 'new-password-7' });
    await again.post('/api/auth/logout');

    const store = new SqliteEventStore(join(app.dataDir, 'events.sqlite'));
    const events = await store.readStream(`user-${user.uid}`);
    await store.close();
    expect(events.map((e) => e.type)).toEqual([
      'UserRegistered',
      'UserSignedIn',
      'EmailVerificationRequested',
      'EmailVerified',
      'ProfileUpdated',
      'PasswordResetRequested',
      'PasswordChanged',
      'UserSignedOut',
      'UserSignedIn',
      'UserSignedOut',
    ]);
    expect(events[7].data).toMatchObject({ reason: 'password-changed' });
    expect(events[9].data).toMatchObject({ reason: 'logout' });
    for (const e of events) expect(e.metadata).toEqual(expect.objectContaining({ userId: user.uid, schemaVersion: 1, correlationId: expect.any(String) }));
    const all = JSON.stringify(events.map((e) => ({ data: e.data, metadata: e.metadata })));
    for (const secret of [PASSWORD, 'new-password-7', verifyToken, resetToken, '$argon2']) expect(all).not.toContain(secret);
    expect((events[2].data as { tokenDigest: string }).tokenDigest).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('identity: expired links (short TTLs)', () => {
  let app: App;

  beforeAll(async () => {
    app = await startTestApp({ PUBLIC_URL, VERIFY_EMAIL_TOKEN_TTL_SECONDS: '1', RESET_PASSWORD_TOKEN_TTL_SECONDS: '1' });
  });
  afterAll(async () => {
    await app.close();
  });

  it('refuses an expired verification link and an expired reset link', async () => {
    const kim = new Client(app.url);
    await kim.signUp('kim@example.com', PASSWORD);
    const verifyToken = await tokenFromMail(app, 'kim@example.com', '/verify-email-address');
    await kim.post('/api/auth/forgot-password', { email: 'kim@example.com' });
    const resetToken = await tokenFromMail(app, 'kim@example.com', '/reset-password');
    await new Promise((r) => setTimeout(r, 1100));

    const verify = await kim.post('/api/auth/verify-email', { token: verifyToken });
    expect(verify.status).toBe(400);
    expect(verify.body.message).toBe('This verification link has expired; request a new one');
    const reset = await kim.post('/api/auth/reset-password', { token: resetToken, password: 'new-password-1' });
    expect(reset.status).toBe(400);
    expect(reset.body.message).toBe('This password reset link has expired; request a new one');
    expect((await new Client(app.url).post('/api/auth/login', { email: 'kim@example.com', password: PASSWORD })).status).toBe(200);
  });
});
