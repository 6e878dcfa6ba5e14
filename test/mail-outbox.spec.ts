/**
 * Issue 31, "mail that is never lost": the identity mails (verification, password reset, the notice that
 * someone tried to register with an address) go through the mail outbox: sent from the event that asked
 * for them, retried until the SMTP server takes them, recorded once per causing event.
 *
 * Done-when: "With the SMTP stand-in stopped for 60 s, a registration's and a reset's mails arrive once it
 * is back, exactly once each; the same after a kill -9 of the server in between." The built server (its
 * own OS process, `npm run build:server` first) runs those two, 60 s each (MAIL_OUTAGE_SECONDS shortens
 * them for a quick local run); the other cases use shorter outages in the test app.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVENT_STORE, EventStore, StreamNotFoundError } from '@gridrocket/event-store';
import { MAIL_OUTBOX_NAME, MailOutboxLifecycle, RESET_INTAKE_STREAM } from '@gridrocket/identity/nest';
import { until } from '@gridrocket/shared/testing/until';
import { Client } from './support/http-client';
import { kill9, spawnServer, stop } from './support/server-process';
import { ReceivedMail, SmtpStandIn } from './support/smtp-stand-in';
import { startTestApp } from './support/test-app';

jest.setTimeout(60_000);

const PUBLIC_URL = 'http://localhost:5173';
const OUTAGE_MS = Number(process.env.MAIL_OUTAGE_SECONDS ?? 60) * 1000;
/** Retries every 250 ms doubling up to 2 s: a mail arrives within about 2 s of the server's return. */
const FAST_RETRIES = { MAIL_RETRY_BASE_MS: '250', MAIL_RETRY_MAX_MS: '2000' };

const VERIFY_SUBJECT = 'Verify your email address for GridRocket';
const RESET_SUBJECT = 'Reset your GridRocket password';
const NOTICE_SUBJECT = 'Someone tried to register with your email address';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The mails of one subject the stand-in took for `to`. */
const mailsOf = (smtp: SmtpStandIn, to: string, subject: string): ReceivedMail[] => smtp.to(to).filter((m) => m.headers.subject === subject);

function linkIn(mail: ReceivedMail, path: string): string {
  const m = new RegExp(`${PUBLIC_URL}${path}\\?token=([A-Za-z0-9_-]{43})`).exec(mail.text);
  if (!m) throw new Error(`no ${path} link in ${mail.text}`);
  return m[1];
}

async function health(url: string) {
  return (await new Client(url).get('/api/health')).body as {
    status: string;
    mail: { state: string; pending: number; oldestPendingSeconds: number; sent: number; failed: number; skipped: number; lastError: string | null } | null;
  };
}

const METRICS_TOKEN = 'metrics-token-for-the-mail-outbox-test';

