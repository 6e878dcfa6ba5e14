/**
 * Issue 42, "a grid style is one folder": the toy grid of the test tree (test/styles/toy/: its engine, runner
 * side, backtest walk and form rules, registered with one line in its index.ts) runs through the app like a
 * built-in style: created and started over the API, its orders filled by the paper exchange, stopped with its
 * position closed, its history read, and its backtest (the same engine in the job pool's worker threads, which
 * load it from GRIDROCKET_STYLE_PLUGINS) run over the API on the same candles.
 *
 * The toy buys 0.5 LTC at the entry 92 and sells it 2 above (94), then buys again. LTCUSDT futures on paper
 * Binance: price step 0.01, amount step 0.001, maker 0.02 %, taker 0.05 %. By hand:
 *  1. buy  0.5 @ 92  fee 0.0092
 *  2. sell 0.5 @ 94  fee 0.0094   cycle 1: 0.5 × 2 − 0.0092 − 0.0094 = 0.9814
 *  3. buy  0.5 @ 92  fee 0.0092   cycle 2 holds 0.5 at 92
 *  fees 0.0278; at the last close 92.8 the open buy is worth (92.8 − 92) × 0.5 − 0.0092 = 0.3908.
 */
import { join } from 'node:path';
import { STYLE_PLUGINS_ENV } from '@gridrocket/shared';
import type { Candle } from '@gridrocket/backtest';
import { until } from '@gridrocket/shared/testing/until';
import { candleRows, expectRecordedProfit, expectVenueFills, traderWithKey, usePaperApp } from './support/paper-app';
import { unregisterToy } from './styles/toy';

jest.setTimeout(180_000);

const H = 3_600_000;
const T0 = 1_700_000_000_000;
const SYMBOL = 'LTCUSDT';
// [open, high, low, close]; rising candles print open → low → high → close, falling open → high → low → close
const candles: Candle[] = (
  [
    [93, 93.5, 91.5, 92.5], // 91.5: the buy at 92 fills → the sell at 94
    [92.5, 94.5, 92.2, 94.2], // 94.5: the sell at 94 fills → the buy at 92 again (cycle 2)
    [94.2, 94.3, 91.8, 92.1], // 91.8: the buy at 92 fills → the sell at 94
    [92.1, 93, 92.05, 92.8], // nothing crosses
  ] as Array<[number, number, number, number]>
).map(([open, high, low, close], i) => ({ time: T0 + i * 4 * H, open, high, low, close }));
const csvOf = (cs: Candle[]) => ['time,open,high,low,close', ...cs.map((c) => `${new Date(c.time).toISOString()},${c.open},${c.high},${c.low},${c.close}`)].join('\n');

const body = { style: 'toy', exchange: 'Binance', symbol: SYMBOL, botType: 'Futures', numOfOrders: 1, orderSize: 0.5, interval: 2, entryPrice: 92, takeProfit: 2, leverage: 5 };
const FILLS = ['buy 92 0.5 fee 0.0092', 'sell 94 0.5 fee 0.0094', 'buy 92 0.5 fee 0.0092'];

