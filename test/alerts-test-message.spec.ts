/**
 * Issue 40, point 9: "Send a test" per alert channel, with what the far end answered; and alerts that tell
 * three BTCUSDT bots apart, say where each trades, give each amount with its currency and link to the bot.
 * The real app against the stand-ins of Telegram's Bot API, a signed-webhook receiver and an SMTP server
 * (test/support: written from the services' documentation, strict).
 */
import { randomUUID } from 'node:crypto';
import { EVENT_STORE, EventStore } from '@gridrocket/event-store';
import { toNewEvents } from '@gridrocket/shared';
import { until } from '@gridrocket/shared/testing/until';
import { CHAT, everyChannel, useAlertFarEnds } from './support/alert-stand-ins';
import { Client, spotBot } from './support/http-client';
import { useTraderApp } from './support/trader-app';

jest.setTimeout(60_000);

const PUBLIC_URL = 'https://grid.example';
const WEBHOOK_SECRET = 'whsec-test-0123456789-abcdXYZ9';
const ALICE = 'alice-test-alerts@example.com';
const BOB = 'bob-no-mailbox@example.com'; // no such mailbox on the mail server

describe('"Send a test" per channel, and alerts that name the bot (issue 40)', () => {
  const far = useAlertFarEnds(WEBHOOK_SECRET, [ALICE]);
  const t = useTraderApp(ALICE, {
    env: () => ({
      PUBLIC_URL,
      SMTP_URL: far.smtp.url,
      MAIL_FROM: 'GridRocket <robot@gridrocket.test>',
      ALERTS_ALLOW_PRIVATE_URLS: 'true', // loopback stand-ins
      ALERTS_TELEGRAM_API: far.telegram.url,
      ALERTS_RETRY_BASE_MS: '200',
    }),
    key: true,
  });

  const settings = (over: Record<string, unknown> = {}) => everyChannel(far.webhook, WEBHOOK_SECRET, over);
  const test = (client: Client, id: string, channel: unknown) => client.post(`/api/alerts/${id}/test`, { channel });

  it('a channel that is not set up and saved is refused with a field message, and nothing is sent', async () => {
    const calls = far.telegram.calls.length + far.webhook.calls.length;
    const off = await test(t.c, t.uid, 'telegram');
    expect(off.status).toBe(400);
    expect(off.body.errors).toEqual([{ field: 'channel', message: 'Turn Telegram on with its bot token and chat id, and save, before sending a test' }]);
    const unknown = await test(t.c, t.uid, 'sms');
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([{ field: 'channel', message: 'Choose the channel to test: email, webhook, telegram' }]);
    expect(far.telegram.calls.length + far.webhook.calls.length).toBe(calls);
    const bob = new Client(t.app.url);
    await bob.signUp('bob-test-alerts@example.com');
    expect((await test(bob, t.uid, 'webhook')).status).toBe(403);
  });

  it('each channel sends a test at once and answers what the receiver said: delivered (webhook 200 signed, Telegram ok, SMTP 250)', async () => {
    expect((await t.c.put(`/api/alerts/${t.uid}`, settings())).status).toBe(200);

    const hook = await test(t.c, t.uid, 'webhook');
    expect(hook.status).toBe(200);
    expect(hook.body).toMatchObject({ channel: 'webhook', status: 'delivered', code: 200, error: null });
    const seen = far.webhook.accepted.at(-1)!;
    expect(seen.verified).toBe(true);
    const body = JSON.parse(seen.raw);
    expect(body).toMatchObject({ kind: 'test', event: 'AlertTest', bot: null, title: 'Test alert (Webhook)', url: `${PUBLIC_URL}/alerts` });
    expect(seen.headers['x-gridrocket-event']).toBe('test');

    const tg = await test(t.c, t.uid, 'telegram');
    expect(tg.body).toMatchObject({ channel: 'telegram', status: 'delivered', code: 200, error: null });
    const message = far.telegram.delivered.at(-1)!;
    expect(message.body.chat_id).toBe(Number(CHAT));
    expect(message.body.text).toMatch(/^Test alert \(Telegram\)\nThis is a test from GridRocket/);

    const mail = await test(t.c, t.uid, 'email');
    expect(mail.body).toMatchObject({ channel: 'email', status: 'delivered', code: 250, error: null });
    const got = far.smtp.to(ALICE).at(-1)!;
    expect(got.headers.subject).toBe('GridRocket: Test alert (E-mail)');
    expect(got.text).toContain(`Open your alert settings: ${PUBLIC_URL}/alerts`);

    // the tests are in the delivery log, beside the alerts
    const log = (await t.c.get(`/api/alerts/${t.uid}/deliveries`)).body as Array<{ kind: string; channel: string; status: string; code: number | null; title: string }>;
    expect(log.filter((d) => d.kind === 'test').map((d) => [d.channel, d.status, d.code]).sort()).toEqual([['email', 'delivered', 250], ['telegram', 'delivered', 200], ['webhook', 'delivered', 200]]);
    for (const text of [hook.text, tg.text, mail.text, seen.raw, message.body.text, JSON.stringify(log)]) {
      expect(text).not.toContain(WEBHOOK_SECRET);
      expect(text).not.toContain('secretPartOfTheToken');
    }
  });

  it("shows the receiver's error, after one try: a webhook answering 500, a chat Telegram does not know, a mailbox the mail server refuses (550)", async () => {
    far.webhook.failures = 1;
    const before = far.webhook.calls.length;
    const hook = await test(t.c, t.uid, 'webhook');
    expect(hook.body).toMatchObject({ channel: 'webhook', status: 'failed', code: 500, error: 'The webhook answered 500' });
    expect(far.webhook.calls.length - before).toBe(1); // one try: the answer is shown at once, not after ~15 s of retries

    expect((await t.c.put(`/api/alerts/${t.uid}`, settings({ telegram: { enabled: true, chatId: '111' } }))).status).toBe(200);
    const tg = await test(t.c, t.uid, 'telegram');
    expect(tg.body).toMatchObject({ channel: 'telegram', status: 'failed', code: 400, error: 'Telegram answered 400: Bad Request: chat not found' });
    expect(tg.text).not.toContain('secretPartOfTheToken');

    const bob = new Client(t.app.url);
    const bobUid = (await bob.signUp(BOB)).uid;
    expect((await bob.put(`/api/alerts/${bobUid}`, { kinds: [], email: { enabled: true } })).status).toBe(200);
    const mail = await test(bob, bobUid, 'email');
    expect(mail.body).toMatchObject({ channel: 'email', status: 'failed', code: 550 });
    expect(mail.body.error).toMatch(/550/);
    const log = (await bob.get(`/api/alerts/${bobUid}/deliveries`)).body;
    expect(log).toEqual([expect.objectContaining({ kind: 'test', channel: 'email', status: 'failed', code: 550, attempts: 1 })]);
  });

  it('three BTCUSDT bots are told apart: each alert names its bot (its name when it has one), exchange and market, gives the profit in USDT and links to the bot page', async () => {
    expect((await t.c.put(`/api/alerts/${t.uid}`, settings())).status).toBe(200);
    const events = t.app.app.get<EventStore>(EVENT_STORE);
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await t.c.post('/api/bots', { ...spotBot, userId: t.uid });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    // a bot with a name, as the bot context records one (BotCreated with `name`: another part of issue 40)
    const named = randomUUID();
    const [created] = toNewEvents([{ type: 'BotCreated', data: { botId: named, userId: t.uid, botType: 'Spot', exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 5, orderSize: 0.01, interval: 100, entryPrice: 60000, takeProfit: 1, leverage: 1, name: 'Night grid' } }], { userId: t.uid, correlationId: 'named' });
    await events.append(`bot-${named}`, [created], 'no_stream');
    ids.push(named);

    const eventIds: string[] = [];
    for (const id of ids) {
      const [e] = toNewEvents([{ type: 'CycleCompleted', data: { botId: id, run: 0, cycle: 1, profit: 6.02, nextCycle: 2 } }], { userId: t.uid, correlationId: `cycle-${id}` });
      await events.append(`bot-${id}`, [e], 'any');
      eventIds.push(e.id);
    }
    const hooks = await until('three webhook alerts', () => {
      const got = eventIds.map((e) => far.webhook.accepted.find((c) => JSON.parse(c.raw).id === `${e}:webhook`));
      return got.every(Boolean) ? got.map((c) => JSON.parse(c!.raw)) : undefined;
    }, 20_000);
    const labels = [`bot ${ids[0].slice(0, 8)}`, `bot ${ids[1].slice(0, 8)}`, '"Night grid"'];
    hooks.forEach((b, i) => {
      expect(b.bot).toEqual({ id: ids[i], name: i === 2 ? 'Night grid' : null, label: labels[i], symbol: 'BTCUSDT', exchange: 'Binance', market: 'spot', url: `${PUBLIC_URL}/bots/${ids[i]}` });
      expect(b.title).toBe(`Cycle completed: ${labels[i]} (BTCUSDT, Binance spot)`);
      expect(b.text).toBe(`Your ${labels[i]} (BTCUSDT, Binance spot) completed cycle 1: profit 6.02 USDT.`);
      expect(b.currency).toBe('USDT');
    });
    expect(new Set(hooks.map((b) => b.title)).size).toBe(3);

    const messages = await until('three Telegram alerts', () => {
      const got = labels.map((l) => far.telegram.delivered.find((c) => c.body.text.startsWith(`Cycle completed: ${l}`)));
      return got.every(Boolean) ? got : undefined;
    }, 20_000);
    messages.forEach((m, i) => expect(m!.body.text).toBe(`Cycle completed: ${labels[i]} (BTCUSDT, Binance spot)\nYour ${labels[i]} (BTCUSDT, Binance spot) completed cycle 1: profit 6.02 USDT.\n${PUBLIC_URL}/bots/${ids[i]}`));

    const mails = await until("three alert mails", () => {
      const got = labels.map((l) => far.smtp.to(ALICE).find((m) => m.headers.subject === `GridRocket: Cycle completed: ${l} (BTCUSDT, Binance spot)`));
      return got.every(Boolean) ? got : undefined;
    }, 20_000);
    mails.forEach((m, i) => {
      expect(m!.text).toContain('profit 6.02 USDT');
      expect(m!.text).toContain(`Open the bot: ${PUBLIC_URL}/bots/${ids[i]}`);
    });
  });
});
