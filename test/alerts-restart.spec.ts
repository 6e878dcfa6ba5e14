/**
 * Issue 29: "alerts are delivered exactly once: nothing lost, nothing sent twice", across restarts of the
 * API process that runs the alert dispatcher (the built server, `npm start`, as its own OS process).
 *
 * - An alert delivered on every channel (webhook, Telegram, e-mail over SMTP) before the process is
 *   killed (kill -9, so the dispatcher's checkpoint may lag behind its deliveries) is not sent again after
 *   the restart: the `AlertDeliveryRecorded` streams say it went out.
 * - An alert whose bot event was recorded but not yet delivered when the process died (every channel's
 *   far end failing for the time being, each delivery in its back-off) is delivered after the restart, once
 *   on each channel, and the delivery log has one entry per channel.
 * The bot events are appended to the server's event store file from this process, as a runner beside the
 * API does (the server sees them by its poll of the shared SQLite file).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALERT_DELIVERY_STREAM_PREFIX, AlertRateLimit, AlertSecrets, EmailSink, TelegramSink, WebhookSink, alertDeliveryStream } from '@gridrocket/alerts';
import { AlertDispatcher, AlertDispatcherLifecycle } from '@gridrocket/alerts/nest';
import { EVENT_STORE, EventStore, SqliteEventStore } from '@gridrocket/event-store';
import type { Mailer } from '@gridrocket/identity';
import { createMailer } from '@gridrocket/identity/nest';
import { READ_STORE, ReadStore } from '@gridrocket/read-store';
import { APP_CONFIG, AppConfig } from '@gridrocket/shared/runtime';
import { toNewEvents } from '@gridrocket/shared';
import { until } from '@gridrocket/shared/testing/until';
import { everyChannel, startAlertFarEnds, type AlertFarEnds, type TelegramStandIn, type WebhookReceiver } from './support/alert-stand-ins';
import { Client, spotBot } from './support/http-client';
import { kill9, spawnServer, stop } from './support/server-process';
import type { SmtpStandIn } from './support/smtp-stand-in';
import { startTestApp } from './support/test-app';

jest.setTimeout(120_000);

const WEBHOOK_SECRET = 'whsec-restart-0123456789-abXYZ9';
const EMAIL = 'restart-alerts@example.com';
const PASSWORD = 'correct-horse-1';

describe('alerts across a restart of the API process (kill -9)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gr-alerts-restart-'));
  let smtp: SmtpStandIn;
  let webhook: WebhookReceiver;
  let telegram: TelegramStandIn;
  let far: AlertFarEnds;
  let server: Awaited<ReturnType<typeof spawnServer>> | null = null;
  let events: SqliteEventStore;
  let env: Record<string, string>;
  let uid: string;
  let botId: string;

  beforeAll(async () => {
    far = await startAlertFarEnds(WEBHOOK_SECRET, [EMAIL]);
    ({ smtp, webhook, telegram } = far);
    env = {
      EMBEDDED_RUNNER: 'false',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'GridRocket <robot@gridrocket.test>',
      ALERTS_ALLOW_PRIVATE_URLS: 'true',
      ALERTS_TELEGRAM_API: telegram.url,
      ALERTS_RETRY_BASE_MS: '1000',
    };
    server = await spawnServer(dataDir, env);
    const client = new Client(server.url);
    uid = (await client.signUp(EMAIL, PASSWORD)).uid;
    await client.addKey(uid);
    const bot = await client.post('/api/bots', { ...spotBot, userId: uid });
    expect(bot.status).toBe(201);
    botId = bot.body.id;
    const saved = await client.put(`/api/alerts/${uid}`, everyChannel(webhook, WEBHOOK_SECRET));
    expect(saved.status).toBe(200);
    events = new SqliteEventStore(join(dataDir, 'events.sqlite'));
  }, 60_000);

  afterAll(async () => {
    if (server) await kill9(server.proc);
    await events?.close();
    await far?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** What the runner appends when a take-profit completes a cycle. */
  async function completeCycle(cycle: number): Promise<string> {
    const [e] = toNewEvents([{ type: 'CycleCompleted', data: { botId, run: 0, cycle, profit: 6.02, nextCycle: cycle + 1 } }], { userId: uid, correlationId: `cycle-${cycle}` });
    await events.append(`bot-${botId}`, [e], 'any');
    return e.id;
  }

  /** What each far end took for the alert of `eventId` (successful deliveries only). */
  const received = (eventId: string) => ({
    webhook: webhook.accepted.filter((c) => JSON.parse(c.raw).id === `${eventId}:webhook`).length,
    telegram: telegram.delivered.filter((c) => c.body.text.includes(`cycle ${cycleOf.get(eventId)}:`)).length,
    email: smtp.to(EMAIL).filter((m) => m.headers['x-gridrocket-delivery'] === `${eventId}:email`).length,
  });
  /** Every try each far end saw for it, taken or refused. */
  const tries = (eventId: string) => ({
    webhook: webhook.calls.filter((c) => JSON.parse(c.raw).id === `${eventId}:webhook`).length,
    telegram: telegram.calls.filter((c) => c.body.text.includes(`cycle ${cycleOf.get(eventId)}:`)).length,
    email: smtp.transactions.filter((t) => t.headers?.['x-gridrocket-delivery'] === `${eventId}:email`).length,
  });
  const cycleOf = new Map<string, number>();
  async function cycleAlert(cycle: number) {
    const id = await completeCycle(cycle);
    cycleOf.set(id, cycle);
    return id;
  }
  const deliveredEverywhere = (id: string) => until(`cycle ${cycleOf.get(id)} on every channel`, () => {
    const r = received(id);
    return r.webhook >= 1 && r.telegram >= 1 && r.email >= 1 ? r : undefined;
  }, 30_000);
  /** The deliveries recorded in the event store for one bot event (what a restarted dispatcher reads). */
  const recorded = async (eventId: string) =>
    (await events.readAll()).filter((e) => e.type === 'AlertDeliveryRecorded' && (e.data as { deliveryId: string }).deliveryId.startsWith(`${eventId}:`)).map((e) => e.data as { channel: string; status: string; attempts: number });
  /** The trader's delivery log for one bot event, as the dashboard reads it (signed in once). */
  const logOf = async (eventId: string) => {
    const client = new Client(server!.url);
    expect((await client.post('/api/auth/login', { email: EMAIL, password: PASSWORD })).status).toBe(200);
    return until('one log entry per channel', async () => {
      const res = await client.get(`/api/alerts/${uid}/deliveries?limit=100`);
      // a log entry's id is its delivery stream's (alert-delivery-<sha256 of "<event id>:<channel>">)
      const ids = ['email', 'telegram', 'webhook'].map((ch) => alertDeliveryStream(`${eventId}:${ch}`).slice(ALERT_DELIVERY_STREAM_PREFIX.length));
      const entries = (res.body as { id: string; channel: string; status: string; attempts: number }[]).filter((d) => ids.includes(d.id));
      return entries.length >= 3 ? entries : undefined;
    }, 20_000);
  };

  it('an alert delivered before the kill is not sent again after the restart, on any channel', async () => {
    const first = await cycleAlert(1);
    expect(await deliveredEverywhere(first)).toEqual({ webhook: 1, telegram: 1, email: 1 });
    await until('all three deliveries recorded', async () => ((await recorded(first)).length === 3 ? true : undefined), 20_000);
    await kill9(server!.proc); // at once: the dispatcher's checkpoint may not have moved past the event yet

    server = await spawnServer(dataDir, env);
    // a later alert of the same bot goes out after the first one was handled again (one stream, in order)
    const marker = await cycleAlert(2);
    expect(await deliveredEverywhere(marker)).toEqual({ webhook: 1, telegram: 1, email: 1 });
    expect(received(first)).toEqual({ webhook: 1, telegram: 1, email: 1 });
    expect(tries(first)).toEqual({ webhook: 1, telegram: 1, email: 1 });
    expect((await recorded(first)).map((d) => d.channel).sort()).toEqual(['email', 'telegram', 'webhook']);
  });

  it('an alert still in its back-off when the process is killed is delivered after the restart, once on each channel', async () => {
    // every far end fails for now: the webhook answers 500, Telegram 429 (retry after a minute), the mail server 451
    webhook.failures = 1_000;
    telegram.floods = { count: 1_000, retryAfter: 60 };
    smtp.tempFailures = 1_000;
    const pending = await cycleAlert(3);
    await until('a first try on every channel', () => {
      const t = tries(pending);
      return t.webhook >= 1 && t.telegram >= 1 && t.email >= 1 ? t : undefined;
    }, 20_000);
    await kill9(server!.proc);
    server = null;
    expect(received(pending)).toEqual({ webhook: 0, telegram: 0, email: 0 });
    expect(await recorded(pending)).toEqual([]); // not delivered, not recorded: the event alone says it is owed

    // the far ends are back; the API is started again on the same data
    webhook.failures = 0;
    telegram.calm();
    smtp.tempFailures = 0;
    server = await spawnServer(dataDir, env);
    expect(await deliveredEverywhere(pending)).toEqual({ webhook: 1, telegram: 1, email: 1 });
    const marker = await cycleAlert(4);
    await deliveredEverywhere(marker);
    expect(received(pending)).toEqual({ webhook: 1, telegram: 1, email: 1 });
    const log = await logOf(pending);
    expect(log.map((d) => [d.channel, d.status]).sort()).toEqual([['email', 'delivered'], ['telegram', 'delivered'], ['webhook', 'delivered']]);
    expect((await recorded(pending)).length).toBe(3);

    // a graceful restart changes nothing either
    await stop(server.proc);
    server = await spawnServer(dataDir, env);
    const last = await cycleAlert(5);
    await deliveredEverywhere(last);
    for (const id of [pending, marker]) expect(received(id)).toEqual({ webhook: 1, telegram: 1, email: 1 });
  });

  it('a second API replica on the same data with ALERTS_DISPATCHER=false sends nothing: each alert goes out once', async () => {
    // not on the paper exchange: one process runs a paper exchange's folder (paper-lock.ts, issue 41), and this
    // replica only serves and projects; its venue adapter is never called here
    const replica = await spawnServer(dataDir, { ...env, ALERTS_DISPATCHER: 'false', FORWARDER: 'false', EXCHANGE_MODE: 'testnet' });
    try {
      // the replica serves the trader (its projections run) ...
      const client = new Client(replica.url);
      expect((await client.post('/api/auth/login', { email: EMAIL, password: PASSWORD })).status).toBe(200);
      expect((await client.get(`/api/alerts/${uid}`)).body.webhook.enabled).toBe(true);
      // ... while the alerts go out from one process only
      const id = await cycleAlert(6);
      await deliveredEverywhere(id);
      const marker = await cycleAlert(7);
      await deliveredEverywhere(marker);
      expect(tries(id)).toEqual({ webhook: 1, telegram: 1, email: 1 });
    } finally {
      await kill9(replica.proc);
    }
  });
});

