/**
 * Issue 29: e-mail alerts over SMTP. The API's real mailer (nodemailer, SMTP_URL) delivers to a local
 * SMTP server with a real server's rules (test/support/smtp-stand-in.ts, RFC 5321): the alert reaches the
 * account's mailbox once, with the words a trader reads and nothing secret; a 451 or a refused connection
 * (421) is tried again with back-off; a 550 is final at once; all show in the delivery log.
 */
import { ALERT_DELIVERY_STREAM_PREFIX, alertDeliveryStream } from '@gridrocket/alerts';
import { EVENT_STORE, EventStore } from '@gridrocket/event-store';
import { toNewEvents } from '@gridrocket/shared';
import { until } from '@gridrocket/shared/testing/until';
import { BOT_TOKEN, CHAT } from './support/alert-stand-ins';
import { useSmtpStandIn } from './support/smtp-stand-in';
import { Client, spotBot } from './support/http-client';
import { useTestApp } from './support/trader-app';

jest.setTimeout(60_000);

const PUBLIC_URL = 'http://localhost:5173';
const WEBHOOK_SECRET = 'whsec-mail-0123456789-abcdXYZ9';
const ALICE = 'alice-mail@example.com';
const BOB = 'bob-gone@example.com'; // no such mailbox on the mail server