/** One sample of /metrics (Prometheus text format), e.g. metric(url, 'gridrocket_mail_outbox_sent_total{kind="verify-email"}'). */
async function metric(url: string, series: string): Promise<number | undefined> {
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await res.text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** Waits until the outbox is through (nothing pending), then a while longer: a second copy would have come by then. */
async function settled(url: string) {
  await until('the outbox idle', async () => ((await health(url)).mail?.state === 'idle' ? true : undefined), 20_000);
  await sleep(3 * Number(FAST_RETRIES.MAIL_RETRY_MAX_MS));
}

describe('mail outbox: the test app against the SMTP stand-in', () => {
  const A = 'ada@example.com';
  const B = 'bob@example.com';
  const C = 'cy@example.com';
  const D = 'dee@example.com';
  const I = 'ivy@example.com';
  let smtp: SmtpStandIn;
  let app: Awaited<ReturnType<typeof startTestApp>>;

  beforeAll(async () => {
    // nobody@example.com has no mailbox there: 550 to RCPT TO
    smtp = await new SmtpStandIn([A, B, C, D, I]).start();
    app = await startTestApp({ PUBLIC_URL, SMTP_URL: smtp.url, MAIL_FROM: 'GridRocket <robot@gridrocket.test>', METRICS_TOKEN, ...FAST_RETRIES });
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
  });

  it('a server refusing connections (421) for a while: the registration and reset mails wait, then arrive exactly once each, and their links work', async () => {
    // every series of the outbox is there from the start, at 0
    for (const kind of ['verify-email', 'reset-password', 'registration-attempt']) {
      for (const name of ['sent', 'failed', 'skipped', 'retries']) expect(await metric(app.url, `gridrocket_mail_outbox_${name}_total{kind="${kind}"}`)).toBe(0);
    }
    expect(await metric(app.url, 'gridrocket_mail_outbox_state{state="idle"}')).toBe(1);
    await new Client(app.url).signUp(B, 'old-password-1');
    await until("B's verification mail", () => mailsOf(smtp, B, VERIFY_SUBJECT)[0]);

    smtp.refuseConnections = true;
    const ada = new Client(app.url);
    await ada.signUp(A);
    expect((await new Client(app.url).post('/api/auth/forgot-password', { email: B })).status).toBe(202);
    // both tried and refused, both waiting: health says so
    const during = await until('both mails waiting, the server failing them', async () => {
      const h = await health(app.url);
      return h.mail?.state === 'retrying' && h.mail.pending === 2 && smtp.transactions.filter((t) => t.code === 421).length >= 2 ? h : undefined;
    });
    expect(during.status).toBe('degraded');
    expect(during.mail!.lastError).toMatch(/\(421\)|did not answer/);
    await sleep(2500); // tried again meanwhile, still refused
    expect((await health(app.url)).mail!.oldestPendingSeconds).toBeGreaterThanOrEqual(2);
    expect(await metric(app.url, 'gridrocket_mail_outbox_pending')).toBe(2);
    expect(await metric(app.url, 'gridrocket_mail_outbox_oldest_pending_seconds')).toBeGreaterThanOrEqual(2);
    expect(await metric(app.url, 'gridrocket_mail_outbox_state{state="retrying"}')).toBe(1);
    expect(await metric(app.url, 'gridrocket_mail_outbox_retries_total{kind="verify-email"}')).toBeGreaterThanOrEqual(2);
    expect(await metric(app.url, 'gridrocket_mail_outbox_retries_total{kind="reset-password"}')).toBeGreaterThanOrEqual(2);
    expect(mailsOf(smtp, A, VERIFY_SUBJECT)).toHaveLength(0);
    expect(mailsOf(smtp, B, RESET_SUBJECT)).toHaveLength(0);

    smtp.refuseConnections = false;
    const verify = await until("A's verification mail", () => mailsOf(smtp, A, VERIFY_SUBJECT)[0], 15_000);
    const reset = await until("B's reset mail", () => mailsOf(smtp, B, RESET_SUBJECT)[0], 15_000);
    await settled(app.url);
    expect(mailsOf(smtp, A, VERIFY_SUBJECT)).toHaveLength(1);
    expect(mailsOf(smtp, B, RESET_SUBJECT)).toHaveLength(1);
    expect(mailsOf(smtp, B, VERIFY_SUBJECT)).toHaveLength(1);
    expect((await health(app.url)).mail).toMatchObject({ state: 'idle', pending: 0, oldestPendingSeconds: 0, lastError: null });
    expect((await health(app.url)).status).toBe('ok');
    expect(await metric(app.url, 'gridrocket_mail_outbox_pending')).toBe(0);
    expect(await metric(app.url, 'gridrocket_mail_outbox_sent_total{kind="verify-email"}')).toBe(2); // B's before, A's after
    expect(await metric(app.url, 'gridrocket_mail_outbox_sent_total{kind="reset-password"}')).toBe(1);

    // the links, made again by the outbox from the events, work
    const verified = await ada.post('/api/auth/verify-email', { token: linkIn(verify, '/verify-email-address') });
    expect(verified.status).toBe(200);
    expect(verified.body.emailVerified).toBe(true);
    const anon = new Client(app.url);
    expect((await anon.post('/api/auth/reset-password', { token: linkIn(reset, '/reset-password'), password: 'new-password-1' })).status).toBe(200);
    expect((await anon.post('/api/auth/login', { email: B, password: 'new-password-1' })).status).toBe(200);
  });

  it('451 after DATA: tried again with the same Message-ID until taken, and taken once', async () => {
    smtp.tempFailures = 3;
    await new Client(app.url).signUp(C);
    const mail = await until("C's verification mail", () => mailsOf(smtp, C, VERIFY_SUBJECT)[0], 15_000);
    const tries = smtp.transactions.filter((t) => t.to.includes(C));
    expect(tries.map((t) => t.code)).toEqual([451, 451, 451, 250]);
    const ids = new Set(tries.map((t) => t.headers!['message-id']));
    expect(ids.size).toBe(1);
    expect(mail.headers['message-id']).toMatch(/^<mail-[0-9a-f]{32}@localhost>$/);
    await settled(app.url);
    expect(mailsOf(smtp, C, VERIFY_SUBJECT)).toHaveLength(1);
  });

  it('550 (no such mailbox): final at once, not tried again, counted as failed', async () => {
    const before = (await health(app.url)).mail!.failed;
    await new Client(app.url).signUp('nobody@example.com');
    await until('the 550', () => smtp.transactions.find((t) => t.to.includes('nobody@example.com') && t.code === 550), 10_000);
    await settled(app.url);
    expect(smtp.transactions.filter((t) => t.to.includes('nobody@example.com'))).toHaveLength(1);
    expect((await health(app.url)).mail).toMatchObject({ state: 'idle', pending: 0, failed: before + 1 });
    expect(await metric(app.url, 'gridrocket_mail_outbox_failed_total{kind="verify-email"}')).toBe(1);
  });

  it('forgot-password records the ask before its 202, the same one append for a known and an unknown address; one ask handled twice is one reset mail', async () => {
    const events = app.app.get<EventStore>(EVENT_STORE);
    const asks = async () => {
      try {
        return await events.readStream(RESET_INTAKE_STREAM);
      } catch (err) {
        if (err instanceof StreamNotFoundError) return [];
        throw err;
      }
    };
    const before = (await asks()).length;
    // known (I registers) and unknown: both answered 202 only once the ask is in the log (a kill -9 now loses nothing)
    await new Client(app.url).signUp(I, 'old-password-1');
    await until("I's verification mail", () => mailsOf(smtp, I, VERIFY_SUBJECT)[0]);
    expect((await new Client(app.url).post('/api/auth/forgot-password', { email: I })).status).toBe(202);
    expect((await asks()).length).toBe(before + 1);
    expect((await new Client(app.url).post('/api/auth/forgot-password', { email: 'no-account@example.com' })).status).toBe(202);
    const recorded = await asks();
    expect(recorded.length).toBe(before + 2);
    // the address is not written, only its keyed id
    expect(JSON.stringify(recorded.slice(before).map((e) => ({ data: e.data, metadata: e.metadata })))).not.toMatch(/no-account|ivy@example/);
    const mail = await until("I's reset mail", () => mailsOf(smtp, I, RESET_SUBJECT)[0], 15_000);
    expect(linkIn(mail, '/reset-password')).toHaveLength(43);
    // the intake handles I's ask again (as after a crash before its checkpoint): no second link, no second mail
    const intake = app.app.get(MailOutboxLifecycle).resetIntake;
    await intake.handle(recorded[before]);
    await settled(app.url);
    expect(mailsOf(smtp, I, RESET_SUBJECT)).toHaveLength(1);
    expect(mailsOf(smtp, 'no-account@example.com', RESET_SUBJECT)).toHaveLength(0);
  });

  it('the notice to an address that has an account goes through the outbox too', async () => {
    await new Client(app.url).signUp(D);
    await until("D's verification mail", () => mailsOf(smtp, D, VERIFY_SUBJECT)[0]);
    smtp.refuseConnections = true;
    await new Client(app.url).signUp(D, 'someone-else-1');
    await until('the notice waiting', async () => ((await health(app.url)).mail?.pending === 1 ? true : undefined));
    smtp.refuseConnections = false;
    const notice = await until('the notice', () => mailsOf(smtp, D, NOTICE_SUBJECT)[0], 15_000);
    expect(linkIn(notice, '/reset-password')).toHaveLength(43);
    await settled(app.url);
    expect(mailsOf(smtp, D, NOTICE_SUBJECT)).toHaveLength(1);
  });
});

describe('mail outbox: the built server, the SMTP stand-in stopped (Done-when of issue 31)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gr-mail-outbox-'));
  const mailboxes = ['eve@example.com', 'fay@example.com', 'gus@example.com', 'hal@example.com'];
  const [E, F, G, H] = mailboxes;
  let smtp: SmtpStandIn;
  let server: Awaited<ReturnType<typeof spawnServer>> | null = null;
  let env: Record<string, string>;

  beforeAll(async () => {
    smtp = await new SmtpStandIn(mailboxes).start();
    env = { EMBEDDED_RUNNER: 'false', PUBLIC_URL, SMTP_URL: smtp.url, MAIL_FROM: 'GridRocket <robot@gridrocket.test>', ...FAST_RETRIES };
    server = await spawnServer(dataDir, env);
  }, 60_000);
  afterAll(async () => {
    if (server) await stop(server.proc);
    await smtp?.close().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Someone who registered before the outage (their verification mail taken), to ask for a reset during it. */
  async function registered(email: string) {
    await new Client(server!.url).signUp(email, 'old-password-1');
    await until(`${email}'s verification mail`, () => mailsOf(smtp, email, VERIFY_SUBJECT)[0], 15_000);
  }

  /** Registration of `newcomer` and a reset for `existing`, while the server is down; both seen waiting. */
  async function askDuringOutage(newcomer: string, existing: string) {
    await new Client(server!.url).signUp(newcomer);
    expect((await new Client(server!.url).post('/api/auth/forgot-password', { email: existing })).status).toBe(202);
    return until('both mails waiting, the server failing them', async () => {
      const h = await health(server!.url);
      return h.mail?.state === 'retrying' && h.mail.pending === 2 ? h : undefined;
    }, 20_000);
  }

  async function arriveOnceEach(newcomer: string, existing: string) {
    await until(`${newcomer}'s verification mail`, () => mailsOf(smtp, newcomer, VERIFY_SUBJECT)[0], 20_000);
    await until(`${existing}'s reset mail`, () => mailsOf(smtp, existing, RESET_SUBJECT)[0], 20_000);
    await settled(server!.url);
    expect(mailsOf(smtp, newcomer, VERIFY_SUBJECT)).toHaveLength(1);
    expect(mailsOf(smtp, existing, RESET_SUBJECT)).toHaveLength(1);
    expect(mailsOf(smtp, existing, VERIFY_SUBJECT)).toHaveLength(1);
  }

  it(`stopped for ${OUTAGE_MS / 1000} s: a registration's and a reset's mails arrive once it is back, exactly once each`, async () => {
    await registered(F);
    const stoppedAt = Date.now();
    await smtp.close(); // stopped: connections refused
    await askDuringOutage(E, F);
    await sleep(stoppedAt + OUTAGE_MS - Date.now());
    expect(mailsOf(smtp, E, VERIFY_SUBJECT)).toHaveLength(0);
    expect(mailsOf(smtp, F, RESET_SUBJECT)).toHaveLength(0);
    await smtp.start(smtp.port);
    await arriveOnceEach(E, F);
  }, OUTAGE_MS + 90_000);

  it(`stopped for ${OUTAGE_MS / 1000} s with a kill -9 of the server in between: the same`, async () => {
    await registered(H);
    const stoppedAt = Date.now();
    await smtp.close();
    await askDuringOutage(G, H);
    await kill9(server!.proc);
    server = await spawnServer(dataDir, env);
    // the restarted server finds both mails from the events (its checkpoint is before them) and tries again
    await until('both mails waiting again after the restart', async () => {
      const h = await health(server!.url);
      return h.mail?.state === 'retrying' && h.mail.pending === 2 ? h : undefined;
    }, 20_000);
    await sleep(stoppedAt + OUTAGE_MS - Date.now());
    await smtp.start(smtp.port);
    await arriveOnceEach(G, H);
  }, OUTAGE_MS + 90_000);

  it('after a kill -9, an outbox that reads every mail-causing event again sends none of them again: each is recorded', async () => {
    const before = smtp.inbox.length;
    await kill9(server!.proc);
    // Make the restarted outbox handle every event from the start of the log, as if its checkpoint had not
    // moved past any of them: only the MailRecorded events can keep it from sending them all again.
    // (The read store never moves a checkpoint back, so the test does it in its table.)
    const db = new Database(join(dataDir, 'read.sqlite'));
    expect(db.prepare('UPDATE checkpoints SET position = 0 WHERE name = ?').run(MAIL_OUTBOX_NAME).changes).toBe(1);
    db.close();
    server = await spawnServer(dataDir, env);
    await until('the outbox through the log again', async () => {
      const h = (await new Client(server!.url).get('/api/health')).body as { consumers: { name: string; state: string; lag: string }[] };
      const c = h.consumers.find((x) => x.name === MAIL_OUTBOX_NAME);
      return c?.state === 'live' && c.lag === '0' ? c : undefined;
    }, 20_000);
    await settled(server.url);
    expect(smtp.inbox.length).toBe(before);
    for (const to of [E, G]) expect(mailsOf(smtp, to, VERIFY_SUBJECT)).toHaveLength(1);
    for (const to of [F, H]) expect(mailsOf(smtp, to, RESET_SUBJECT)).toHaveLength(1);
  }, 60_000);
});
