/**
 * Issue 32 over HTTP, on the real app and the paper exchange: each venue's market has its own steps
 * and minimums (libs/exchanges/src/venues/markets.ts), so a bot the venue's market would refuse is
 * refused at create, with the market's rule in the message (bot-market.rules.ts wording):
 *  - Binance's SOLUSDT perpetual trades whole coins (LOT_SIZE step 1, minimum 1): a 0.5 SOL futures
 *    ladder is refused, the same ladder on spot (step 0.001) is created;
 *  - Binance's BTCUSDT perpetual needs 100 USDT per order (MIN_NOTIONAL), spot 5 USDT;
 *  - Kucoin's BTC contract (XBTUSDTM) is 0.001 BTC: sizes are whole contracts;
 *  - GET /api/market-rules reports the market of the bot's type.
 */
import { useTraderApp } from './support/trader-app';

jest.setTimeout(60_000);

const T0 = 1_700_000_000_000;
const CSV = ['ms,exchange,symbol,price', `${T0},Binance,SOLUSDT,140`, `${T0},Binance,BTCUSDT,95000`, `${T0},Kucoin,BTCUSDT,95000`].join('\n');

describe('paper markets as the venues have them (issue 32)', () => {
  const t = useTraderApp('paper-markets@example.com', { replay: { csv: CSV, at: T0 } });
  const sol = (over: Record<string, unknown> = {}) => ({
    userId: t.uid, exchange: 'Binance', symbol: 'SOLUSDT', botType: 'Futures', leverage: 5, numOfOrders: 3, orderSize: '0.5', interval: 2, entryPrice: 138, takeProfit: 1, status: false, pid: -1, ...over,
  });
  const btc = (over: Record<string, unknown> = {}) => ({
    userId: t.uid, exchange: 'Binance', symbol: 'BTCUSDT', botType: 'Futures', leverage: 5, numOfOrders: 3, orderSize: '0.001', interval: 500, entryPrice: 95000, takeProfit: 1, status: false, pid: -1, ...over,
  });
  const count = async () => ((await t.c.get(`/api/bots/${t.uid}`)).body as unknown[]).length;

  it("a 0.5 SOL futures ladder on Binance is refused with the perpetual's amount step; on spot it is created", async () => {
    const before = await count();
    const refused = await t.c.post('/api/bots', sol());
    expect({ status: refused.status, errors: refused.body.errors }).toEqual({
      status: 400,
      errors: [{ field: 'orderSize', message: "Order size must be a multiple of 1 (the market's amount step)" }],
    });
    expect(await count()).toBe(before); // nothing created
    // whole coins: 1 SOL per rung (lowest 134 × 1 = 134 USDT ≥ 5)
    expect((await t.c.post('/api/bots', sol({ orderSize: '1' }))).status).toBe(201);
    // Binance spot SOLUSDT takes 0.001 SOL steps: 0.5 SOL (lowest 134 × 0.5 = 67 USDT ≥ 5)
    const spot = await t.c.post('/api/bots', sol({ botType: 'Spot', leverage: undefined }));
    expect(spot.status).toBe(201);
    expect(spot.body.ordersize).toBe(0.5);
  });

  it("a BTCUSDT futures ladder whose lowest order is below the perpetual's 100 USDT is refused; spot's 5 USDT takes it", async () => {
    // rungs 95000, 94500, 94000 of 0.001 BTC: the lowest is worth 94000 × 0.001 = 94 USDT
    const refused = await t.c.post('/api/bots', btc());
    expect({ status: refused.status, errors: refused.body.errors }).toEqual({
      status: 400,
      errors: [{ field: 'orderSize', message: "The lowest order is worth 94 USDT, below the market's minimum order value of 100 USDT" }],
    });
    // 0.002 BTC: the lowest is worth 94000 × 0.002 = 188 USDT
    expect((await t.c.post('/api/bots', btc({ orderSize: '0.002' }))).status).toBe(201);
    expect((await t.c.post('/api/bots', btc({ botType: 'Spot', leverage: undefined }))).status).toBe(201);
  });

  it("Kucoin's BTC contract is 0.001 BTC: a futures size between contracts is refused, whole contracts are created", async () => {
    const refused = await t.c.post('/api/bots', btc({ exchange: 'Kucoin', orderSize: '0.0015' }));
    expect({ status: refused.status, errors: refused.body.errors }).toEqual({
      status: 400,
      errors: [{ field: 'orderSize', message: "Order size must be a multiple of 0.001 (the market's amount step)" }],
    });
    // Kucoin futures has no minimum order value: one contract (0.001 BTC, 94 USDT at the lowest rung) is enough
    expect((await t.c.post('/api/bots', btc({ exchange: 'Kucoin', orderSize: '0.001' }))).status).toBe(201);
  });

  it("the market rules the form reads are the bot type's market", async () => {
    const futures = await t.c.get('/api/market-rules?exchange=Binance&symbol=SOLUSDT&botType=Futures');
    const spot = await t.c.get('/api/market-rules?exchange=Binance&symbol=SOLUSDT&botType=Spot');
    expect(futures.body).toMatchObject({ amountStep: 1, minAmount: 1, minNotional: 5 });
    expect(spot.body).toMatchObject({ amountStep: 0.001, minAmount: 0.001, minNotional: 5 });
    const btcFutures = await t.c.get('/api/market-rules?exchange=Binance&symbol=BTCUSDT&botType=Futures');
    expect(btcFutures.body).toMatchObject({ priceStep: 0.1, amountStep: 0.001, minNotional: 100 });
  });
});
