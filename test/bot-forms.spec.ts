/**
 * Issue 40 over HTTP, on the real app and the paper exchange at a fixed price (BTCUSDT 95,447.00):
 *  - point 7: a neutral futures grid is created and edited without a take profit (it has none of its
 *    own); a long one still needs it, and the 400 names the field;
 *  - the investment-based form: a total investment in USDT sizes the orders at the market's own rules
 *    (Binance spot BTCUSDT: amount step 0.00001, minimum order value 5 USDT; USDⓈ-M BTCUSDT: amount step
 *    0.001, minimum order value 100 USDT: libs/exchanges venues/markets.ts), is stored and shown on the bot,
 *    and one too small is refused on `investment` with the numbers, nothing created.
 */
import { useTraderApp } from './support/trader-app';

jest.setTimeout(60_000);

const T0 = 1_700_000_000_000;
const CSV = ['ms,exchange,symbol,price', `${T0},Binance,BTCUSDT,95447`].join('\n');

describe('forms that say why, and the investment-based form (issue 40)', () => {
  const t = useTraderApp('forms@example.com', { replay: { csv: CSV, at: T0 } });
  // rungs 95000, 94500, 94000, 93500, 93000: Σ 470000 USDT per coin of each order
  const spot = (over: Record<string, unknown> = {}) => ({ userId: t.uid, exchange: 'Binance', symbol: 'BTCUSDT', botType: 'Spot', numOfOrders: 5, interval: 500, entryPrice: 95000, takeProfit: 1, ...over });
  const neutral = (over: Record<string, unknown> = {}) => ({ userId: t.uid, exchange: 'Binance', symbol: 'BTCUSDT', botType: 'Futures', direction: 'neutral', numOfOrders: 3, interval: 100, entryPrice: 95447, leverage: 5, ...over });
  const count = async () => ((await t.c.get(`/api/bots/${t.uid}`)).body as unknown[]).length;

  it('a neutral grid is created without a take profit and edited without one; a long grid without one is a 400 on takeProfit', async () => {
    const created = await t.c.post('/api/bots', neutral({ orderSize: 0.002 }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ direction: 'neutral', takeprofit: 0, ordersize: 0.002 });
    const edited = await t.c.put(`/api/bots/${created.body.id}`, { exchange: 'Binance', numOfOrders: 4, orderSize: 0.002, interval: 100, entryPrice: 95447 });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ direction: 'neutral', numoforders: 4, takeprofit: 0 });
    const long = await t.c.post('/api/bots', neutral({ direction: 'long', orderSize: 0.002, entryPrice: 95000 }));
    expect({ status: long.status, errors: long.body.errors }).toEqual({ status: 400, errors: [{ field: 'takeProfit', message: 'takeProfit is required' }] });
  });

  it('a spot ladder by its investment: 1000 USDT ÷ 470000 = 0.0021276… → 0.00212 BTC per order, the investment stored', async () => {
    const res = await t.c.post('/api/bots', spot({ investment: 1000 }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ ordersize: 0.00212, investment: 1000 });
    expect((await t.c.get(`/api/bot-details/${res.body.id}`)).body).toMatchObject({ ordersize: 0.00212, investment: 1000 });
  });

  it('an investment too small for the market is refused with the numbers (the lowest order at 93000 needs 0.00006 BTC: 28.20 USDT), nothing created', async () => {
    const before = await count();
    const res = await t.c.post('/api/bots', spot({ investment: 28.19 }));
    expect({ status: res.status, errors: res.body.errors }).toEqual({
      status: 400,
      errors: [
        {
          field: 'investment',
          message: "An investment of 28.19 USDT is too small for this grid: its 5 orders would be 0.00005 BTC each, and the smallest would be worth 4.65 USDT, below the market's minimum order value of 5 USDT. The smallest investment for this grid is 28.20 USDT",
        },
      ],
    });
    expect(await count()).toBe(before);
    expect((await t.c.post('/api/bots', spot({ investment: 28.2 }))).body).toMatchObject({ ordersize: 0.00006, investment: 28.2 });
  });

  it('a neutral futures grid by its margin: buys 95347…95147 and sells 95547…95747, Σ 572682 ÷ 5x; 1000 USDT → 0.008 BTC', async () => {
    const res = await t.c.post('/api/bots', neutral({ investment: 1000 }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ ordersize: 0.008, investment: 1000, takeprofit: 0 });
    // the lowest buy at 95147 worth 100 USDT needs 0.002 BTC: 0.002 × 572682 ÷ 5 = 229.07 USDT
    const small = await t.c.post('/api/bots', neutral({ investment: 229 }));
    expect(small.status).toBe(400);
    expect(small.body.errors).toEqual([{ field: 'investment', message: expect.stringContaining('The smallest investment for this grid is 229.08 USDT') }]);
  });

  it('an edit by investment re-sizes the orders; an edit by order size drops the investment', async () => {
    const { body: bot } = await t.c.post('/api/bots', spot({ investment: 1000 }));
    const edit = { exchange: 'Binance', numOfOrders: 5, interval: 500, entryPrice: 95000, takeProfit: 1 };
    const resized = await t.c.put(`/api/bots/${bot.id}`, { ...edit, investment: 2000 });
    expect(resized.body).toMatchObject({ ordersize: 0.00425, investment: 2000 });
    const byHand = await t.c.put(`/api/bots/${bot.id}`, { ...edit, orderSize: 0.001 });
    expect(byHand.body.ordersize).toBe(0.001);
    expect(byHand.body).not.toHaveProperty('investment');
  });
});
