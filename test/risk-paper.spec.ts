/**
 * Risk controls and grid styles (issue 14) end to end on the paper exchange with a replayed price CSV:
 * the real Nest app (embedded runner), bots created and started over HTTP with the optional settings,
 * the test moving the venue's feed one row at a time. One symbol per story (the feed is shared).
 */
import { buyOrderId, stopLossOrderId, takeProfitOrderId } from '@gridrocket/trading';
import { GridRunnerService } from '@gridrocket/trading/nest';
import { until } from '@gridrocket/shared/testing/until';
import type { Client } from './support/http-client';
import { signUpTrader, usePaperReplay } from './support/trader-app';
import { H, T0, replayCsv } from './support/replay-csv';
import { readEventFile } from './support/event-file';

jest.setTimeout(90_000);

const CSV = replayCsv([
  // stop-loss (BTCUSDT spot): three buys fill, then the price falls through the stop level
  `${T0},Binance,BTCUSDT,61000`,
  `${T0 + 1 * H},Binance,BTCUSDT,59500`, // buy 0 (60000)
  `${T0 + 2 * H},Binance,BTCUSDT,58500`, // buy 1 (59000)
  `${T0 + 3 * H},Binance,BTCUSDT,57500`, // buy 2 (58000): average 59000, stop level 59000 × 0.95 = 56050
  `${T0 + 4 * H},Binance,BTCUSDT,56000`, // stop-loss: sold at market at 56000
  // trailing take-profit (ETHUSDT spot, deviation 2 %)
  `${T0},Binance,AVAXUSDT,30.5`,
  `${T0 + 5 * H},Binance,AVAXUSDT,29.5`, // buy 0 (30): take-profit level 30.3, nothing rests
  `${T0 + 6 * H},Binance,AVAXUSDT,31`, // trailing from 31
  `${T0 + 7 * H},Binance,AVAXUSDT,32`, // peak 32: sells at 31.36
  `${T0 + 8 * H},Binance,AVAXUSDT,31.5`, // not yet
  `${T0 + 9 * H},Binance,AVAXUSDT,31.36`, // 32 × 0.98: sold at market
  // follow (SOLUSDT spot): a rally before any buy fills
  `${T0},Binance,SOLUSDT,141`,
  `${T0 + 10 * H},Binance,SOLUSDT,146`, // 146 > 140 + 5: re-anchored at 146
  // futures stop-loss (LINKUSDT futures, leverage 5): three buys (average 13.5, stop level 12.82), then 12.5
  `${T0},Binance,LINKUSDT,14.2`,
  `${T0 + 11 * H},Binance,LINKUSDT,13.8`,
  `${T0 + 12 * H},Binance,LINKUSDT,13.3`,
  `${T0 + 13 * H},Binance,LINKUSDT,12.9`,
  `${T0 + 14 * H},Binance,LINKUSDT,12.5`, // (the feed's clock is shared: this story runs after those above)
  // geometric spacing with scaling (LTCUSDT spot)
  `${T0},Binance,LTCUSDT,101`,
]);

