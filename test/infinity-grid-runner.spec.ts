/**
 * The infinity spot grid (issue 32) traded by the app's own runner on the paper exchange: the example of
 * test/support/infinity-example.ts (worked out by hand there and in libs/trading/src/grid/infinity.paper.spec.ts)
 * replayed as PAPER_PRICES, a bot created, started and stopped through the API. The venue's fills, fees and
 * balances, the bot's profit and its history are the hand-computed ones, the infinity backtest of the same
 * candles agrees to the cent, and a stop with closePosition sells the coin at market.
 */
import type { MarketRules } from '@gridrocket/trading/grid';
import { infinityDesiredOrders, infinityInitialState, processInfinityFill, type InfinityState } from '@gridrocket/trading/styles/infinity';
import { engineBotId, toEngineFill } from '@gridrocket/trading';
import { paperTerms, runInfinityBacktest, toSeries } from '@gridrocket/backtest';
import { until } from '@gridrocket/shared/testing/until';
import { candleRows, expectRecordedProfit, expectVenueFills, paperTrader, usePaperApp } from './support/paper-app';
import { candles, EXPECTED_FEES, EXPECTED_FILLS, EXPECTED_HELD, EXPECTED_PROFIT, H, INFINITY, LTC, SYMBOL, T0 } from './support/infinity-example';

jest.setTimeout(180_000);

const body = { style: 'infinity', exchange: 'Binance', symbol: SYMBOL, botType: 'Spot', entryPrice: 100, stepPercent: 2, quoteValue: 20, lowerPrice: 95, initialQuote: 100 };

