import { EVENT_STORE, EventStore } from '@gridrocket/event-store';
import { toNewEvents } from '@gridrocket/shared';
import { until } from '@gridrocket/shared/testing/until';
import { useTelegramAndWebhook } from './support/alert-stand-ins';
import { Client, spotBot } from './support/http-client';
import { useTraderApp } from './support/trader-app';

const WEBHOOK_SECRET = 'whsec-0123456789-abcdefXYZ9';
const BOT_TOKEN = '123456789:AAE-secretPartOfTheToken_abcdefghijKLMN';
const CHAT = '987654321';

describe('alerts: settings, and a bot event reaching the webhook and Telegram stand-ins', () => {
  const ends = useTelegramAndWebhook(WEBHOOK_SECRET, BOT_TOKEN, [CHAT]);
  // Loopback stand-ins: tests allow private webhook addresses (off by default).
  const t = useTraderApp('alice-alerts@example.com', { env: () => ({ ALERTS_ALLOW_PRIVATE_URLS: 'true', ALERTS_TELEGRAM_API: ends.telegram.url, ALERTS_RETRY_BASE_MS: '200' }), key: true, bot: spotBot });
  /** What the runner appends when a take-profit completes a cycle. */
  async function completeCycle(cycle: number) {
    const events = t.app.app.get<EventStore>(EVENT_STORE);
    const [e] = toNewEvents([{ type: 'CycleCompleted', data: { botId: t.botId, run: 0, cycle, profit: 6.02, nextCycle: cycle + 1 } }], { userId: t.uid, correlationId: `cycle-${cycle}` });
    await events.append(`bot-${t.botId}`, [e], 'any');
    return e.id;
  }

  const settings = () => ({
    kinds: ['cycle', 'stopLoss', 'botFailed'],
    email: { enabled: false },
    webhook: { enabled: true, url: `${ends.webhook.url}/hooks/gridrocket`, secret: WEBHOOK_SECRET },
    telegram: { enabled: true, chatId: CHAT, botToken: BOT_TOKEN },
  });

  it('refuses bad settings with a message per field (400), and stores nothing', async () => {
    const res = await t.c.put(`/api/alerts/${t.uid}`, {
      kinds: ['cycle', 'moon'],
      webhook: { enabled: true, url: 'ftp://example.com', secret: 'short' },
      telegram: { enabled: true, chatId: 'not a chat', botToken: 'nope' },
    });
    expect(res.status).toBe(400);
    const fields = res.body.errors.map((e: { field: string }) => e.field).sort();
    expect(fields).toEqual(['kinds', 'telegram.botToken', 'telegram.chatId', 'webhook.secret', 'webhook.url']);
    expect(res.body.errors.every((e: { message: string }) => typeof e.message === 'string' && e.message.length > 10)).toBe(true);
    // A channel switched on without its secret, and none stored.
    const noSecret = await t.c.put(`/api/alerts/${t.uid}`, { kinds: [], webhook: { enabled: true, url: 'https://hooks.example.com/x' } });
    expect(noSecret.status).toBe(400);
    expect(noSecret.body.errors).toEqual([{ field: 'webhook.secret', message: expect.stringContaining('webhook secret') }]);
    expect((await t.c.get(`/api/alerts/${t.uid}`)).body.webhook.enabled).toBe(false);
  });

  it('saves the settings; no answer carries the webhook secret or the bot token, only their last 4 characters', async () => {
    const saved = await t.c.put(`/api/alerts/${t.uid}`, settings());
    expect(saved.status).toBe(200);
    const read = await t.c.get(`/api/alerts/${t.uid}`);
    for (const res of [saved, read]) {
      expect(res.text).not.toContain(WEBHOOK_SECRET);
      expect(res.text).not.toContain(BOT_TOKEN);
      expect(res.text).not.toContain('secretPartOfTheToken');
      expect(res.body.webhook).toEqual({ enabled: true, url: `${ends.webhook.url}/hooks/gridrocket`, secretSet: true, secretLast4: 'XYZ9' });
      expect(res.body.telegram).toEqual({ enabled: true, chatId: CHAT, botTokenSet: true, botTokenLast4: 'KLMN' });
    }
    // Saving again without the secrets keeps them.
    const again = await t.c.put(`/api/alerts/${t.uid}`, { ...settings(), webhook: { enabled: true, url: `${ends.webhook.url}/hooks/gridrocket` }, telegram: { enabled: true, chatId: CHAT } });
    expect(again.status).toBe(200);
    expect(again.body.webhook.secretSet).toBe(true);
    expect(again.body.telegram.botTokenLast4).toBe('KLMN');
  });

  it("another user can neither read nor change alice's settings or deliveries (403)", async () => {
    const bob = new Client(t.app.url);
    await bob.signUp('bob-alerts@example.com');
    const read = await bob.get(`/api/alerts/${t.uid}`);
    expect(read.status).toBe(403);
    expect(read.text).not.toContain(ends.webhook.url);
    expect((await bob.put(`/api/alerts/${t.uid}`, settings())).status).toBe(403);
    expect((await bob.get(`/api/alerts/${t.uid}/deliveries`)).status).toBe(403);
    expect((await new Client(t.app.url).get(`/api/alerts/${t.uid}`)).status).toBe(401);
  });

  it('a completed cycle reaches the webhook (signature verified) and Telegram, without a secret in either, and shows in the delivery log', async () => {
    const eventId = await completeCycle(1);
    const hook = await until('the webhook call', () => ends.webhook.accepted.find((c) => JSON.parse(c.raw).id === `${eventId}:webhook`), 20_000);
    expect(hook.verified).toBe(true);
    const body = JSON.parse(hook.raw);
    expect(body).toMatchObject({ kind: 'cycle', event: 'CycleCompleted', bot: { id: t.botId, symbol: 'BTCUSDT', exchange: 'Binance' }, details: { cycle: 1, profit: 6.02 } });
    expect(hook.headers['x-gridrocket-delivery']).toBe(`${eventId}:webhook`);
    const tg = await until('the Telegram message', () => ends.telegram.delivered.find((c) => c.body.text.includes('cycle 1')), 20_000);
    expect(tg.body.chat_id).toBe(Number(CHAT));
    expect(tg.body.text).toContain('BTCUSDT');
    for (const text of [hook.raw, tg.body.text]) {
      expect(text).not.toContain(WEBHOOK_SECRET);
      expect(text).not.toContain('secretPartOfTheToken');
    }
    const log = await until('both deliveries in the log', async () => {
      const res = await t.c.get(`/api/alerts/${t.uid}/deliveries`);
      return res.body.filter((d: any) => d.event === 'CycleCompleted').length >= 2 ? res : undefined;
    }, 20_000);
    expect(log.text).not.toContain(WEBHOOK_SECRET);
    expect(log.text).not.toContain('secretPartOfTheToken');
    const byChannel = Object.fromEntries(log.body.map((d: any) => [d.channel, d]));
    expect(byChannel.webhook).toMatchObject({ status: 'delivered', code: 200, attempts: 1, kind: 'cycle', botid: t.botId });
    expect(byChannel.telegram).toMatchObject({ status: 'delivered', code: 200, attempts: 1 });
  }, 30_000);

  it('a webhook answering 500 is retried with growing waits until it takes the alert', async () => {
    ends.webhook.failures = 2;
    const before = ends.webhook.calls.length;
    const eventId = await completeCycle(2);
    await until('the webhook accepted cycle 2', () => ends.webhook.accepted.find((c) => JSON.parse(c.raw).id === `${eventId}:webhook`), 20_000);
    const calls = ends.webhook.calls.slice(before).filter((c) => JSON.parse(c.raw).id === `${eventId}:webhook`);
    expect(calls.map((c) => c.status)).toEqual([500, 500, 200]);
    // Back-off: base 200 ms, then 400 ms (lower bounds only).
    expect(calls[1].at - calls[0].at).toBeGreaterThanOrEqual(190);
    expect(calls[2].at - calls[1].at).toBeGreaterThanOrEqual(390);
    // Each try is signed afresh (its own timestamp), and every one verifies.
    expect(calls.every((c) => c.verified)).toBe(true);
    const log = await until('the log entry', async () => {
      const res = await t.c.get(`/api/alerts/${t.uid}/deliveries`);
      return res.body.find((d: any) => d.id && d.channel === 'webhook' && d.attempts === 3);
    }, 20_000);
    expect(log).toMatchObject({ status: 'delivered', code: 200, attempts: 3 });
  }, 30_000);

  it("Telegram's 429 is honoured: the next try waits retry_after seconds", async () => {
    ends.telegram.floods = { count: 1, retryAfter: 1 };
    const before = ends.telegram.calls.length;
    await completeCycle(3);
    await until('the Telegram message of cycle 3', () => ends.telegram.delivered.find((c) => c.body.text.includes('cycle 3')), 20_000);
    const calls = ends.telegram.calls.slice(before).filter((c) => c.body.text.includes('cycle 3'));
    expect(calls).toHaveLength(2);
    expect(calls[1].at - calls[0].at).toBeGreaterThanOrEqual(1000);
    const log = await until('the log entry', async () => {
      const res = await t.c.get(`/api/alerts/${t.uid}/deliveries`);
      return res.body.find((d: any) => d.channel === 'telegram' && d.attempts === 2);
    }, 20_000);
    expect(log).toMatchObject({ status: 'delivered', code: 200 });
  }, 30_000);

  it('a wrong chat id is a failed delivery that says why (no retry, no token in the log)', async () => {
    const saved = await t.c.put(`/api/alerts/${t.uid}`, { ...settings(), webhook: { enabled: false }, telegram: { enabled: true, chatId: '111' } });
    expect(saved.status).toBe(200);
    const before = ends.telegram.calls.length;
    await completeCycle(4);
    const log = await until('the failed delivery', async () => {
      const res = await t.c.get(`/api/alerts/${t.uid}/deliveries`);
      return res.body.find((d: any) => d.channel === 'telegram' && d.status === 'failed') ? res : undefined;
    }, 20_000);
    const failed = log.body.find((d: any) => d.channel === 'telegram' && d.status === 'failed');
    expect(failed).toMatchObject({ code: 400, attempts: 1, error: 'Telegram answered 400: Bad Request: chat not found' });
    expect(ends.telegram.calls.length - before).toBe(1);
    expect(log.text).not.toContain('secretPartOfTheToken');
  }, 30_000);
});
