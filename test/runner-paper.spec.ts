/**
 * The grid runner end to end on the paper exchange, with a replayed price CSV: the real Nest app
 * (embedded runner), bots created and started over HTTP, the test moving the venue's feed one row
 * at a time and reading the exchange's open orders and the bot's profit.
 */
import { buyOrderId, takeProfitOrderId } from '@gridrocket/trading';
import { engineBotId } from '@gridrocket/trading';
import type { Client } from './support/http-client';
import { signUpTrader, usePaperReplay } from './support/trader-app';
import { H, T0, replayCsv } from './support/replay-csv';
import { until } from '@gridrocket/shared/testing/until';
import { readEventFile } from './support/event-file';

jest.setTimeout(60_000);

// Rows an hour apart: the app's feed driver (wall-clock elapsed time) never reaches the next row by
// itself; the test moves the feed with venue.advanceTo.
const CSV = replayCsv([
  `${T0},Binance,BTCUSDT,61000`,
  `${T0 + 1 * H},Binance,BTCUSDT,59500`, // buy 0 (60000) fills
  `${T0 + 2 * H},Binance,BTCUSDT,58500`, // buy 1 (59000) fills
  `${T0 + 3 * H},Binance,BTCUSDT,60700`, // take-profit (60095) fills
  `${T0},Binance,LTCUSDT,92`,
  `${T0 + 4 * H},Binance,LTCUSDT,89`, // buy 0 (90) fills
  `${T0 + 5 * H},Binance,LTCUSDT,87.5`, // buy 1 (88) fills
  `${T0 + 6 * H},Binance,LTCUSDT,91`, // take-profit (90.78) fills
  `${T0},Kucoin,SOLUSDT,150`,
  `${T0 + 7 * H},Kucoin,SOLUSDT,139.5`, // buy 0 (140) fills
]);