/**
 * The same rule without a process boundary, made certain: a restarted dispatcher handles again the events
 * after its checkpoint (at-least-once), and the delivery streams alone keep it from sending any of them twice.
 */
describe('a restarted alert dispatcher on the same stores', () => {
  let smtp: SmtpStandIn;
  let webhook: WebhookReceiver;
  let telegram: TelegramStandIn;
  let far: AlertFarEnds;
  let app: Awaited<ReturnType<typeof startTestApp>>;
  let store: EventStore;
  let mailer: Mailer;
  const EMAIL2 = 'again-alerts@example.com';

  beforeAll(async () => {
    far = await startAlertFarEnds(WEBHOOK_SECRET, [EMAIL2]);
    ({ smtp, webhook, telegram } = far);
    app = await startTestApp({ SMTP_URL: smtp.url, ALERTS_ALLOW_PRIVATE_URLS: 'true', ALERTS_TELEGRAM_API: telegram.url, ALERTS_RETRY_BASE_MS: '100' });
    store = app.app.get<EventStore>(EVENT_STORE);
  }, 60_000);

  afterAll(async () => {
    await mailer?.close?.();
    await app?.close();
    await far?.close();
  });

  /** A dispatcher built as the API builds one, on the app's stores and keys (AlertDispatcherLifecycle). */
  function restartedDispatcher(secrets: AlertSecrets = app.app.get(AlertSecrets)): AlertDispatcher {
    const config = app.app.get<AppConfig>(APP_CONFIG);
    const a = config.alerts;
    mailer = createMailer(config);
    return new AlertDispatcher({
      events: store,
      reads: app.app.get<ReadStore>(READ_STORE),
      secrets,
      rate: new AlertRateLimit(a.rateLimit, a.rateWindowSeconds * 1000),
      sinks: [
        new EmailSink(mailer, { maxAttempts: a.maxAttempts, retryBaseMs: a.retryBaseMs, publicUrl: config.publicUrl }),
        new WebhookSink({ allowPrivateUrls: a.allowPrivateUrls, maxAttempts: a.maxAttempts, retryBaseMs: a.retryBaseMs }),
        new TelegramSink({ apiOrigin: a.telegramApi, maxAttempts: a.maxAttempts, retryBaseMs: a.retryBaseMs }),
      ],
    });
  }

  /** A cycle of the bot completed, as the runner appends it; the event as recorded. */
  async function appendCycle(userId: string, botId: string, cycle: number, profit: number, correlationId: string) {
    const [e] = toNewEvents([{ type: 'CycleCompleted', data: { botId, run: 0, cycle, profit, nextCycle: cycle + 1 } }], { userId, correlationId });
    await store.append(`bot-${botId}`, [e], 'any');
    return (await store.readStream(`bot-${botId}`)).find((r) => r.id === e.id)!;
  }

  it('sends what was not sent, once, and nothing that was, on each channel', async () => {
    const client = new Client(app.url);
    const uid = (await client.signUp(EMAIL2)).uid;
    await client.addKey(uid);
    const botId = (await client.post('/api/bots', { ...spotBot, userId: uid })).body.id as string;
    expect((await client.put(`/api/alerts/${uid}`, everyChannel(webhook, WEBHOOK_SECRET))).status).toBe(200);
    const cycle = (n: number) => appendCycle(uid, botId, n, 1.5, `c-${n}`);
    const sent = (id: string, n: number) => ({
      webhook: webhook.calls.filter((c) => JSON.parse(c.raw).id === `${id}:webhook`).length,
      telegram: telegram.calls.filter((c) => c.body.text.includes(`cycle ${n}:`)).length,
      email: smtp.transactions.filter((t) => t.headers?.['x-gridrocket-delivery'] === `${id}:email`).length,
    });

    // delivered by the running dispatcher
    const first = await cycle(1);
    await until('cycle 1 everywhere', () => { const s = sent(first.id, 1); return s.webhook && s.telegram && s.email ? s : undefined; }, 20_000);
    await until('cycle 1 recorded on every channel', async () => ((await store.readAll()).filter((e) => e.type === 'AlertDeliveryRecorded').length === 3 ? true : undefined), 20_000);

    // the process stops; an event comes while no dispatcher runs
    await app.app.get(AlertDispatcherLifecycle).dispatcher.stop();
    const second = await cycle(2);

    const again = restartedDispatcher();
    await again.handle(first); // after its checkpoint, so handled again
    await again.handle(second);
    await again.handle(second); // and once more (a second restart)
    expect(sent(first.id, 1)).toEqual({ webhook: 1, telegram: 1, email: 1 });
    expect(sent(second.id, 2)).toEqual({ webhook: 1, telegram: 1, email: 1 });
    const records = (await store.readAll()).filter((e) => e.type === 'AlertDeliveryRecorded').map((e) => (e.data as { deliveryId: string }).deliveryId);
    expect(records.sort()).toEqual([first.id, second.id].flatMap((id) => ['email', 'telegram', 'webhook'].map((ch) => `${id}:${ch}`)).sort());
    await again.stop();
  });

  it('one channel failing does not make another, still in its back-off, go out twice when the event is handled again', async () => {
    const client = new Client(app.url);
    const uid = (await client.signUp('twice-alerts@example.com')).uid;
    await client.addKey(uid);
    const botId = (await client.post('/api/bots', { ...spotBot, userId: uid })).body.id as string;
    expect((await client.put(`/api/alerts/${uid}`, everyChannel(webhook, WEBHOOK_SECRET, { email: { enabled: false } }))).status).toBe(200);
    await app.app.get(AlertDispatcherLifecycle).dispatcher.stop(); // (stopped already by the test above when run together)
    const event = await appendCycle(uid, botId, 7, 2, 'c-7');

    // the webhook's secret cannot be opened once (a failing key service); Telegram floods first (429, retry after 1 s)
    const real = app.app.get(AlertSecrets);
    let failOnce = true;
    const flaky = Object.assign(Object.create(real) as AlertSecrets, {
      open: (userId: string, field: Parameters<AlertSecrets['open']>[1], sealed: string) => {
        if (field === 'webhookSecret' && failOnce) {
          failOnce = false;
          throw new Error('the key service did not answer');
        }
        return real.open(userId, field, sealed);
      },
    });
    telegram.floods = { count: 1, retryAfter: 1 };
    const before = telegram.calls.length;
    const dispatcher = restartedDispatcher(flaky);
    await expect(dispatcher.handle(event)).rejects.toThrow('the key service did not answer');
    await dispatcher.handle(event); // the reactor's retry
    await until('both channels recorded', async () => ((await store.readAll()).filter((r) => r.type === 'AlertDeliveryRecorded' && (r.data as { deliveryId: string }).deliveryId.startsWith(`${event.id}:`)).length === 2 ? true : undefined), 10_000);
    const tg = telegram.calls.slice(before).filter((c) => c.body.text.includes('cycle 7:'));
    expect(tg.length).toBe(2); // the 429, then the one that went through
    expect(telegram.delivered.filter((c) => c.body.text.includes('cycle 7:'))).toHaveLength(1);
    expect(webhook.accepted.filter((c) => JSON.parse(c.raw).id === `${event.id}:webhook`)).toHaveLength(1);
    await dispatcher.stop();
  });
});
