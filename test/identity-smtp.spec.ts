import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { Client } from './support/http-client';
import { startTestApp } from './support/test-app';
import { until } from '@gridrocket/shared/testing/until';
import { useTestApp } from './support/trader-app';

const PUBLIC_URL = 'http://localhost:5173';

interface Received {
  from: string;
  to: string[];
  user: string | undefined;
  raw: string;
}

function decodeQuotedPrintable(s: string): string {
  return s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)));
}

describe('identity: mail over SMTP (nodemailer → a local smtp-server)', () => {
  const inbox: Received[] = [];
  let smtp: SMTPServer;
  let app: Awaited<ReturnType<typeof startTestApp>>;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: false,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onAuth(auth, _session, cb) {
        if (auth.username === 'mailer' && auth.password === 's3cret') return cb(null, { user: 'mailer' });
        cb(new Error('Invalid username or password'));
      },
      onData(stream, session, cb) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          inbox.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            user: session.user as string | undefined,
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          cb();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.server.address() as { port: number };
    app = await startTestApp({ PUBLIC_URL, SMTP_URL: `smtp://mailer:s3cret@127.0.0.1:${port}`, MAIL_FROM: 'GridRocket <robot@gridrocket.test>' });
  });
  afterAll(async () => {
    await app?.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  function linkIn(mail: Received, path: string): string | undefined {
    const m = new RegExp(`${PUBLIC_URL}${path}\\?token=([A-Za-z0-9_-]{43})`).exec(decodeQuotedPrintable(mail.raw));
    return m?.[1];
  }

  it('sends the verification mail over SMTP with the configured sender, and writes no .eml file', async () => {
    const zoe = new Client(app.url);
    await zoe.signUp('zoe@example.com');
    const mail = await until('the verification mail', () => inbox.find((m) => m.to.includes('zoe@example.com')));
    expect(mail.from).toBe('robot@gridrocket.test');
    expect(mail.user).toBe('mailer');
    expect(mail.raw).toMatch(/^Subject: Verify your email address for GridRocket/m);
    const token = linkIn(mail, '/verify-email-address')!;
    expect(token).toBeDefined();
    const res = await zoe.post('/api/auth/verify-email', { token });
    expect(res.status).toBe(200);
    expect(res.body.emailVerified).toBe(true);
    const dir = join(app.dataDir, 'mail');
    expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
  });

  it('sends the reset mail over SMTP, and its link works', async () => {
    await new Client(app.url).signUp('yan@example.com', 'old-password-1');
    const anon = new Client(app.url);
    expect((await anon.post('/api/auth/forgot-password', { email: 'yan@example.com' })).status).toBe(202);
    const mail = await until('the reset mail', () => inbox.find((m) => m.to.includes('yan@example.com') && linkIn(m, '/reset-password')));
    expect(mail.raw).toMatch(/^Subject: Reset your GridRocket password/m);
    const reset = await anon.post('/api/auth/reset-password', { token: linkIn(mail, '/reset-password'), password: 'new-password-1' });
    expect(reset.status).toBe(200);
    expect((await anon.post('/api/auth/login', { email: 'yan@example.com', password: 'new-password-1' })).status).toBe(200);
  });
});

describe('identity: an SMTP server that is down', () => {
  const t = useTestApp({ PUBLIC_URL, SMTP_URL: 'smtp://127.0.0.1:9' });

  it('does not lose the registration, and the mails wait in the outbox (resend and forgot-password answer 202)', async () => {
    const xia = new Client(t.app.url);
    const user = await xia.signUp('xia@example.com');
    expect(user.email).toBe('xia@example.com');
    expect((await xia.get('/api/auth/me')).status).toBe(200);
    // Issue 31: the mail is not sent by the request any more but by the outbox, which tries again until the
    // server takes it: the request answers that it is on its way instead of 503.
    const resend = await xia.post('/api/auth/resend-verification');
    expect(resend.status).toBe(202);
    expect(resend.body).toEqual({ message: 'Verification email sent, check your inbox.' });
    expect((await new Client(t.app.url).post('/api/auth/forgot-password', { email: 'xia@example.com' })).status).toBe(202);
    // The resend's mail and the reset mail wait (the first verification mail too, until its next try finds
    // its link replaced by the resend's and drops it).
    const health = await until('the outbox retrying the mails', async () => {
      const h = (await new Client(t.app.url).get('/api/health')).body;
      return h.mail?.state === 'retrying' && h.mail.pending >= 2 ? h : null;
    });
    expect(health.status).toBe('degraded');
    expect(health.mail.lastError).toMatch(/^The mail server did not answer/);
  });
});