describe('an infinity spot grid run by the app on the paper exchange', () => {
  const paper = usePaperApp(candleRows(candles, 'Binance', SYMBOL, H), T0);

  it('buys at the start, sells a step up and buys a step down, none below the lower price: the hand-computed fills, fees, balances, profit and history; the backtest agrees; a stop sells the coin', async () => {
    const { venue, provider, c, uid } = await paperTrader(paper, 'infinity-runner@example.com');
    // an infinity grid trades spot only; a ladder field in its body is refused; a step below the market's minimum order is refused
    const futures = await c.post('/api/bots', { ...body, botType: 'Futures' });
    expect(futures.status).toBe(400);
    expect(futures.body.errors).toEqual([{ field: 'botType', message: 'style infinity applies to spot bots only: an infinity grid sells and buys the coin itself' }]);
    const ladderField = await c.post('/api/bots', { ...body, numOfOrders: 3 });
    expect(ladderField.status).toBe(400);
    expect(ladderField.body.errors.map((e: { field: string }) => e.field)).toEqual(['numOfOrders']);
    // 4 USDT a step: ⌊4 ÷ 102⌋ = 0.039 LTC at the first sell, 3.978 USDT < the minimum order of 5
    const small = await c.post('/api/bots', { ...body, quoteValue: 4 });
    expect(small.status).toBe(400);
    expect(small.body.errors).toEqual([{ field: 'quoteValue', message: "A step of 4 USDT at 102 (0.039 coin) is below the market's minimum order (value 5, amount 0.001)" }]);
    expect((await c.get(`/api/bots/${uid}`)).body).toEqual([]);

    const created = await c.post('/api/bots', body);
    expect(created.status).toBe(201);
    // the view: its style and settings; the ladder's fields 0 (no ladder), the entry its start
    expect(created.body).toMatchObject({ style: 'infinity', steppercent: 2, quotevalue: 20, lowerprice: 95, initialquote: 100, numoforders: 0, ordersize: 0, interval: 0, takeprofit: 0, entryprice: 100, bottype: 'Spot' });
    const id = created.body.id as string;
    // its settings are its own: an edit is refused
    const edit = await c.put(`/api/bots/${id}`, { exchange: 'Binance', numOfOrders: 2, orderSize: 0.5, interval: 2, entryPrice: 90, takeProfit: 2 });
    expect(edit.status).toBe(400);
    expect(edit.body.errors).toEqual([{ field: 'style', message: 'An infinity bot cannot be edited yet: stop it, delete it and create a new one' }]);

    const port = await provider.for({ userId: uid, exchange: 'Binance', market: 'spot' });
    const usdt = async () => (await port.balances()).find((b) => b.symbol === 'USDT')?.balance ?? 0;
    const ltc = async () => (await port.balances()).find((b) => b.symbol === 'LTC')?.balance ?? 0;
    const usdtBefore = await usdt();
    expect((await c.get(`/api/startBot?userId=${uid}&id=${id}`)).status).toBe(202);
    const r = await port.marketRules(SYMBOL);
    const rules: MarketRules = { priceStep: r.priceStep, amountStep: r.amountStep, minNotional: r.minNotional, minAmount: r.minAmount || undefined };
    await until('running', async () => (await c.get(`/api/bot-details/${id}`)).body.botstatus === true, 30_000);

    // converged: what rests on the venue is what the engine wants after the venue's fills
    const show = (o: { side: string; price: number; amount: number }) => `${o.side} ${o.price} ${o.amount}`;
    const engine = async (): Promise<InfinityState> => {
      let s = infinityInitialState(INFINITY, rules, engineBotId(id));
      for (const f of await port.recentFills(SYMBOL, 0)) s = processInfinityFill(INFINITY, rules, s, toEngineFill(f, 'LTC')).state;
      return s;
    };
    const converged = async () => {
      const want = infinityDesiredOrders(rules, await engine()).map((o) => `${o.clientOrderId} ${show(o)}`).sort();
      const open = (await port.openOrders(SYMBOL)).map((o) => `${o.clientOrderId} ${show(o)}`).sort();
      return JSON.stringify(want) === JSON.stringify(open);
    };
    await until('converged at start', converged, 30_000);
    // the start: the initial buy alone, ⌊100 ÷ 100⌋ = 1 LTC at 100, its id gr-<h>-1-ini
    const start = await port.openOrders(SYMBOL);
    expect(start.map(show)).toEqual(['buy 100 1']);
    expect(start[0].clientOrderId).toMatch(/^gr-[0-9a-z]{8}-1-ini$/);
    for (let k = 1; k < LTC.length * 4; k++) {
      venue.advanceTo(T0 + k * H);
      await until(`converged after print ${k}`, converged, 30_000);
      // the bot holds what the account holds (the buys' net amounts less the sells)
      expect(Math.abs((await engine()).position.amount - (await ltc()))).toBeLessThan(1e-9);
      // print 13 is the low 94: the buy at 95.55 filled, the next (93.63) would be below 95: only the sell rests
      if (k === 13) expect((await port.openOrders(SYMBOL)).map(show)).toEqual(['sell 97.47 0.205']);
    }

    await expectVenueFills(port, SYMBOL, EXPECTED_FILLS, EXPECTED_FEES);
    // the venue: 1.009387 LTC held; one step either side of the last trade (99.6): sell 101.6 for ⌊20 ÷ 101.6⌋ = 0.196, buy 97.6 for ⌊20 ÷ 97.6⌋ = 0.204
    expect(await ltc()).toBeCloseTo(EXPECTED_HELD, 9);
    expect((await port.openOrders(SYMBOL)).map(show).sort()).toEqual(['buy 97.6 0.204', 'sell 101.6 0.196']);
    // USDT: buys 100 + 19.992 + 19.89 + 19.96995 = 159.85195 paid; sells 19.992 − 0.019992 + 19.98135 − 0.01998135
    // + 20.0196 − 0.0200196 = 59.93295705 received: −99.91899295
    expect((await usdt()) - usdtBefore).toBeCloseTo(-99.91899295, 8);

    // the bot's profit: 0.35238838 − 0.34942107 + 0.08509877
    const profit = await expectRecordedProfit(c, id, EXPECTED_PROFIT);
    // its history: each buy an OrderFilled, each sell a TakeProfitFilled with what it realised (a loss below the average cost)
    const history = (await c.get(`/api/bots/${id}/history?limit=500`)).body as { items?: Array<{ type: string; data: Record<string, unknown> }> } | Array<{ type: string; data: Record<string, unknown> }>;
    const events = Array.isArray(history) ? history : history.items ?? [];
    const fillsSeen = events.filter((e) => e.type === 'OrderFilled' || e.type === 'TakeProfitFilled').map((e) => `${e.data.side} ${e.data.price}${e.type === 'TakeProfitFilled' ? ` profit ${e.data.profit}` : ''}`);
    expect(fillsSeen).toEqual(['buy 100', 'sell 102 profit 0.35238838', 'buy 99.96', 'buy 97.5', 'buy 95.55', 'sell 97.47 profit -0.34942107', 'sell 99.6 profit 0.08509877']);

    // the backtest of the same candles: the same fills, fees, coin held and profit to the cent
    const terms = paperTerms({ exchange: 'Binance', market: 'spot', symbol: SYMBOL });
    const bt = runInfinityBacktest(toSeries(candles), { ...terms, config: INFINITY, rules, recordFills: true });
    expect(bt.fillLog!.map((f) => `${f.side} ${f.price} ${f.amount} fee ${f.fee}`)).toEqual(EXPECTED_FILLS);
    expect(Math.round(bt.profit * 100)).toBe(Math.round(profit * 100));
    expect(bt.position.amount).toBe(EXPECTED_HELD);

    // a stop with cancel-all and close-position: the two orders go, ⌊1.009387⌋ = 1.009 LTC sold at market (the last print 99.5)
    expect((await c.get(`/api/stopBot?userId=${uid}&id=${id}&cancelAllOrders=true&closePosition=true`)).status).toBe(202);
    await until('stopped', async () => (await c.get(`/api/bot-details/${id}`)).body.botstatus === false, 30_000);
    expect(await port.openOrders(SYMBOL)).toEqual([]);
    const close = (await port.recentFills(SYMBOL, 0)).slice(EXPECTED_FILLS.length);
    // 1.009 × 99.5 = 100.3955, taker 0.1 %: 0.1003955 USDT
    expect(close.map((f) => `${f.side} ${f.price} ${f.amount} fee ${f.fee}`)).toEqual(['sell 99.5 1.009 fee 0.1003955']);
    // left: 1.009387 − 1.009 = 0.000387 LTC (below the amount step); USDT −99.91899295 + 100.3955 − 0.1003955 = +0.37611155
    expect(await ltc()).toBeCloseTo(0.000387, 9);
    expect((await usdt()) - usdtBefore).toBeCloseTo(0.37611155, 8);

    // a start whose buys the account cannot pay is refused: an initial buy of ⌊1,000,000 ÷ 100⌋ = 10,000 LTC at 100
    // = 1,000,000 USDT plus its maker fee of 0.1 % (1,000) = 1,001,000 USDT, more than the paper account holds
    const big = await c.post('/api/bots', { ...body, initialQuote: 1_000_000 });
    expect(big.status).toBe(201);
    expect((await c.get(`/api/startBot?userId=${uid}&id=${big.body.id}`)).status).toBe(202);
    const failed = await until('start refused', async () => {
      const d = (await c.get(`/api/bot-details/${big.body.id}`)).body;
      return d.state === 'stopped' && d.lasterror ? d : null;
    }, 30_000);
    expect(failed.lasterror).toMatch(/^Insufficient balance: the infinity grid needs 1001000 USDT but only [0-9.]+ USDT is available on Binance spot \(its buys 1000000 USDT plus 1000 USDT of fees\)$/);
    expect(await port.openOrders(SYMBOL)).toEqual([]);
  });
});
