/**
 * Issue 29 (findings 3 and 8) over HTTP, on the real app and the paper exchange with a fixed price
 * (BTCUSDT 95,447.00, Binance spot rules: amount step 0.00001, minimum order value 5 USDT, taker 0.1 %):
 *  - the order size follows the market's amount step: 0.001 BTC is accepted, 0.000015 is not;
 *  - an entry more than 0.5 % above the current price is refused on entryPrice with what would happen,
 *    unless the request carries confirmAboveMarket: true (create and edit);
 *  - a take-profit above 100 % is refused.
 */
import { useTraderApp } from './support/trader-app';

jest.setTimeout(60_000);

const T0 = 1_700_000_000_000;
const CSV = ['ms,exchange,symbol,price', `${T0},Binance,BTCUSDT,95447`].join('\n');

describe('bot input against the market (issue 29)', () => {
  const t = useTraderApp('entry-checks@example.com', { replay: { csv: CSV, at: T0 } });
  const bot = (over: Record<string, unknown> = {}) => ({
    userId: t.uid, exchange: 'Binance', symbol: 'BTCUSDT', botType: 'Spot', numOfOrders: 5, orderSize: '0.01', interval: 500, entryPrice: 95000, takeProfit: 1, status: false, pid: -1, ...over,
  });
  const list = async () => (await t.c.get(`/api/bots/${t.uid}`)).body as { entryprice: number }[];

  it('0.001 BTC is accepted (the market\'s amount step is 0.00001); off the step is a 400 on orderSize', async () => {
    const ok = await t.c.post('/api/bots', bot({ orderSize: '0.001' }));
    expect(ok.status).toBe(201);
    expect(ok.body.ordersize).toBe(0.001);
    const off = await t.c.post('/api/bots', bot({ orderSize: '0.000015' }));
    expect({ status: off.status, errors: off.body.errors }).toEqual({
      status: 400,
      errors: [{ field: 'orderSize', message: "Order size must be a multiple of 0.00001 (the market's amount step)" }],
    });
  });

  it('an entry 99 % above the market is refused with the rungs that would fill at once and their cost; confirmed, it is created', async () => {
    const before = (await list()).length;
    const refused = await t.c.post('/api/bots', bot({ entryPrice: 190000 }));
    expect({ status: refused.status, errors: refused.body.errors }).toEqual({
      status: 400,
      errors: [
        {
          field: 'entryPrice',
          message:
            'The entry price is 99.06 % above the current price of 95,447.00 USDT: 5 of the 5 buy orders (0.05 BTC) would fill at once as taker orders, ' +
            'for about 4,772.35 USDT plus 4.77 USDT taker fee. To place them anyway, confirm it (confirmAboveMarket: true).',
        },
      ],
    });
    expect((await list()).length).toBe(before); // nothing created
    const confirmed = await t.c.post('/api/bots', bot({ entryPrice: 190000, confirmAboveMarket: true }));
    expect(confirmed.status).toBe(201);
    expect(confirmed.body.entryprice).toBe(190000);
    expect(confirmed.body).not.toHaveProperty('confirmAboveMarket'); // answers the request, never stored
  });

  it('within 0.5 % above the market no confirmation is asked; the query-string form of the call confirms too', async () => {
    expect((await t.c.post('/api/bots', bot({ entryPrice: 95900 }))).status).toBe(201); // 0.47 % above
    const refused = await t.c.post('/api/bots', bot({ entryPrice: 96000 }));
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].message).toMatch(/^The entry price is 0\.58 % above the current price of 95,447\.00 USDT: 2 of the 5 buy orders \(0\.02 BTC\)/);
    expect((await t.c.post('/api/bots?confirmAboveMarket=true', bot({ entryPrice: 96000 }))).status).toBe(201);
  });

  it('an edit to an entry above the market is refused the same way, and accepted confirmed', async () => {
    const created = await t.c.post('/api/bots', bot());
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const edit = { exchange: 'Binance', numOfOrders: 5, orderSize: 0.01, interval: 500, entryPrice: 190000, takeProfit: 1 };
    const refused = await t.c.put(`/api/bots/${id}`, edit);
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([{ field: 'entryPrice', message: expect.stringContaining('5 of the 5 buy orders (0.05 BTC) would fill at once as taker orders') }]);
    expect((await t.c.get(`/api/bot-details/${id}`)).body.entryprice).toBe(95000);
    const ok = await t.c.put(`/api/bots/${id}`, { ...edit, confirmAboveMarket: true });
    expect(ok.status).toBe(200);
    expect((await t.c.get(`/api/bot-details/${id}`)).body.entryprice).toBe(190000);
  });

  it('a take-profit above 100 % is refused in words (the issue\'s 500 %); 100 % passes', async () => {
    const refused = await t.c.post('/api/bots', bot({ takeProfit: 500 }));
    expect({ status: refused.status, errors: refused.body.errors }).toEqual({
      status: 400,
      errors: [{ field: 'takeProfit', message: 'takeProfit must be at most 100 %: above it the price would have to more than double before the first sale' }],
    });
    expect((await t.c.post('/api/bots', bot({ takeProfit: 100 }))).status).toBe(201);
  });
});
