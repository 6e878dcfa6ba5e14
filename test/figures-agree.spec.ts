/**
 * Issue 40, point 1: one source for each figure. The bot page (GET /api/bots/{id}/summary), the bot card
 * (GET /api/bots-overview) and the performance view (GET /api/bots/{id}/performance) show the same
 * position, fills, fees, capital in use and committed, and P&L after every kind of event: fills, a
 * stop-loss, a take-profit, a trailing take-profit, a manual stop with sale (close position), and a
 * restart. The real app on the paper exchange with a replayed price CSV; one symbol per story (the feed
 * is shared), the test moving the venue's feed one row at a time. Before the fix the page and the card
 * kept the position a stop-loss had sold (0.001998 BTC, 2 fills) while the performance view had 0.000008
 * and 3 fills: the page's summary did not read StopLossTriggered. And the manual stop's sale was recorded
 * nowhere (its loss in neither realised nor unrealised P&L, nor in the bot list's profit, the trades or the
 * CSV): it is a fill of its own now, with what it realised.
 */
import { until } from '@gridrocket/shared/testing/until';
import { GridRunnerService } from '@gridrocket/trading/nest';
import { useTraderApp } from './support/trader-app';
import { H, T0, replayCsv } from './support/replay-csv';

jest.setTimeout(120_000);

const CSV = replayCsv([
  // stop-loss (BTCUSDT spot, the bot): two buys of 0.001 fill, then the price falls through 57500
  `${T0},Binance,BTCUSDT,61000`,
  `${T0 + 1 * H},Binance,BTCUSDT,59500`, // buy 0 (60000)
  `${T0 + 2 * H},Binance,BTCUSDT,58500`, // buy 1 (59000)
  `${T0 + 3 * H},Binance,BTCUSDT,57000`, // ≤ 57500: sold at market at 57000
  // trailing take-profit (AVAXUSDT spot, deviation 2 %)
  `${T0},Binance,AVAXUSDT,30.5`,
  `${T0 + 4 * H},Binance,AVAXUSDT,29.5`, // buy 0 (30)
  `${T0 + 5 * H},Binance,AVAXUSDT,32`, // peak 32
  `${T0 + 6 * H},Binance,AVAXUSDT,31.36`, // 32 × 0.98: sold at market
  // take-profit, then a manual stop with sale and a restart (LINKUSDT futures, leverage 5)
  `${T0},Binance,LINKUSDT,14.2`,
  `${T0 + 7 * H},Binance,LINKUSDT,13.8`, // buy 0 (14)
  `${T0 + 8 * H},Binance,LINKUSDT,14.2`, // its take-profit (14.14) fills: a cycle
  `${T0 + 9 * H},Binance,LINKUSDT,13.4`, // buys 0 and 1 (14, 13.5); the manual stop sells them at 13.4
  `${T0 + 10 * H},Binance,LINKUSDT,14.3`, // above the ladder again for the restart
  // a short (LTCUSDT futures): its rung sells at 100, its take-profit buys back at 98
  `${T0},Binance,LTCUSDT,99`,
  `${T0 + 11 * H},Binance,LTCUSDT,100.5`, // sell 0 (100)
  `${T0 + 12 * H},Binance,LTCUSDT,97.5`, // buy back (100 × 0.98)
]);

/** The figures the three screens share (the card's answer carries the same fields as the page's). */
const SHARED = ['position', 'fills', 'feesPaid', 'capitalInUse', 'capitalCommitted', 'realisedPnl', 'unrealisedPnl', 'totalPnl'] as const;