describe('risk controls on the paper exchange (replayed CSV)', () => {
  const paper = usePaperReplay(CSV, T0);

  // a start needs a key, in paper mode too
  const user = (email: string) => signUpTrader(paper.app.url, email, { key: 'Binance' });
  async function open(uid: string, market: 'spot' | 'futures', symbol: string) {
    const port = await paper.provider.for({ userId: uid, exchange: 'Binance', market });
    return (await port.openOrders(symbol)).map((o) => ({ side: o.side, id: o.clientOrderId, price: o.price, amount: o.amount }));
  }
  async function startBot(c: Client, uid: string, body: Record<string, unknown>) {
    const created = await c.post('/api/bots', body);
    expect({ status: created.status, body: created.status === 201 ? null : created.body }).toEqual({ status: 201, body: null });
    const id = created.body.id as string;
    expect((await c.get(`/api/startBot?userId=${uid}&id=${id}`)).status).toBe(202);
    return id;
  }
  const details = async (c: Client, id: string) => (await c.get(`/api/bot-details/${id}`)).body;
  const events = (id: string) => readEventFile(paper.app.dataDir, (store) => store.readStream(`bot-${id}`));
  const task = (id: string) => paper.app.app.get(GridRunnerService).runner.task(id);

  it('stop-loss: the ladder is cancelled, the coins are sold at market, the loss to the cent, the bot stopped with the reason', async () => {
    const { c, uid } = await user('stoploss@example.com');
    const id = await startBot(c, uid, {
      exchange: 'Binance', symbol: 'BTCUSDT', botType: 'Spot', numOfOrders: 3, orderSize: '0.01', interval: 1000, entryPrice: 60000, takeProfit: 1, stopLossPercent: 5,
    });
    await until('running', async () => (await details(c, id)).botstatus === true, 30_000);
    for (const [k, sells] of [[1, 1], [2, 1], [3, 1]] as const) {
      paper.venue.advanceTo(T0 + k * H);
      await until(`buy ${k} filled`, async () => (await open(uid, 'spot', 'BTCUSDT')).filter((o) => o.side === 'buy').length === 3 - k && (await open(uid, 'spot', 'BTCUSDT')).filter((o) => o.side === 'sell').length === sells, 30_000);
    }
    paper.venue.advanceTo(T0 + 4 * H); // 56000 ≤ 56050
    const d = await until('stopped by the stop-loss', async () => {
      const x = await details(c, id);
      return x.botstatus === false && x.lasterror && x;
    }, 30_000);
    // Binance spot: buys leave 0.00999 each (fee in BTC); the market sell pays the 0.1 % taker fee.
    const held = 0.02997;
    const cost = 0.00999 * (60000 + 59000 + 58000);
    const buyFees = 0.6 + 0.59 + 0.58;
    const loss = cost + buyFees + held * 56000 * 0.001 - held * 56000; // 93.35832
    expect(d.lasterror).toBe(`Stop-loss triggered at 56000 (stop level 56050): the position was sold at market, loss ${Math.round(loss * 1e8) / 1e8} USDT`);
    expect(Math.round(d.profit * 100)).toBe(Math.round(-loss * 100)); // −93.36
    expect(await open(uid, 'spot', 'BTCUSDT')).toEqual([]); // ladder and take-profit cancelled
    const port = await paper.provider.for({ userId: uid, exchange: 'Binance', market: 'spot' });
    expect((await port.balances()).find((b) => b.symbol === 'BTC')?.balance ?? 0).toBeLessThan(0.00001); // nothing held
    const history = await events(id);
    const triggered = history.filter((e) => e.type === 'StopLossTriggered');
    expect(triggered).toHaveLength(1);
    expect((triggered[0].data as { loss: number }).loss).toBeCloseTo(loss, 6);
    expect(history.filter((e) => e.type === 'StopLossStarted')).toHaveLength(1);
    expect(history[history.length - 1].type).toBe('BotFailed');
  });

  it('trailing take-profit: nothing rests at the take-profit level, the peak is followed, sold at peak × (1 − deviation)', async () => {
    const { c, uid } = await user('trailing@example.com');
    const id = await startBot(c, uid, {
      exchange: 'Binance', symbol: 'AVAXUSDT', botType: 'Spot', numOfOrders: 2, orderSize: '10', interval: 1, entryPrice: 30, takeProfit: 1, trailingDeviation: 2,
    });
    await until('running', async () => (await details(c, id)).botstatus === true, 30_000);
    paper.venue.advanceTo(T0 + 5 * H);
    await until('buy 0 filled, no take-profit resting', async () => {
      const o = await open(uid, 'spot', 'AVAXUSDT');
      return o.length === 1 && o[0].side === 'buy' && o[0].price === 29 && task(id)?.state.position.amount === 9.99;
    }, 30_000);
    paper.venue.advanceTo(T0 + 6 * H);
    await until('trailing from 31', () => task(id)?.trail?.peak === 31, 30_000);
    paper.venue.advanceTo(T0 + 7 * H);
    await until('peak 32', () => task(id)?.trail?.peak === 32, 30_000);
    paper.venue.advanceTo(T0 + 8 * H);
    await new Promise((r) => setTimeout(r, 300));
    expect((await events(id)).some((e) => e.type === 'TakeProfitFilled')).toBe(false);
    paper.venue.advanceTo(T0 + 9 * H);
    const sold = await until('sold', async () => (await events(id)).find((e) => e.type === 'TakeProfitFilled'), 30_000);
    const s = sold.data as { price: number; amount: number; profit: number };
    expect(s.price).toBe(31.36); // 32 × (1 − 0.02)
    expect(s.amount).toBe(9.99); // the 10 bought less the 0.1 % fee Binance took in AVAX
    // 9.99 × 31.36 − 9.99 × 30 − buy fee 0.3 − taker fee 0.1 % of 313.2864
    expect(s.profit).toBeCloseTo(9.99 * 31.36 - 9.99 * 30 - 0.3 - 9.99 * 31.36 * 0.001, 6);
    await until('next cycle re-armed', async () => (await open(uid, 'spot', 'AVAXUSDT')).filter((o) => o.side === 'buy').length === 2, 30_000);
    expect((await details(c, id)).botstatus).toBe(true);
  });

  it('follow: a rally before any buy re-anchors the ladder at the market', async () => {
    const { c, uid } = await user('follow@example.com');
    const id = await startBot(c, uid, {
      exchange: 'Binance', symbol: 'SOLUSDT', botType: 'Spot', numOfOrders: 3, orderSize: '1', interval: 5, entryPrice: 140, takeProfit: 1, reanchor: 'follow',
    });
    await until('running', async () => (await details(c, id)).botstatus === true, 30_000);
    expect((await open(uid, 'spot', 'SOLUSDT')).map((o) => o.price).sort()).toEqual([130, 135, 140]);
    paper.venue.advanceTo(T0 + 10 * H);
    const moved = await until('re-anchored', async () => (await events(id)).find((e) => e.type === 'GridReanchored'), 30_000);
    expect(moved.data).toMatchObject({ from: 140, to: 146, cycle: 2 });
    // As 3Commas starts a deal at market: the first rung of the new ladder is at the market and fills at once
    // (1 SOL less the 0.1 % fee in SOL), the others wait 5 and 10 below it, the take-profit covers what was bought.
    await until('ladder at the market', async () => {
      const o = await open(uid, 'spot', 'SOLUSDT');
      return (
        JSON.stringify(o.map((x) => [x.side, x.id, x.price, x.amount]).sort()) ===
        JSON.stringify([['buy', buyOrderId(id, 2, 1), 141, 1], ['buy', buyOrderId(id, 2, 2), 136, 1], ['sell', takeProfitOrderId(id, 2, 1), 147.46, 0.999]].sort())
      );
    }, 30_000);
    const filled = (await events(id)).filter((e) => e.type === 'OrderFilled').map((e) => e.data as { clientOrderId: string; price: number });
    expect(filled.map((f) => [f.clientOrderId, f.price])).toEqual([[buyOrderId(id, 2, 0), 146]]);
    expect((await events(id)).filter((e) => e.type === 'GridReanchored')).toHaveLength(1);
  });

  it('futures stop-loss: a reduce-only market close of the position, the loss to the cent from the fills, nothing left open', async () => {
    const { c, uid } = await user('futures-stoploss@example.com');
    const id = await startBot(c, uid, {
      exchange: 'Binance', symbol: 'LINKUSDT', botType: 'Futures', leverage: 5, numOfOrders: 3, orderSize: '5', interval: 0.5, entryPrice: 14, takeProfit: 1, stopLossPercent: 5,
    });
    await until('running', async () => (await details(c, id)).botstatus === true, 30_000);
    for (const k of [1, 2, 3]) {
      paper.venue.advanceTo(T0 + (10 + k) * H);
      await until(`buy ${k} filled`, async () => (await events(id)).filter((e) => e.type === 'OrderFilled').length === k, 30_000);
    }
    paper.venue.advanceTo(T0 + 14 * H); // 12.5 ≤ 12.82
    const d = await until('stopped by the stop-loss', async () => {
      const x = await details(c, id);
      return x.botstatus === false && x.lasterror && x;
    }, 30_000);
    const history = await events(id);
    const buys = history.filter((e) => e.type === 'OrderFilled').map((e) => e.data as { price: number; amount: number; fee: number });
    const sell = history.filter((e) => e.type === 'StopLossTriggered').map((e) => e.data as { price: number; amount: number; fee: number; loss: number });
    expect(sell).toHaveLength(1);
    expect(sell[0]).toMatchObject({ price: 12.5, amount: 15 });
    // 5 × (14 + 13.5 + 13) − 15 × 12.5 + the buys' maker fees + the close's taker fee (0.02 % / 0.05 % on Binance USDⓈ-M)
    const loss = 5 * (14 + 13.5 + 13) - 15 * 12.5 + buys.reduce((s, b) => s + b.fee, 0) + sell[0].fee;
    expect(sell[0].fee).toBeCloseTo(15 * 12.5 * 0.0005, 8);
    expect(Math.round(sell[0].loss * 100)).toBe(Math.round(loss * 100)); // 15.08
    expect(d.lasterror).toBe(`Stop-loss triggered at 12.5 (stop level 12.82): the position was sold at market, loss ${Math.round(loss * 1e8) / 1e8} USDT`);
    const port = await paper.provider.for({ userId: uid, exchange: 'Binance', market: 'futures' });
    expect(port.position('LINKUSDT').qty).toBe(0); // closed, reduce-only
    expect(await open(uid, 'futures', 'LINKUSDT')).toEqual([]);
    const closeOrder = await port.orderByClientId('LINKUSDT', stopLossOrderId(id, 1));
    expect(closeOrder).toMatchObject({ side: 'sell', reduceOnly: true, status: 'filled', amount: 15 });
  });

  it('geometric spacing with scaling: every rung at interval % below the previous, each size × the factor', async () => {
    const { c, uid } = await user('geometric@example.com');
    const id = await startBot(c, uid, {
      exchange: 'Binance', symbol: 'LTCUSDT', botType: 'Spot', numOfOrders: 4, orderSize: '0.1', interval: 2, entryPrice: 100, takeProfit: 1, spacing: 'percent', sizeScale: 1.5,
    });
    await until('running', async () => (await details(c, id)).botstatus === true, 30_000);
    const o = (await open(uid, 'spot', 'LTCUSDT')).sort((a, b) => b.price - a.price);
    // 100 × 0.98^i rounded down to 0.01; 0.1 × 1.5^i rounded down to 0.001
    expect(o.map((x) => [x.price, x.amount])).toEqual([
      [100, 0.1],
      [98, 0.15],
      [96.04, 0.225],
      [94.11, 0.337],
    ]);
  });

  it('futures: a start whose ladder would be liquidated before its last rung fills is refused with the reason', async () => {
    const { c, uid } = await user('liquidation@example.com');
    const id = await startBot(c, uid, {
      exchange: 'Binance', symbol: 'BTCUSDT', botType: 'Futures', leverage: 50, numOfOrders: 3, orderSize: '0.01', interval: 2000, entryPrice: 60000, takeProfit: 1,
      confirmAboveMarket: true, // the shared feed is at 56000 since the stop-loss story: the entry is above the market (issue 29)
    });
    const d = await until('refused', async () => {
      const x = await details(c, id);
      return x.lasterror && x;
    }, 30_000);
    expect(d.botstatus).toBe(false);
    // (600 − 12) ÷ (0.01 × (1 − 0.004)) = 59036.14…: above order 2 at 58000
    expect(d.lasterror).toBe('At leverage 50 the position of orders 1 to 1 would be liquidated at 59036.14457831, before order 2 of 3 at 58000 fills: lower the leverage or narrow the ladder');
    expect(await open(uid, 'futures', 'BTCUSDT')).toEqual([]);
    // the API shows the full ladder's liquidation price: 0.03 at 58000 with 34.8 of margin → 1705.2 ÷ (0.03 × 0.996)
    const chart = await c.get(`/api/bots/${id}/chart`);
    expect(chart.status).toBe(200);
    expect(chart.body.risk.liquidation).toBeCloseTo(1705.2 / (0.03 * 0.996), 6);
  });

  it('the API: risk settings are shown when set, absent for a spec bot, and bad ones are refused field by field', async () => {
    const { c, uid } = await user('api@example.com');
    const base = { exchange: 'Binance', symbol: 'XRPUSDT', botType: 'Spot', numOfOrders: 3, orderSize: '10', interval: 0.1, entryPrice: 2, takeProfit: 1 };
    const spec = await c.post('/api/bots', base);
    expect(spec.status).toBe(201);
    const plain = await details(c, spec.body.id);
    for (const k of ['spacing', 'sizescale', 'stoplosspercent', 'stoplossprice', 'trailingdeviation', 'reanchor', 'reanchorlimit']) expect(plain).not.toHaveProperty(k);
    const rich = await c.post('/api/bots', { ...base, spacing: 'percent', interval: 5, sizeScale: '1.5', stopLossPercent: 8, trailingDeviation: '0.5', reanchor: 'follow', reanchorLimit: 3 });
    expect({ status: rich.status, body: rich.status === 201 ? null : rich.body }).toEqual({ status: 201, body: null });
    expect(await details(c, rich.body.id)).toMatchObject({ spacing: 'percent', sizescale: 1.5, stoplosspercent: 8, trailingdeviation: 0.5, reanchor: 'follow', reanchorlimit: 3 });
    const risk = (await c.get(`/api/bots/${rich.body.id}/chart`)).body.risk;
    // before any buy: the stop level is 8 % below the full ladder's average (2, 1.9, 1.805 weighted 10, 15, 22.5)
    const avg = (2 * 10 + 1.9 * 15 + 1.805 * 22.5) / 47.5;
    expect(risk.stopLoss).toBe(Math.floor(avg * 0.92 * 100) / 100);
    expect(risk.trailing).toEqual({ activation: 2.02, deviation: 0.5, stop: 2.00 });
    const bad = await c.post('/api/bots', { ...base, stopLossPercent: 150, sizeScale: 0.5, spacing: 'log', reanchor: 'up', trailingDeviation: -1 });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['reanchor', 'sizeScale', 'spacing', 'stopLossPercent', 'trailingDeviation']);
    // an edit sets a setting, keeps the others, and '' turns one off
    const { symbol: _s, botType: _b, ...editBase } = base;
    const edited = await c.put(`/api/bots/${rich.body.id}`, { ...editBase, spacing: 'percent', interval: 5, stopLossPercent: '', stopLossPrice: 1.5 });
    expect(edited.status).toBe(200);
    const after = await details(c, rich.body.id);
    expect(after).toMatchObject({ spacing: 'percent', sizescale: 1.5, stoplossprice: 1.5, trailingdeviation: 0.5, reanchor: 'follow' });
    expect(after).not.toHaveProperty('stoplosspercent');
    // a spec edit (no advanced field) keeps the settings as they were
    expect((await c.put(`/api/bots/${rich.body.id}`, { ...editBase, interval: 5 })).status).toBe(200);
    expect(await details(c, rich.body.id)).toMatchObject({ spacing: 'percent', stoplossprice: 1.5, trailingdeviation: 0.5 });
    const above = await c.post('/api/bots', { ...base, stopLossPrice: 2.5 });
    expect(above.status).toBe(400);
    expect(above.body.errors).toEqual([{ field: 'stopLossPrice', message: 'stopLossPrice must be below the entry price' }]);
    void uid;
  });
});
