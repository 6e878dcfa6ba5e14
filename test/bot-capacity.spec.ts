/**
 * Issue 39, "a capacity answer before a start", over HTTP on the real app and the paper exchange (Binance
 * spot: at most 200 open orders per symbol, MAX_NUM_ORDERS). Two ladders of 99 rungs on BTCUSDT may rest
 * up to 200 orders there (99 buys and, while a rung is partly filled, the take-profit): a third bot's start
 * on BTCUSDT would pass the venue's maximum and is refused with the numbers; nothing is recorded. The same
 * bot starts once one of the others is stopped, and a bot on another symbol starts meanwhile. The answer is
 * the user's own: another user's bot is 404.
 */
import { Client } from './support/http-client';
import { startPaperReplayApp } from './support/test-app';

jest.setTimeout(120_000);

const T0 = 1_700_000_000_000;
const CSV = ['ms,exchange,symbol,price', `${T0},Binance,BTCUSDT,95447`, `${T0},Binance,SOLUSDT,150`].join('\n');

describe('capacity before a start (issue 39)', () => {
  let replay: Awaited<ReturnType<typeof startPaperReplayApp>>;
  let c: Client;
  let other: Client;
  let uid: string;
  const bot = (over: Record<string, unknown> = {}) => ({
    userId: uid, exchange: 'Binance', symbol: 'BTCUSDT', botType: 'Spot', numOfOrders: 99, orderSize: '0.0001', interval: 10, entryPrice: 95000, takeProfit: 1, ...over,
  });
  const create = async (over: Record<string, unknown> = {}) => {
    const res = await c.post('/api/bots', bot(over));
    expect({ status: res.status, errors: res.body.errors }).toEqual({ status: 201, errors: undefined });
    return res.body.id as string;
  };
  const start = (id: string) => c.get(`/api/startBot?id=${id}&userId=${uid}`);
  const state = async (id: string) => (await c.get(`/api/bot-details/${id}`)).body.state as string;

  beforeAll(async () => {
    replay = await startPaperReplayApp(CSV, T0);
    c = new Client(replay.app.url);
    other = new Client(replay.app.url);
    uid = (await c.signUp('capacity@example.com')).uid;
    await c.addKey(uid, 'Binance');
    await other.signUp('capacity-other@example.com');
  });
  afterAll(() => replay.close());

  it('answers what a start would place against the venue limits before anything exists, with the sources', async () => {
    const res = await c.get('/api/bot-capacity?exchange=Binance&symbol=BTCUSDT&botType=Spot&numOfOrders=99');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      venue: 'Binance spot',
      symbol: 'BTCUSDT',
      ordersAtStart: 99,
      openOrders: { rule: 'MAX_NUM_ORDERS', limit: 200, others: 0, thisBot: 100, total: 100, exceeded: false },
      weight: { rule: 'REQUEST_WEIGHT', limit: 6000, share: 0.5, budget: 3000, account: 26, exceeded: false },
      exceeded: [],
      refusal: null,
    });
    expect(res.body.orderWindows.map((w: { label: string; limit: number; atMost: number }) => [w.label, w.limit, w.atMost])).toEqual([['10 s', 100, 90], ['1 day', 200000, 99]]);
    expect(res.body.openOrders.source).toMatch(/^https:\/\/developers\.binance\.com\/docs\/binance-spot-api-docs\/filters/);
  });

  it('bad values are a 400 with a message per field', async () => {
    const res = await c.get('/api/bot-capacity?exchange=Nope&symbol=&numOfOrders=5000&direction=up');
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['direction', 'exchange', 'numOfOrders', 'symbol']);
  });

  it('a third bot on BTCUSDT would pass MAX_NUM_ORDERS: its start is a 409 with the numbers and nothing is recorded; it starts once another is stopped', async () => {
    const a = await create();
    const b = await create();
    const third = await create({ numOfOrders: 5 });
    const sol = await create({ symbol: 'SOLUSDT', orderSize: '0.1', interval: 0.5, entryPrice: 149, numOfOrders: 5 });
    expect((await start(a)).status).toBe(202);
    expect((await start(b)).status).toBe(202); // 100 + 100 = 200: at the maximum, not past it

    const types = async (id: string) => ((await c.get(`/api/bots/${id}/history`)).body as { type: string }[]).map((e) => e.type);
    expect(await types(third)).toEqual(['BotCreated']);
    const refused = await start(third);
    expect({ status: refused.status, message: refused.body.message }).toEqual({
      status: 409,
      message:
        'This start places 5 orders on BTCUSDT and rests up to 6 there; Binance spot allows 200 open orders per symbol (MAX_NUM_ORDERS); ' +
        'your other bots hold up to 200 open on BTCUSDT: 206 in all. Lower the grid size, or stop a bot on BTCUSDT.',
    });
    expect(await state(third)).toBe('stopped');
    expect(await types(third)).toEqual(['BotCreated']); // nothing recorded

    // the form's answer for the same bot says the same
    const answer = await c.get(`/api/bot-capacity/${third}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ openOrders: { others: 200, thisBot: 6, total: 206, exceeded: true }, exceeded: ['MAX_NUM_ORDERS'], refusal: refused.body.message });
    // an edit of bot a is not counted against itself
    const editing = await c.get(`/api/bot-capacity?exchange=Binance&symbol=BTCUSDT&numOfOrders=99&id=${a}`);
    expect(editing.body.openOrders).toMatchObject({ others: 100, total: 200, exceeded: false });

    // another symbol is not concerned
    expect((await start(sol)).status).toBe(202);

    // once b is stopped (its orders cancelled), the third bot starts
    for (let i = 0; i < 600 && (await state(b)) !== 'running'; i++) await new Promise((r) => setTimeout(r, 100));
    expect((await c.get(`/api/stopBot?id=${b}&userId=${uid}&cancelAllOrders=true`)).status).toBe(202);
    for (let i = 0; i < 600 && (await state(b)) !== 'stopped'; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await state(b)).toBe('stopped');
    expect((await c.get(`/api/bot-capacity/${third}`)).body.openOrders).toMatchObject({ others: 100, total: 106, exceeded: false });
    expect((await start(third)).status).toBe(202);
  });

  it("another user's bot is 404, by either route", async () => {
    const mine = await create({ numOfOrders: 3 });
    expect((await other.get(`/api/bot-capacity/${mine}`)).status).toBe(404);
    expect((await other.get(`/api/bot-capacity?exchange=Binance&symbol=BTCUSDT&numOfOrders=3&id=${mine}`)).status).toBe(404);
    expect((await other.get('/api/bot-capacity/not-an-id')).status).toBe(404);
  });
});