describe('the bot page, the card and the performance view read one projection (paper exchange)', () => {
  const t = useTraderApp('figures@example.com', { replay: { csv: CSV, at: T0 }, key: 'Binance' });

  async function startBot(body: Record<string, unknown>): Promise<string> {
    const created = await t.c.post('/api/bots', body);
    expect({ status: created.status, body: created.status === 201 ? null : created.body }).toEqual({ status: 201, body: null });
    const id = created.body.id as string;
    expect((await t.c.get(`/api/startBot?userId=${t.uid}&id=${id}`)).status).toBe(202);
    await until('running', async () => (await t.c.get(`/api/bot-details/${id}`)).body.botstatus === true, 30_000);
    return id;
  }
  const events = async (id: string) => (await t.c.get(`/api/bots/${id}/history`)).body as Array<{ type: string; data: Record<string, unknown> }>;

  /** What each screen reads, once the performance view has `fills` fills and the three have settled (agree, or stay apart). */
  async function screens(id: string, fills: number) {
    const read = async () => {
      const [s, o, p] = await Promise.all([t.c.get(`/api/bots/${id}/summary`), t.c.get('/api/bots-overview'), t.c.get(`/api/bots/${id}/performance`)]);
      return { page: s.body, card: (o.body as Array<{ id: string }>).find((x) => x.id === id) as Record<string, unknown>, performance: p.body };
    };
    await until(`${fills} fills on the performance view`, async () => (await read()).performance.fills === fills, 30_000);
    // the read models catch up on their own: wait for agreement, and let the assertion show what differs if it never comes
    await until('the screens agree', async () => sameFigures(await read()), 30_000).catch(() => undefined);
    return read();
  }

  const pick = (x: Record<string, unknown>) => Object.fromEntries(SHARED.map((k) => [k, x[k]]));
  const sameFigures = (s: { page: Record<string, unknown>; card: Record<string, unknown>; performance: Record<string, unknown> }) =>
    JSON.stringify([pick(s.page), pick(s.card)]) === JSON.stringify([pick(s.performance), pick(s.performance)]);

  /** Every shared figure is the same on the three screens. */
  function agree(s: Awaited<ReturnType<typeof screens>>) {
    expect({ page: pick(s.page), card: pick(s.card) }).toEqual({ page: pick(s.performance), card: pick(s.performance) });
    return s.performance as Record<(typeof SHARED)[number], number>;
  }

  it('after each buy and after a stop-loss: the position the stop-loss left, 3 fills, their fees, the loss (the issue\'s bot)', async () => {
    const id = await startBot({ exchange: 'Binance', symbol: 'BTCUSDT', botType: 'Spot', numOfOrders: 2, orderSize: '0.001', interval: 1000, entryPrice: 60000, takeProfit: 1, stopLossPrice: 57500 });
    t.venue.advanceTo(T0 + 1 * H);
    const one = agree(await screens(id, 1));
    // Binance spot takes the buy's fee in BTC: 0.000999 held, bought at 60000
    expect(one.position).toBe(0.000999);
    t.venue.advanceTo(T0 + 2 * H);
    const two = agree(await screens(id, 2));
    expect(two.position).toBe(0.001998);
    t.venue.advanceTo(T0 + 3 * H);
    await until('stopped by the stop-loss', async () => (await t.c.get(`/api/bot-details/${id}`)).body.botstatus === false, 30_000);
    const after = agree(await screens(id, 3));
    // the market sell takes whole amount steps (0.00001): 0.00199 sold, 0.000008 left; the taker fee 0.1 % in USDT
    const sellFee = 0.00199 * 57000 * 0.001;
    const heldCost = 0.000999 * 60000 + 0.000999 * 59000;
    const buyFees = 0.06 + 0.059;
    expect(after.position).toBe(0.000008);
    expect(after.fills).toBe(3);
    expect(after.feesPaid).toBeCloseTo(buyFees + sellFee, 8);
    // what is left is held at its average cost: 0.000008 × 59500
    expect(after.capitalInUse).toBeCloseTo(0.000008 * (heldCost / 0.001998), 6);
    const loss = (events: Array<{ type: string; data: Record<string, unknown> }>) => events.find((e) => e.type === 'StopLossTriggered')!.data.loss as number;
    expect(after.realisedPnl).toBe(-loss(await events(id)));
    // total: what the sale brought in less what the buys cost, plus the rest at the price now
    expect(after.totalPnl).toBeCloseTo(0.00199 * 57000 - sellFee - (heldCost + buyFees) + 0.000008 * 57000, 6);
  });

  it('after a trailing take-profit: flat, the cycle\'s profit realised on every screen', async () => {
    const id = await startBot({ exchange: 'Binance', symbol: 'AVAXUSDT', botType: 'Spot', numOfOrders: 2, orderSize: '10', interval: 1, entryPrice: 30, takeProfit: 1, trailingDeviation: 2 });
    t.venue.advanceTo(T0 + 4 * H);
    expect(agree(await screens(id, 1)).position).toBe(9.99);
    t.venue.advanceTo(T0 + 5 * H);
    await until('trailing from the peak', () => t.app.app.get(GridRunnerService).runner.task(id)?.trail?.peak === 32, 30_000);
    t.venue.advanceTo(T0 + 6 * H);
    const after = agree(await screens(id, 2));
    expect(after.position).toBe(0);
    const tp = (await events(id)).find((e) => e.type === 'TakeProfitFilled')!.data;
    expect(after.realisedPnl).toBe(tp.profit);
    expect(after.unrealisedPnl).toBe(0);
  });

  it('after a take-profit, a manual stop that sells the position, and a restart: the same figures, the sale\'s position gone and its loss realised', async () => {
    const id = await startBot({ exchange: 'Binance', symbol: 'LINKUSDT', botType: 'Futures', leverage: 5, numOfOrders: 2, orderSize: '5', interval: 0.5, entryPrice: 14, takeProfit: 1 });
    t.venue.advanceTo(T0 + 7 * H);
    expect(agree(await screens(id, 1)).position).toBe(5);
    t.venue.advanceTo(T0 + 8 * H);
    const cycle = agree(await screens(id, 2));
    expect(cycle.position).toBe(0);
    // USDⓈ-M fees: maker 0.02 %, taker 0.05 %. Bought 5 at 14 (fee 0.014), sold at 14.14 (fee 0.01414): 70.7 − 70 − 0.02814
    expect(cycle.realisedPnl).toBe(0.67186);
    t.venue.advanceTo(T0 + 9 * H);
    const held = agree(await screens(id, 4));
    expect(held.position).toBe(10);
    // the manual stop with sale: cancel all, close the position at market
    expect((await t.c.get(`/api/stopBot?userId=${t.uid}&id=${id}&cancelAllOrders=true&closePosition=true`)).status).toBe(202);
    await until('stopped', async () => (await t.c.get(`/api/bot-details/${id}`)).body.botstatus === false, 30_000);
    // issue 40: the sale is a fill of the bot. 10 sold at 13.4 at market (taker fee 134 × 0.05 % = 0.067) of what
    // cost 5 × 14 + 5 × 13.5 = 137.5 with buy fees 0.014 + 0.0135: 134 − 137.5 − 0.0275 − 0.067 = −3.5945
    const stopped = agree(await screens(id, 5));
    expect({ position: stopped.position, capitalInUse: stopped.capitalInUse, fills: stopped.fills }).toEqual({ position: 0, capitalInUse: 0, fills: 5 });
    expect(stopped.feesPaid).toBe(0.12264); // 0.014 + 0.01414 + 0.014 + 0.0135 + 0.067
    expect(stopped.realisedPnl).toBe(-2.92264); // 0.67186 − 3.5945
    expect({ total: stopped.totalPnl, unrealised: stopped.unrealisedPnl }).toEqual({ total: -2.92264, unrealised: 0 });
    // the bot list (the spec's GET /bots: its profit) says the same
    const listed = (await t.c.get(`/api/bots/${t.uid}`)).body as Array<{ id: string; profit: number }>;
    expect(listed.find((b) => b.id === id)?.profit).toBe(-2.92264);
    // the trades list has the sale, and the tax CSV its lots (Σ profit = realised: the bot holds nothing)
    const trades = (await t.c.get(`/api/bots/${id}/trades`)).body.items as Array<{ role: string; side: string; price: number; amount: number; fee: number; profit: number | null }>;
    expect(trades[0]).toMatchObject({ role: 'close', side: 'sell', price: 13.4, amount: 10, fee: 0.067, profit: -3.5945 });
    const csv = (await t.c.raw('GET', `/api/bots/${id}/trades.csv`)).text.trim().split('\r\n').map((l) => l.split(','));
    const profitAt = csv[0].indexOf('profit');
    // the cycle's lot, then the two of the sale (5 at 14 and 5 at 13.5, in the order the venue filled them), each sold at 13.4 less half the fee
    expect(csv.slice(1).map((r) => Number(r[profitAt])).sort((a, b) => a - b)).toEqual([-3.0475, -0.547, 0.67186]);
    // a restart: a fresh book; the figures carry on from the history
    t.venue.advanceTo(T0 + 10 * H);
    expect((await t.c.get(`/api/startBot?userId=${t.uid}&id=${id}`)).status).toBe(202);
    await until('running again', async () => (await t.c.get(`/api/bot-details/${id}`)).body.botstatus === true, 30_000);
    const again = agree(await screens(id, 5));
    expect(again.realisedPnl).toBe(-2.92264);
    expect(again.position).toBe(0);
  });

  it('a short: its opening order is a sell on every screen and in the trades, and the tax CSV dates the buy-back as acquired, the sell as sold (point 4)', async () => {
    const id = await startBot({ exchange: 'Binance', symbol: 'LTCUSDT', botType: 'Futures', leverage: 5, direction: 'short', numOfOrders: 2, orderSize: '0.5', interval: 2, entryPrice: 100, takeProfit: 2 });
    t.venue.advanceTo(T0 + 11 * H);
    expect(agree(await screens(id, 1)).position).toBe(-0.5);
    t.venue.advanceTo(T0 + 12 * H);
    const flat = agree(await screens(id, 2));
    expect(flat.position).toBe(0);
    const perf = (await t.c.get(`/api/bots/${id}/performance`)).body;
    expect({ direction: perf.direction, currency: perf.currency }).toEqual({ direction: 'short', currency: 'USDT' });
    const trades = (await t.c.get(`/api/bots/${id}/trades`)).body.items as Array<{ role: string; side: string; price: number; at: number; fillId: string }>;
    expect(trades.map((t) => [t.role, t.side, t.price])).toEqual([['take-profit', 'buy', 98], ['buy', 'sell', 100]]);
    const [buyBack, sold] = trades;
    const csv = await t.c.raw('GET', `/api/bots/${id}/trades.csv`);
    const [header, row] = csv.text.trim().split('\r\n').map((l) => l.split(','));
    const cell = (name: string) => row[header.indexOf(name)];
    // the coin was sold short first (the sell), acquired when the take-profit bought it back
    expect({ acquired: cell('date_acquired'), sold: cell('date_sold'), buy: cell('buy_fill_id'), sell: cell('sell_fill_id') }).toEqual({
      acquired: new Date(buyBack.at).toISOString(),
      sold: new Date(sold.at).toISOString(),
      buy: buyBack.fillId,
      sell: sold.fillId,
    });
  });

  it('the account: capital committed counts the running bots only (not one never started, not one stopped), capital in use every bot\'s (point 6)', async () => {
    // a bot never started (before the fix its ladder was in the committed capital)
    const idle = await t.c.post('/api/bots', { exchange: 'Binance', symbol: 'XRPUSDT', botType: 'Spot', numOfOrders: 3, orderSize: '10', interval: 0.1, entryPrice: 2, takeProfit: 1 });
    expect(idle.status).toBe(201);
    const [account, overview] = await Promise.all([t.c.get('/api/performance'), t.c.get('/api/bots-overview')]);
    const perBot = account.body.perBot as Array<{ id: string; running: boolean; capitalCommitted: number; capitalInUse: number }>;
    const running = perBot.filter((b) => b.running);
    expect(running.length).toBeGreaterThan(0);
    expect(perBot.find((b) => b.id === idle.body.id)).toMatchObject({ running: false, capitalCommitted: 57 }); // 10 × (2 + 1.9 + 1.8), its own
    const sum = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) * 1e8) / 1e8;
    expect(account.body).toMatchObject({ bots: perBot.length, botsRunning: running.length, currency: 'USDT' });
    expect(account.body.capitalCommitted).toBe(sum(running.map((b) => b.capitalCommitted)));
    // the bots page's strip adds the cards' capital in use: the same figure as the account's
    expect(account.body.capitalInUse).toBe(sum((overview.body as Array<{ capitalInUse: number }>).map((o) => o.capitalInUse)));
    expect(account.body.capitalInUse).toBe(sum(perBot.map((b) => b.capitalInUse)));
  });
});