describe('grid runner on the paper exchange (replayed CSV)', () => {
  const paper = usePaperReplay(CSV, T0);

  const user = (email: string) => signUpTrader(paper.app.url, email, { key: ['Binance', 'Kucoin'] });

  async function openIds(uid: string, market: 'spot' | 'futures', symbol: string, exchange: 'Binance' | 'Kucoin' = 'Binance') {
    const port = await paper.provider.for({ userId: uid, exchange, market });
    return (await port.openOrders(symbol)).map((o) => `${o.side} ${o.clientOrderId} ${o.price} ${o.amount}`).sort();
  }

  async function startBot(c: Client, uid: string, body: Record<string, unknown>) {
    const created = await c.post('/api/bots', body);
    expect({ status: created.status, body: created.status === 201 ? null : created.body }).toEqual({ status: 201, body: null });
    const id = created.body.id as string;
    const start = await c.get(`/api/startBot?userId=${uid}&id=${id}`);
    expect(start.status).toBe(202);
    return id;
  }

  async function details(c: Client, id: string) {
    return (await c.get(`/api/bot-details/${id}`)).body;
  }

  const events = (id: string) => readEventFile(paper.app.dataDir, (store) => store.readStream(`bot-${id}`));

  it('spot: ladder → price falls → buys fill → one take-profit → price rises → profit to the cent → next cycle', async () => {
    const { c, uid } = await user('spot@example.com');
    const id = await startBot(c, uid, {
      exchange: 'Binance', symbol: 'BTCUSDT', botType: 'Spot', numOfOrders: 3, orderSize: '0.01', interval: 1000, entryPrice: 60000, takeProfit: 1,
    });
    const running = await until('running', async () => {
      const d = await details(c, id);
      return d.botstatus === true && d;
    });
    expect(running.pid).toBe(process.pid);
    const e = engineBotId(id, 1);
    const b = (cycle: number, level: number, price: number) => `buy ${buyOrderId(e, cycle, level)} ${price} 0.01`;
    expect(await openIds(uid, 'spot', 'BTCUSDT')).toEqual([b(1, 0, 60000), b(1, 1, 59000), b(1, 2, 58000)].sort());

    // Binance spot takes the buy fee (0.1 %) out of the coin received: the take-profits sell what the
    // account holds, 0.00999 per buy, not 0.01 (issue 10 finding 2).
    paper.venue.advanceTo(T0 + 1 * H); // 59500: buy 0 fills → take-profit for 0.00999 at 60000 × 1.01
    const tp1 = `sell ${takeProfitOrderId(e, 1, 1)} 60600 0.00999`;
    await until('tp1', async () => JSON.stringify(await openIds(uid, 'spot', 'BTCUSDT')) === JSON.stringify([b(1, 1, 59000), b(1, 2, 58000), tp1].sort()));

    paper.venue.advanceTo(T0 + 2 * H); // 58500: buy 1 fills → one take-profit for 0.01998 at 59500 × 1.01 (tp1 cancelled first)
    const tp2 = `sell ${takeProfitOrderId(e, 1, 2)} 60095 0.01998`;
    await until('tp2', async () => JSON.stringify(await openIds(uid, 'spot', 'BTCUSDT')) === JSON.stringify([b(1, 2, 58000), tp2].sort()));

    paper.venue.advanceTo(T0 + 3 * H); // 60700: the take-profit fills; cycle 2 re-arms levels 0 and 1
    await until('cycle 2', async () =>
      JSON.stringify(await openIds(uid, 'spot', 'BTCUSDT')) === JSON.stringify([b(2, 0, 60000), b(2, 1, 59000), b(1, 2, 58000)].sort()),
    );
    // 0.01998 × 60095 − (0.00999 × 60000 + 0.00999 × 59000) − buy fees in BTC at their price (0.6 + 0.59)
    // − sell fee 1.2006981 = 9.4974019
    const expected = 0.01998 * 60095 - (0.00999 * 60000 + 0.00999 * 59000) - 0.6 - 0.59 - 0.01998 * 60095 * 0.001;
    const d = await until('profit', async () => {
      const x = await details(c, id);
      return x.profit > 0 && x;
    });
    expect(Math.round(d.profit * 100) / 100).toBe(9.5);
    expect(Math.round(d.profit * 100)).toBe(Math.round(expected * 100));
    expect(d.botstatus).toBe(true);

    const history = (await events(id)).map((x) => x.type);
    expect(history.filter((t) => t === 'OrderFilled')).toHaveLength(2);
    expect(history.filter((t) => t === 'TakeProfitPlaced')).toHaveLength(2);
    expect(history.filter((t) => t === 'TakeProfitFilled')).toHaveLength(1);
    expect(history.filter((t) => t === 'ProfitRealized')).toHaveLength(1);
    expect(history.filter((t) => t === 'CycleCompleted')).toHaveLength(1);
    expect(history.filter((t) => t === 'OrderCancelled')).toHaveLength(1); // tp1, replaced by tp2
    expect(history.filter((t) => t === 'OrderPlaced')).toHaveLength(5); // 3 + 2 re-armed

    // stop WITHOUT cancel-all: the grid's orders stay on the exchange, exactly as they were
    const before = await openIds(uid, 'spot', 'BTCUSDT');
    expect((await c.get(`/api/stopBot?userId=${uid}&id=${id}&cancelAllOrders=false`)).status).toBe(202);
    await until('stopped', async () => (await details(c, id)).botstatus === false);
    expect(await openIds(uid, 'spot', 'BTCUSDT')).toEqual(before);
    expect((await details(c, id)).pid).toBe(-1);
  });

  it('futures with leverage: leverage set, reduce-only take-profit, profit to the cent, next cycle', async () => {
    const { c, uid } = await user('futures@example.com');
    const id = await startBot(c, uid, {
      exchange: 'Binance', symbol: 'LTCUSDT', botType: 'Futures', leverage: 5, numOfOrders: 3, orderSize: '0.5', interval: 2, entryPrice: 90, takeProfit: 2,
    });
    await until('running', async () => (await details(c, id)).botstatus === true);
    const port = await paper.provider.for({ userId: uid, exchange: 'Binance', market: 'futures' });
    expect(await port.positionRisk()).toContainEqual({ symbol: 'LTCUSDT', leverage: 5 });
    const e = engineBotId(id, 1);
    const b = (cycle: number, level: number, price: number) => `buy ${buyOrderId(e, cycle, level)} ${price} 0.5`;
    expect(await openIds(uid, 'futures', 'LTCUSDT')).toEqual([b(1, 0, 90), b(1, 1, 88), b(1, 2, 86)].sort());

    paper.venue.advanceTo(T0 + 4 * H);
    paper.venue.advanceTo(T0 + 5 * H);
    const tp = `sell ${takeProfitOrderId(e, 1, 2)} 90.78 1`;
    await until('tp', async () => JSON.stringify(await openIds(uid, 'futures', 'LTCUSDT')) === JSON.stringify([b(1, 2, 86), tp].sort()));
    const open = await port.openOrders('LTCUSDT');
    expect(open.find((o) => o.side === 'sell')!.reduceOnly).toBe(true);
    expect(((await port.balances()).find((x) => x.symbol === 'USDT')!.available)).toBeLessThan(10000);

    paper.venue.advanceTo(T0 + 6 * H);
    await until('cycle 2', async () =>
      JSON.stringify(await openIds(uid, 'futures', 'LTCUSDT')) === JSON.stringify([b(2, 0, 90), b(2, 1, 88), b(1, 2, 86)].sort()),
    );
    const d = await until('profit', async () => {
      const x = await details(c, id);
      return x.profit > 0 && x;
    });
    // 1.0 × 90.78 − (45 + 44) − fees at 0.02 % (0.009 + 0.0088 + 0.018156) = 1.744044
    expect(Math.round(d.profit * 100) / 100).toBe(1.74);
    expect(port.position('LTCUSDT').qty).toBe(0);
    // the wallet agrees with the bot: 10000 + profit
    expect((await port.balances()).find((x) => x.symbol === 'USDT')!.balance).toBeCloseTo(10000 + 1.744044, 6);

    // stop WITH cancel-all: none of the bot's orders is left
    expect((await c.get(`/api/stopBot?userId=${uid}&id=${id}&cancelAllOrders=true`)).status).toBe(202);
    await until('stopped', async () => (await details(c, id)).botstatus === false);
    expect(await openIds(uid, 'futures', 'LTCUSDT')).toEqual([]);
  });

  it('stop with cancel-all in the middle of a cycle cancels the ladder and the take-profit', async () => {
    const { c, uid } = await user('midcycle@example.com');
    const id = await startBot(c, uid, {
      exchange: 'Kucoin', symbol: 'SOLUSDT', botType: 'Spot', numOfOrders: 2, orderSize: '1', interval: 5, entryPrice: 140, takeProfit: 1,
    });
    await until('running', async () => (await details(c, id)).botstatus === true);
    paper.venue.advanceTo(T0 + 7 * H);
    await until('tp', async () => (await openIds(uid, 'spot', 'SOLUSDT', 'Kucoin')).some((o) => o.startsWith('sell')));
    expect(await openIds(uid, 'spot', 'SOLUSDT', 'Kucoin')).toHaveLength(2);
    expect((await c.get(`/api/stopBot?userId=${uid}&id=${id}&cancelAllOrders=true`)).status).toBe(202);
    await until('stopped', async () => (await details(c, id)).botstatus === false);
    expect(await openIds(uid, 'spot', 'SOLUSDT', 'Kucoin')).toEqual([]);
  });

  it('insufficient balance: the start fails with the reason, the bot stays stopped, nothing is placed', async () => {
    const { c, uid } = await user('poor@example.com');
    const id = await startBot(c, uid, {
      exchange: 'Binance', symbol: 'BTCUSDT', botType: 'Spot', numOfOrders: 5, orderSize: '0.1', interval: 100, entryPrice: 60000, takeProfit: 1,
    });
    const d = await until('failed', async () => {
      const x = await details(c, id);
      return x.lasterror && x;
    });
    expect(d.botstatus).toBe(false);
    expect(d.pid).toBe(-1);
    // the grid's cost (29900) plus the maker fees of its buys (0.1 %: 29.9) — issue 10 finding 5
    expect(d.lasterror).toMatch(/Insufficient balance: the grid needs 29929.9 USDT but only 10000 USDT is available on Binance spot \(the orders 29900 USDT plus 29.9 USDT of fees\)/);
    expect(await openIds(uid, 'spot', 'BTCUSDT')).toEqual([]);
    expect((await events(id)).map((x) => x.type)).toContain('BotStartFailed');
  });

  it('an invalid grid (a level at or below zero) is refused before it can start, with the reason', async () => {
    // the API checks the ladder against the market when the bot is created (bot-market.rules.ts),
    // so such a grid never reaches the runner; the runner's own check (validateGrid) is covered
    // by libs/trading/src/grid/ladder.spec.ts
    const { c, uid } = await user('invalid@example.com');
    const created = await c.post('/api/bots', {
      exchange: 'Binance', symbol: 'BTCUSDT', botType: 'Spot', numOfOrders: 5, orderSize: '0.01', interval: 20000, entryPrice: 60000, takeProfit: 1, userId: uid,
    });
    expect(created.status).toBe(400);
    expect(created.body.errors).toEqual([{ field: 'numOfOrders', message: 'The lowest order would be at -20000: lower the grid size or the price interval' }]);
    expect((await c.get(`/api/bots/${uid}`)).body).toEqual([]);
    expect(await openIds(uid, 'spot', 'BTCUSDT')).toEqual([]);
  });
});