describe('alerts by e-mail, over SMTP to a local mail server', () => {
  const far = useSmtpStandIn([ALICE]);
  // the sink tries twice (200 ms apart); then the dispatcher's reactor tries again after 400, 800, 1000, 1000… ms
  const world = useTestApp(() => ({ PUBLIC_URL, SMTP_URL: far.smtp.url, MAIL_FROM: 'GridRocket <robot@gridrocket.test>', ALERTS_RETRY_BASE_MS: '200', ALERTS_MAX_ATTEMPTS: '2', MAIL_RETRY_BASE_MS: '400', MAIL_RETRY_MAX_MS: '1000' }));
  const events = () => world.app.app.get<EventStore>(EVENT_STORE);

  /** A trader with a bot and e-mail alerts on (the webhook and Telegram secrets stored but switched off). */
  async function trader(email: string) {
    const client = new Client(world.app.url);
    const uid = (await client.signUp(email)).uid;
    await client.addKey(uid);
    const bot = await client.post('/api/bots', { ...spotBot, userId: uid });
    expect(bot.status).toBe(201);
    const saved = await client.put(`/api/alerts/${uid}`, {
      kinds: ['cycle', 'drift', 'botFailed'],
      email: { enabled: true },
      webhook: { enabled: false, url: 'https://hooks.example.com/gridrocket', secret: WEBHOOK_SECRET },
      telegram: { enabled: false, chatId: CHAT, botToken: BOT_TOKEN },
    });
    expect(saved.status).toBe(200);
    return { client, uid, botId: bot.body.id as string };
  }

  async function append(uid: string, botId: string, type: string, data: Record<string, unknown>) {
    const [e] = toNewEvents([{ type, data: { botId, ...data } }], { userId: uid, correlationId: `${type}-${Date.now()}` });
    await events().append(`bot-${botId}`, [e], 'any');
    return e.id;
  }

  const alertsTo = (address: string) => far.smtp.to(address).filter((m) => m.headers.subject?.startsWith('GridRocket: '));
  const logOf = (client: Client, uid: string, pred: (d: any) => boolean) =>
    until('the delivery in the log', async () => ((await client.get(`/api/alerts/${uid}/deliveries`)).body as any[]).find(pred), 20_000);

  let alice: Awaited<ReturnType<typeof trader>>;

  it('a completed cycle, a drift and a failed bot each reach the account\'s mailbox once, in words, with no secret and no order id', async () => {
    alice = await trader(ALICE);
    const { uid, botId } = alice;
    const cycle = await append(uid, botId, 'CycleCompleted', { run: 0, cycle: 1, profit: 6.02, nextCycle: 2 });
    const drift = await append(uid, botId, 'BotDriftDetected', { run: 0, kind: 'missed-fill', subject: 'gr-k3x9q2m7-1-b2', expected: 'open buy 0.01 at 59,500', actual: 'filled 0.01', action: 'repaired', at: Date.now() });
    const failed = await append(uid, botId, 'BotFailed', { reason: 'The buy order gr-k3x9q2m7-1-b3 at 59000 was cancelled on the exchange outside GridRocket; the grid cannot continue without it' });

    const mails = await until('three alert mails', () => (alertsTo(ALICE).length >= 3 ? alertsTo(ALICE) : undefined), 20_000);
    const byDelivery = (id: string) => mails.filter((m) => m.headers['x-gridrocket-delivery'] === `${id}:email`);
    for (const id of [cycle, drift, failed]) expect(byDelivery(id)).toHaveLength(1);

    const [c] = byDelivery(cycle);
    expect(c.from).toBe('robot@gridrocket.test');
    expect(c.to).toEqual([ALICE]);
    expect(c.headers.to).toBe(ALICE);
    expect(c.user).toBe('mailer'); // authenticated (RFC 4954)
    const label = `bot ${botId.slice(0, 8)} (BTCUSDT, Binance spot)`;
    expect(c.headers.subject).toBe(`GridRocket: Cycle completed: ${label}`);
    expect(c.text).toContain(`Your ${label} completed cycle 1: profit 6.02 USDT.`);
    expect(c.text).toContain(`${PUBLIC_URL}/bots/${botId}`);
    expect(c.headers['message-id']).toMatch(/^<alert-[0-9a-f]{32}@localhost>$/);

    const [d] = byDelivery(drift);
    expect(d.headers.subject).toBe(`GridRocket: Drift: ${label}`);
    expect(d.text).toContain('differs from the exchange');
    expect(d.text).toContain('59,500');
    expect(d.text).toContain('repaired');

    const [f] = byDelivery(failed);
    expect(f.headers.subject).toBe(`GridRocket: Bot stopped with an error: ${label}`);
    expect(f.text).toContain('The buy order at 59000 was cancelled on the exchange outside GridRocket');

    for (const m of mails) {
      expect(m.raw).not.toMatch(/gr-k3x9q2m7/);
      expect(m.raw).not.toContain(WEBHOOK_SECRET);
      expect(m.raw).not.toContain('secretPartOfTheToken');
      expect(m.raw).not.toContain('test-secret-0123456789'); // the exchange key's secret
    }
    const entry = await logOf(alice.client, uid, (e) => e.channel === 'email' && e.event === 'CycleCompleted');
    expect(entry).toMatchObject({ status: 'delivered', code: 250, attempts: 1, kind: 'cycle', error: null });
  });

  it('a mail server answering 451 (transient) gets the alert again with growing waits, and it arrives once', async () => {
    const { uid, botId, client } = alice;
    far.smtp.tempFailures = 2;
    const before = far.smtp.transactions.length;
    const id = await append(uid, botId, 'CycleCompleted', { run: 0, cycle: 2, profit: 6.1, nextCycle: 3 });
    const logId = alertDeliveryStream(`${id}:email`).slice(ALERT_DELIVERY_STREAM_PREFIX.length);
    const entry = await logOf(client, uid, (e) => e.id === logId);
    expect(entry).toMatchObject({ channel: 'email', status: 'delivered', attempts: 3, code: 250, kind: 'cycle' });
    const tries = far.smtp.transactions.slice(before).filter((t) => t.to.includes(ALICE));
    expect(tries.map((t) => t.code)).toEqual([451, 451, 250]);
    // back-off: base 200 ms, then 400 ms (lower bounds only)
    expect(tries[1].at - tries[0].at).toBeGreaterThanOrEqual(190);
    expect(tries[2].at - tries[1].at).toBeGreaterThanOrEqual(390);
    expect(alertsTo(ALICE).filter((m) => m.headers['x-gridrocket-delivery'] === `${id}:email`)).toHaveLength(1);
  });

  it('a mail server refusing connections (421 greeting) is tried again until it takes the alert', async () => {
    const { uid, botId, client } = alice;
    far.smtp.refuseConnections = true;
    const before = far.smtp.transactions.length;
    const id = await append(uid, botId, 'CycleCompleted', { run: 0, cycle: 3, profit: 6.2, nextCycle: 4 });
    await until('a refused connection', () => far.smtp.transactions.slice(before).find((t) => t.code === 421), 10_000);
    far.smtp.refuseConnections = false;
    const mail = await until('the alert mail', () => alertsTo(ALICE).find((m) => m.headers['x-gridrocket-delivery'] === `${id}:email`), 20_000);
    expect(mail.text).toContain('completed cycle 3');
    const logId = alertDeliveryStream(`${id}:email`).slice(ALERT_DELIVERY_STREAM_PREFIX.length); // a log entry's id
    const entry = await logOf(client, uid, (e) => e.id === logId);
    expect(entry).toMatchObject({ channel: 'email', status: 'delivered', code: 250 });
    expect(entry.attempts).toBeGreaterThanOrEqual(2);
    expect(alertsTo(ALICE).filter((m) => m.headers['x-gridrocket-delivery'] === `${id}:email`)).toHaveLength(1);
  });

  it('a mail server down for longer than the sink tries: the alert mail waits (in health), is tried on, and arrives once when the server is back', async () => {
    const { uid, botId, client } = alice;
    far.smtp.refuseConnections = true;
    const before = far.smtp.transactions.length;
    const id = await append(uid, botId, 'CycleCompleted', { run: 0, cycle: 4, profit: 6.3, nextCycle: 5 });
    // more refused connections than the sink's own 2 tries: the alert was handed back, not given up
    await until('five refused connections', () => far.smtp.transactions.slice(before).filter((t) => t.code === 421).length >= 5 || undefined, 20_000);
    const health = (await client.get('/api/health')).body;
    expect(health.alerts).toMatchObject({ waiting: 1 });
    expect(health.alerts.lastError).toMatch(/421|connect/i);
    expect(health.consumers.find((c: any) => c.name === 'alert-dispatcher')).toMatchObject({ state: 'retrying' });
    const logId = alertDeliveryStream(`${id}:email`).slice(ALERT_DELIVERY_STREAM_PREFIX.length);
    expect(((await client.get(`/api/alerts/${uid}/deliveries`)).body as any[]).find((e) => e.id === logId)).toBeUndefined();
    far.smtp.refuseConnections = false;
    const entry = await logOf(client, uid, (e) => e.id === logId);
    expect(entry).toMatchObject({ channel: 'email', status: 'delivered', code: 250 });
    expect(entry.attempts).toBeGreaterThanOrEqual(6);
    expect(alertsTo(ALICE).filter((m) => m.headers['x-gridrocket-delivery'] === `${id}:email`)).toHaveLength(1);
    await until('nothing waiting', async () => ((await client.get('/api/health')).body.alerts.waiting === 0 ? true : undefined), 10_000);
  });

  it('a mailbox the server refuses (550 to RCPT TO, permanent) is one try, logged as failed with the code', async () => {
    const bob = await trader(BOB);
    // the sign-up's verification mail is refused first; count from after it
    await until('the verification mail refused', () => far.smtp.transactions.find((t) => t.to.includes(BOB)));
    const before = far.smtp.transactions.length;
    await append(bob.uid, bob.botId, 'CycleCompleted', { run: 0, cycle: 1, profit: 1, nextCycle: 2 });
    const entry = await logOf(bob.client, bob.uid, (e) => e.channel === 'email');
    expect(entry).toMatchObject({ status: 'failed', code: 550, attempts: 1, error: 'The mail server refused the message (550)' });
    expect(far.smtp.transactions.slice(before).filter((t) => t.to.includes(BOB)).map((t) => t.code)).toEqual([550]);
    expect(alertsTo(BOB)).toEqual([]);
  });
});
