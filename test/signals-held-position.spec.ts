/**
 * Issue 40, point 8: a signal could not restart a bot that had traded (409 on what it held) and the
 * refusal reached nobody. Now the signal settings carry the owner's standing choice for a held position:
 * refuse (the default: 409, recorded, and an alert to the owner naming the bot and the reason), resume
 * with it, or sell it first (the bot's orders cancelled, what it holds sold at market, then a fresh start).
 * The real app on the paper exchange with a replayed price path, the signals signed as docs/signals.md
 * tells a script to, the alerts received by the webhook and Telegram stand-ins (test/support).
 */
import { createHmac, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { SqliteEventStore } from '@gridrocket/event-store';
import { until } from '@gridrocket/shared/testing/until';
import { useTelegramAndWebhook } from './support/alert-stand-ins';
import { Client, spotBot } from './support/http-client';
import { useTraderApp } from './support/trader-app';

jest.setTimeout(90_000);

const H = 3_600_000;
const T0 = 1_700_000_000_000;
const CSV = [
  'ms,exchange,symbol,price',
  `${T0},Binance,BTCUSDT,61000`, // above the ladder (60000, 59500, 59000)
  `${T0 + H},Binance,BTCUSDT,59950`, // the buy at 60000 fills: 0.00999 BTC held (the fee is taken in the coin), take-profit at 60600
  `${T0 + 2 * H},Binance,BTCUSDT,60300`, // between the ladder and its take-profit: nothing fills
].join('\n');
const WEBHOOK_SECRET = 'whsec-signals-0123456789-XYZ9';
const BOT_TOKEN = '123456789:AAE-secretPartOfTheToken_abcdefghijKLMN';
const CHAT = '987654321';

describe('signals and a bot that holds a position (issue 40)', () => {
  const ends = useTelegramAndWebhook(WEBHOOK_SECRET, BOT_TOKEN, [CHAT]);
  const t = useTraderApp('signals-held@example.com', {
    replay: { csv: CSV, at: T0 },
    env: () => ({ PUBLIC_URL: 'https://grid.example', ALERTS_ALLOW_PRIVATE_URLS: 'true', ALERTS_TELEGRAM_API: ends.telegram.url, ALERTS_RETRY_BASE_MS: '200' }),
    key: 'Binance',
  });
  let botId: string;
  let secret: string;

  /**
   * A signal as a script sends it: X-Signature = sha256=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>, no
   * cookie. Each one stamped a second earlier than any before it: two alike with the same timestamp carry the
   * same signature and are one signal (a replay). (Now minus a count did not do it: on a loaded machine the
   * next signal came a second later, and its stamp equalled the one before.)
   */
  let lastStamp = Infinity;
  async function signal(action: 'start' | 'stop') {
    const body = JSON.stringify({ action });
    lastStamp = Math.min(Math.floor(Date.now() / 1000), lastStamp - 1);
    const ts = String(lastStamp);
    const id = randomUUID();
    const sig = createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex');
    const res = await fetch(`${t.app.url}/api/signals/${botId}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-signal-timestamp': ts, 'x-signal-id': id, 'x-signature': `sha256=${sig}` }, body });
    const text = await res.text();
    return { id, status: res.status, body: text ? JSON.parse(text) : undefined };
  }
  const state = async () => (await t.c.get(`/api/bot-details/${botId}`)).body.state as string;
  const settles = (want: string) => until(`the bot ${want}`, async () => ((await state()) === want ? want : undefined), 20_000);
  const port = () => t.provider.for({ userId: t.uid, exchange: 'Binance', market: 'spot' });
  const openOrders = async () => (await (await port()).openOrders('BTCUSDT')).map((o) => `${o.side} ${o.price} ${o.amount}`).sort();
  const btcHeld = async () => (await (await port()).balances()).find((b) => b.symbol === 'BTC')?.balance ?? 0;
  async function history(): Promise<Array<{ type: string; data: any }>> {
    const store = new SqliteEventStore(join(t.app.dataDir, 'events.sqlite'));
    try {
      return (await store.readStream(`bot-${botId}`)).map((e) => ({ type: e.type, data: e.data }));
    } finally {
      store.close?.();
    }
  }
  const stop = async () => {
    expect((await t.c.get(`/api/stopBot?userId=${t.uid}&id=${botId}&cancelAllOrders=false`)).status).toBeLessThan(300);
    await settles('stopped');
  };

  it('the bot trades: it buys 0.00999 BTC and stops holding it', async () => {
    const made = await t.c.post('/api/bots', { ...spotBot, numOfOrders: 3, interval: 500, userId: t.uid });
    expect(made.status).toBe(201);
    botId = made.body.id;
    const on = await t.c.post(`/api/bots/${botId}/signals`, {});
    expect(on.status).toBe(201);
    secret = on.body.secret;
    // the choice is shown with the settings: refuse unless the owner chose otherwise
    expect(on.body.heldPosition).toBe('refuse');
    expect((await t.c.put(`/api/alerts/${t.uid}`, { kinds: ['signalRefused'], webhook: { enabled: true, url: `${ends.webhook.url}/hooks`, secret: WEBHOOK_SECRET }, telegram: { enabled: true, chatId: CHAT, botToken: BOT_TOKEN } })).status).toBe(200);

    expect((await t.c.get(`/api/startBot?userId=${t.uid}&id=${botId}`)).status).toBe(202);
    await settles('running');
    await until('the ladder placed', async () => ((await openOrders()).length === 3 ? true : undefined), 20_000);
    t.venue.advanceTo(T0 + H);
    await until('the take-profit placed', async () => ((await openOrders()).some((o) => o.startsWith('sell')) ? true : undefined), 20_000);
    t.venue.advanceTo(T0 + 2 * H);
    await stop();
    expect(await btcHeld()).toBeCloseTo(0.00999, 8);
  });

  it('refuse (the default): a start signal is refused with what the bot holds, and the owner is alerted on every channel, naming the bot and the reason', async () => {
    const res = await signal('start');
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/^The bot holds 0\.00999 BTC \(bought for 600\.00 USDT\)/);
    expect(await state()).toBe('stopped');

    const hook = await until('the webhook alert', () => ends.webhook.accepted.map((c) => JSON.parse(c.raw)).find((b) => b.kind === 'signalRefused' && b.details.signalId === res.id), 20_000);
    const label = `bot ${botId.slice(0, 8)} (BTCUSDT, Binance spot)`;
    expect(hook.title).toBe(`Signal refused: ${label}`);
    expect(hook.text).toMatch(new RegExp(`^A start signal for your ${label.replace(/[()]/g, '\\$&')} was refused \\(409\\): The bot holds 0\\.00999 BTC \\(bought for 600\\.00 USDT\\)`));
    expect(hook.text).toContain('choose "start with the position" or "sell it first" under Signals');
    expect(hook.bot).toMatchObject({ id: botId, url: `https://grid.example/bots/${botId}` });
    const tg = await until('the Telegram alert', () => ends.telegram.delivered.find((c) => c.body.text.startsWith(`Signal refused: ${label}`)), 20_000);
    expect(tg.body.text).toContain('was refused (409): The bot holds 0.00999 BTC');
    expect(tg.body.text).toContain(`https://grid.example/bots/${botId}`);
    expect(tg.body.text).not.toContain(secret);

    const handled = (await history()).filter((e) => e.type === 'SignalHandled').at(-1)!;
    expect(handled.data).toMatchObject({ signalId: res.id, outcome: 'refused', status: 409, refusal: 'position-held' });
  });

  it('the choice is the owner\'s only, and checked', async () => {
    const bad = await t.c.raw('PATCH', `/api/bots/${botId}/signals`, { body: JSON.stringify({ heldPosition: 'yolo' }), headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: 'heldPosition', message: 'heldPosition must be one of: refuse, resume, sell (refuse the start, start with the position, or sell it first)' }]);
    const bob = new Client(t.app.url);
    await bob.signUp('signals-held-bob@example.com');
    const other = await bob.raw('PATCH', `/api/bots/${botId}/signals`, { body: JSON.stringify({ heldPosition: 'sell' }), headers: { 'content-type': 'application/json' } });
    expect(other.status).toBe(404);
    expect((await t.c.get(`/api/bots/${botId}/signals`)).body.heldPosition).toBe('refuse');
  });

  it('resume: a start signal starts the bot with its position (its take-profit kept, no second ladder)', async () => {
    const before = await openOrders();
    const chosen = await t.c.raw('PATCH', `/api/bots/${botId}/signals`, { body: JSON.stringify({ heldPosition: 'resume' }), headers: { 'content-type': 'application/json' } });
    expect(chosen.status).toBe(200);
    expect(chosen.body).toMatchObject({ enabled: true, heldPosition: 'resume' });
    const res = await signal('start');
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ action: 'start', outcome: 'requested', heldPosition: 'kept' });
    await settles('running');
    expect(await openOrders()).toEqual(before);
    expect(await btcHeld()).toBeCloseTo(0.00999, 8);
    await stop();
  });

  it('sell it first: a start signal cancels the bot\'s orders, sells what it holds at market, then starts a fresh ladder', async () => {
    expect((await t.c.raw('PATCH', `/api/bots/${botId}/signals`, { body: JSON.stringify({ heldPosition: 'sell' }), headers: { 'content-type': 'application/json' } })).body.heldPosition).toBe('sell');
    const res = await signal('start');
    expect({ status: res.status, message: res.body.message }).toEqual({ status: 202, message: undefined });
    expect(res.body).toMatchObject({ action: 'start', outcome: 'requested', heldPosition: 'sold-first', state: 'stopping' });
    await settles('running');
    await until('the fresh ladder', async () => ((await openOrders()).length === 3 ? true : undefined), 20_000);
    expect(await openOrders()).toEqual(['buy 59000 0.01', 'buy 59500 0.01', 'buy 60000 0.01']); // no take-profit: nothing held
    expect(await btcHeld()).toBeLessThan(0.00001); // 0.00999 sold at market, no more than dust below one step left

    const events = await history();
    const from = events.map((e) => e.type).lastIndexOf('SignalReceived');
    const after = events.slice(from).filter((e) => ['SignalReceived', 'SignalHandled', 'BotStopRequested', 'BotStopped', 'BotStartRequested', 'BotStarted'].includes(e.type));
    expect(after.map((e) => e.type)).toEqual(['SignalReceived', 'BotStopRequested', 'SignalHandled', 'BotStopped', 'BotStartRequested', 'BotStarted']);
    expect(after[1].data).toEqual({ botId, cancelAllOrders: true, closePosition: true, thenStart: true });
    expect(after[2].data).toMatchObject({ signalId: res.id, outcome: 'requested', position: 'sold-first' });
    expect(after[4].data).toEqual({ botId, afterClose: true });
    // a later start signal needs no choice: the bot holds nothing it did not just buy
  });
});