describe('a toy grid style registered from the test tree', () => {
  const before = process.env[STYLE_PLUGINS_ENV];
  process.env[STYLE_PLUGINS_ENV] = join(__dirname, 'styles', 'toy', 'index.ts'); // the backtest's worker threads load it
  afterAll(() => {
    unregisterToy();
    if (before === undefined) delete process.env[STYLE_PLUGINS_ENV];
    else process.env[STYLE_PLUGINS_ENV] = before;
  });
  const paper = usePaperApp(candleRows(candles, 'Binance', SYMBOL, H), T0);

  it('is created, started, filled, stopped, read in its history and backtested through the API like a built-in style', async () => {
    const { venue, provider } = paper();
    const { c, uid } = await traderWithKey(paper().app.url, 'toy-style@example.com');
    const created = await c.post('/api/bots', body);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ style: 'toy', entryprice: 92, interval: 2, ordersize: 0.5, bottype: 'Futures' });
    const id = created.body.id as string;

    const port = await provider.for({ userId: uid, exchange: 'Binance', market: 'futures' });
    const show = (o: { side: string; price: number; amount: number }) => `${o.side} ${o.price} ${o.amount}`;
    const resting = async () => (await port.openOrders(SYMBOL)).map(show);
    expect((await c.get(`/api/startBot?userId=${uid}&id=${id}`)).status).toBe(202);
    await until('running', async () => (await c.get(`/api/bot-details/${id}`)).body.botstatus === true, 30_000);
    await until('the toy buy rests', async () => JSON.stringify(await resting()) === JSON.stringify(['buy 92 0.5']), 30_000);
    expect((await port.openOrders(SYMBOL))[0].clientOrderId).toMatch(/^gr-[0-9a-z]{8}-1-tb$/);

    // print by print: after each fill the toy's one next order rests
    // (print k of candle ⌊k ÷ 4⌋: 91.5 at print 2, 94.5 at print 6, 91.8 at print 10)
    const want = (k: number) => (k < 2 ? 'buy 92 0.5' : k < 6 ? 'sell 94 0.5' : k < 10 ? 'buy 92 0.5' : 'sell 94 0.5');
    for (let k = 1; k < candles.length * 4; k++) {
      venue.advanceTo(T0 + k * H);
      await until(`print ${k}: ${want(k)}`, async () => JSON.stringify(await resting()) === JSON.stringify([want(k)]), 30_000);
    }
    await expectVenueFills(port, SYMBOL, FILLS, 0.0278);
    await expectRecordedProfit(c, id, 0.9814);

    // stop with cancel-all and close-position: the sell is cancelled, the 0.5 held sold at market (92.8, taker 0.05 %: 0.0232)
    expect((await c.get(`/api/stopBot?userId=${uid}&id=${id}&cancelAllOrders=true&closePosition=true`)).status).toBe(202);
    await until('stopped', async () => (await c.get(`/api/bot-details/${id}`)).body.botstatus === false, 30_000);
    expect(await port.openOrders(SYMBOL)).toEqual([]);
    const close = (await port.recentFills(SYMBOL, 0)).slice(FILLS.length);
    expect(close.map((f) => `${f.side} ${f.price} ${f.amount} fee ${f.fee}`)).toEqual(['sell 92.8 0.5 fee 0.0232']);

    // its history in the ladder's words: the buys OrderFilled, the sell a TakeProfitFilled with the cycle's profit, the close a PositionClosed
    // (0.5 × (92.8 − 92) − 0.0092 − 0.0232 = 0.3676)
    const history = (await c.get(`/api/bots/${id}/history?limit=500`)).body as { items?: Array<{ type: string; data: Record<string, unknown> }> } | Array<{ type: string; data: Record<string, unknown> }>;
    const events = Array.isArray(history) ? history : history.items ?? [];
    const trades = events
      .filter((e) => ['OrderFilled', 'TakeProfitFilled', 'PositionClosed'].includes(e.type))
      .map((e) => `${e.type} ${e.data.side} ${e.data.price}${e.data.profit !== undefined ? ` profit ${e.data.profit}` : ''}`);
    expect(trades).toEqual(['OrderFilled buy 92', 'TakeProfitFilled sell 94 profit 0.9814', 'OrderFilled buy 92', 'PositionClosed sell 92.8 profit 0.3676']);
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['BotCreated', 'BotStarted', 'OrderPlaced', 'TakeProfitPlaced', 'OrderCancelled', 'BotStopped']));
    await expectRecordedProfit(c, id, 1.349);

    // the backtest of the same candles over the API: the toy's walk, in the job pool's worker threads
    const up = await c.raw('POST', '/api/backtests/candles', { body: csvOf(candles), headers: { 'content-type': 'text/csv' } });
    expect(up.status).toBe(201);
    const res = await c.post('/api/backtests', { ...body, candles: JSON.parse(up.text).candlesId });
    expect(res.status).toBe(202);
    const doc = await until('backtest finished', async () => {
      const r = await c.get(`/api/backtests/${res.body.id}`);
      return r.body.status !== 'running' && r.body;
    }, 60_000);
    expect({ status: doc.status, error: doc.error ?? null }).toEqual({ status: 'done', error: null });
    expect(doc.request).toMatchObject({ market: 'futures', config: { style: 'toy', botType: 'Futures', entryPrice: 92, interval: 2, orderSize: 0.5, leverage: 5 } });
    // capital 92 × 0.5 ÷ 5 = 9.2; end equity 9.2 + 0.9814 + 0.3908 = 10.5722
    expect(doc.result).toMatchObject({ style: 'toy', candles: 4, fills: 3, fees: 0.0278, profit: 0.9814, cycles: 1, capital: 9.2, unrealised: 0.3908, endEquity: 10.5722, position: { amount: 0.5, averageEntry: 92 } });
  });
});
