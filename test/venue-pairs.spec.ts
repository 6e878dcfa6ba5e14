/**
 * Issue 39, "Any pair the venue lists", over HTTP on the real app:
 *  - live mode on the Binance spot stand-in (libs/exchanges/src/testing/standin; its venue core lists the
 *    paper catalogue and ADAUSDT, a pair the paper catalogue does not have, with the venue's recorded filters):
 *    a bot on ADAUSDT is created, started and places its ladder there, and its fills come back to it;
 *  - an order size of 12,345 BTC (Binance's LOT_SIZE maxQty is 9,000) is refused at create, naming the rule;
 *  - a pair the venue does not list is refused on symbol, naming the venue and market;
 *  - a paper account keeps its catalogue: ADAUSDT and PEPEUSDT are refused there.
 */
import { until } from '@gridrocket/shared/testing/until';
import { useLiveStandInApp } from './support/live-stand-in-app';
import { signUpTrader, useTestApp } from './support/trader-app';

jest.setTimeout(90_000);

const T = Date.now();
const CSV = ['ms,exchange,symbol,price', `${T - 5000},Binance,BTCUSDT,95000`, `${T - 5000},Binance,ADAUSDT,0.3500`, `${T + 1000},Binance,ADAUSDT,0.3420`].join('\n');
const VENUE_USER = 'venue-trader'; // the stand-in's account of the key below
const KEY = { userId: VENUE_USER, apiKey: 'test-binance-key', secret: 'test-secret-0123456789' };

const bot = (uid: string, over: Record<string, unknown> = {}) => ({
  userId: uid, exchange: 'Binance', botType: 'Spot', symbol: 'ADAUSDT', numOfOrders: 3, orderSize: '20', interval: '0.005', entryPrice: '0.345', takeProfit: 1, status: false, pid: -1, ...over,
});

describe('a pair the venue lists, live on the Binance spot stand-in (issue 39)', () => {
  const live = useLiveStandInApp({ prefix: 'gr-pairs-', csv: CSV, startAt: T - 5000, key: KEY, email: 'pairs@example.com' });
  const { account, types } = live;

  it('a bot on ADAUSDT (not in the paper catalogue) is created, starts, places its ladder on the venue and hears its fills', async () => {
    const { venue, c, uid } = live;
    const created = await c.post('/api/bots', bot(uid));
    expect({ status: created.status, errors: created.body.errors }).toEqual({ status: 201, errors: undefined });
    expect(created.body.symbol).toBe('ADAUSDT');
    const id = created.body.id as string;
    expect((await c.get(`/api/startBot?id=${id}&userId=${uid}`)).status).toBe(202);
    await until('its ladder on the venue', () => venue.openOrders(account(), 'ADAUSDT').length === 3, 30_000);
    expect(venue.openOrders(account(), 'ADAUSDT').map((o) => [o.side, o.price / 1e8, o.amount / 1e8])).toEqual([
      ['buy', 0.345, 20],
      ['buy', 0.34, 20],
      ['buy', 0.335, 20],
    ]);
    // the price comes down through the first rung: the venue fills it, the bot records it and places its take-profit
    venue.advanceTo(T + 1000);
    await until('the fill in the bot\'s history', async () => (await types(id)).includes('OrderFilled'), 30_000);
    await until('its take-profit', async () => (await types(id)).includes('TakeProfitPlaced'), 30_000);
    await c.get(`/api/stopBot?id=${id}&userId=${uid}&cancelAllOrders=true`);
  });

  it('12,345 BTC per order is refused at create, naming Binance\'s rule (LOT_SIZE maxQty 9000), and nothing is created', async () => {
    const { venue, c, uid } = live;
    const before = ((await c.get(`/api/bots/${uid}`)).body as unknown[]).length;
    const refused = await c.post('/api/bots', bot(uid, { symbol: 'BTCUSDT', orderSize: '12345', interval: 500, entryPrice: 95000 }));
    expect({ status: refused.status, errors: refused.body.errors }).toEqual({
      status: 400,
      errors: [{ field: 'orderSize', message: "Order size 12345 BTC is above Binance's maximum of 9000 BTC per order (LOT_SIZE maxQty)" }],
    });
    expect(((await c.get(`/api/bots/${uid}`)).body as unknown[]).length).toBe(before);
    // within the maximum it is the venue's to take
    expect((await c.post('/api/bots', bot(uid, { symbol: 'BTCUSDT', orderSize: '0.01', interval: 500, entryPrice: 95000 }))).status).toBe(201);
  });

  it('a ladder reaching below the venue\'s price band (0.2 × the price, PERCENT_PRICE_BY_SIDE) is refused at create, naming the rule', async () => {
    const { c, uid } = live;
    // (the price is 0.342 since the first story) 99 rungs of 0.003 from 0.34: the lowest buy at 0.046, below 0.2 × 0.342 = 0.0684
    const refused = await c.post('/api/bots', bot(uid, { numOfOrders: 99, orderSize: '200', interval: '0.003', entryPrice: '0.34' }));
    expect({ status: refused.status, errors: refused.body.errors }).toEqual({
      status: 400,
      errors: [{ field: 'numOfOrders', message: "The lowest buy order at 0.046 USDT is below Binance's limit of 0.0684 USDT, 0.2 × the current price of 0.342 USDT (PERCENT_PRICE_BY_SIDE)" }],
    });
  });

  it('a pair the venue does not list is refused on symbol, naming the venue and market', async () => {
    const { c, uid } = live;
    const refused = await c.post('/api/bots', bot(uid, { symbol: 'PEPEUSDT', orderSize: '500000', interval: '0.00000001', entryPrice: '0.00001' }));
    expect({ status: refused.status, errors: refused.body.errors }).toEqual({
      status: 400,
      errors: [{ field: 'symbol', message: 'symbol must be a pair Binance spot lists: PEPEUSDT is not one of its markets' }],
    });
  });
});

describe('a paper account keeps the paper catalogue (issue 39)', () => {
  const t = useTestApp();

  it('ADAUSDT and PEPEUSDT, which the venues list, are refused on symbol by the paper exchange', async () => {
    const { c, uid } = await signUpTrader(t.app.url, 'paper-pairs@example.com');
    for (const symbol of ['ADAUSDT', 'PEPEUSDT']) {
      const refused = await c.post('/api/bots', bot(uid, { symbol }));
      expect({ status: refused.status, errors: refused.body.errors }).toEqual({
        status: 400,
        errors: [{ field: 'symbol', message: `symbol must be a pair the paper exchange's Binance spot lists: ${symbol} is not one of its markets` }],
      });
    }
    expect(((await c.get(`/api/bots/${uid}`)).body as unknown[]).length).toBe(0);
  });
});
