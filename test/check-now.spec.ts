/**
 * Issue 29, the watchdog's "Check now" (docs/watchdog.md): `POST /api/bots/{id}/check` records the
 * owner's request in the bot's stream and the runner that owns the bot checks it at once, without
 * waiting for the scheduled period (turned off here: WATCHDOG_PERIOD_MS=0). On the paper exchange with a
 * replayed price (the real app, over HTTP): an order appears under the bot's id behind its back (nothing
 * tells the bot; only a check can see it), and Check now finds it. A stopped bot cannot be checked (409),
 * another user's bot is not found (404), and the request needs the CSRF header like every POST.
 */
import { until } from '@gridrocket/shared/testing/until';
import { Client, spotBot } from './support/http-client';
import { traderWithBot, usePaperReplay } from './support/trader-app';

jest.setTimeout(60_000);

const T0 = 1_700_000_000_000;
const CSV = ['ms,exchange,symbol,price', `${T0},Binance,BTCUSDT,61000`].join('\n');

type HistoryEvent = { type: string; data: Record<string, unknown> };

describe('Check now', () => {
  const before = process.env.WATCHDOG_PERIOD_MS;
  beforeAll(() => {
    process.env.WATCHDOG_PERIOD_MS = '0'; // no scheduled check: only Check now can find the difference
  });
  const replay = usePaperReplay(CSV, T0);
  afterAll(() => {
    if (before === undefined) delete process.env.WATCHDOG_PERIOD_MS;
    else process.env.WATCHDOG_PERIOD_MS = before;
  });

  it('finds a difference with the exchange at once; one check at a time; 409 for a stopped bot, 404 for another user\'s', async () => {
    const { c, uid, botId: id } = await traderWithBot(replay.app.url, 'checker@example.com', { ...spotBot, entryPrice: 60000 });
    const details = async () => (await c.get(`/api/bot-details/${id}`)).body as { state: string; checkrequestedat?: number };
    const history = async () => (await c.get(`/api/bots/${id}/history`)).body as HistoryEvent[];
    const port = await replay.provider.for({ userId: uid, exchange: 'Binance', market: 'spot' });

    // stopped: nothing to check
    const stopped = await c.post(`/api/bots/${id}/check`);
    expect(stopped.status).toBe(409);
    expect(stopped.body.message).toContain('not running');

    expect((await c.get(`/api/startBot?id=${id}&userId=${uid}`)).status).toBe(202);
    await until('running with its 5 buys resting', async () => (await details()).state === 'running' && (await port.openOrders('BTCUSDT')).length === 5, 20_000);

    // behind the bot's back: an order under the bot's id it never placed (nothing tells the bot)
    const top = (await port.openOrders('BTCUSDT')).map((o) => o.clientOrderId).find((cid) => cid.endsWith('-b0'))!;
    const stranger = top.replace(/-b0$/, '-b7');
    await port.createLimitOrder({ symbol: 'BTCUSDT', side: 'buy', price: 50000, amount: 0.01, clientOrderId: stranger });
    expect((await history()).some((e) => e.type === 'BotDriftDetected')).toBe(false);

    // another user's bot: not found, and nothing is recorded
    const mallory = new Client(replay.app.url);
    await mallory.signUp('mallory@example.com');
    expect((await mallory.post(`/api/bots/${id}/check`)).status).toBe(404);
    // no CSRF header: refused like every POST
    expect((await c.raw('POST', `/api/bots/${id}/check`, { csrf: false })).status).toBe(403);
    expect((await history()).some((e) => e.type === 'BotCheckRequested')).toBe(false);

    const asked = await c.post(`/api/bots/${id}/check`);
    expect(asked.status).toBe(202);
    expect(asked.body).toMatchObject({ requested: true });
    expect(asked.body.pending).toBeUndefined();
    // a second request while the first is pending: answered the same, no second request recorded
    const again = await c.post(`/api/bots/${id}/check`);
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ requested: true, pending: true, requestedAt: asked.body.requestedAt });
    expect((await details()).checkrequestedat).toBe(asked.body.requestedAt);

    // the runner says the check ran, after what it recorded
    const checked = await until('the check reported done', async () => (await history()).find((e) => e.type === 'BotChecked'), 20_000);
    expect(checked.data).toMatchObject({ requestedAt: asked.body.requestedAt, found: 1 });
    const drift = (await history()).find((e) => e.type === 'BotDriftDetected')!;
    expect(drift.data).toMatchObject({ kind: 'unknown-order', subject: stranger, action: 'flagged', expected: 'no such order' });
    const types = (await history()).map((e) => e.type);
    expect(types.filter((t) => t === 'BotCheckRequested')).toHaveLength(1);
    expect(types.indexOf('BotCheckRequested')).toBeLessThan(types.indexOf('BotDriftDetected'));
    expect(types.indexOf('BotDriftDetected')).toBeLessThan(types.indexOf('BotChecked'));
    expect(types.filter((t) => t === 'BotChecked')).toHaveLength(1);
    // flagged, not acted on: the order is still on the exchange, the bot still runs
    expect((await port.openOrders('BTCUSDT')).map((o) => o.clientOrderId)).toContain(stranger);
    expect((await details()).state).toBe('running');
  });
});
