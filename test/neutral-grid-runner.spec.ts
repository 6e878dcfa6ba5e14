/**
 * The neutral futures grid (issue 32) traded by the app's own runner on the paper exchange: the example
 * of test/support/neutral-example.ts (worked out by hand there) replayed as PAPER_PRICES, a bot created,
 * started and stopped through the API. The venue's fills, fees and position, the bot's profit and its
 * history are the hand-computed ones, and the neutral backtest of the same candles agrees to the cent.
 */
import type { MarketRules } from '@gridrocket/trading/grid';
import { applyNeutralFills, initialNeutralState, neutralDesiredOrders } from '@gridrocket/trading/styles/neutral';
import { engineBotId, toEngineFill } from '@gridrocket/trading';
import { paperTerms, runNeutralBacktest } from '@gridrocket/backtest';
import { until } from '@gridrocket/shared/testing/until';
import { candleRows, expectRecordedProfit, expectVenueFills, paperTrader, usePaperApp } from './support/paper-app';
import { candles, EXPECTED_FEES, EXPECTED_FILLS, EXPECTED_PROFIT, H, LTC, NEUTRAL, SYMBOL, T0 } from './support/neutral-example';

jest.setTimeout(180_000);

const body = { exchange: 'Binance', symbol: SYMBOL, botType: 'Futures', numOfOrders: 2, orderSize: 0.5, interval: 2, entryPrice: 92, takeProfit: 1, leverage: 5, direction: 'neutral' };

describe('a neutral futures grid run by the app on the paper exchange', () => {
  const paper = usePaperApp(candleRows(candles, 'Binance', SYMBOL, H), T0);

  it('buys below and sells above the reference, each fill answered one line away, the closes reduce-only: the hand-computed fills, fees, position, profit and history; the backtest agrees; a stop closes the position', async () => {
    const { venue, provider, c, uid } = await paperTrader(paper, 'neutral-runner@example.com');
    // a spot bot cannot be neutral; the short side's stop must lie above the highest sell (92 + 2 × 2 = 96)
    const spot = await c.post('/api/bots', { ...body, botType: 'Spot', leverage: 1 });
    expect(spot.status).toBe(400);
    expect(spot.body.errors).toEqual([{ field: 'direction', message: 'direction neutral applies to futures bots only: a spot bot buys its ladder (long)' }]);
    const badStop = await c.post('/api/bots', { ...body, stopLossPriceAbove: 95 });
    expect(badStop.status).toBe(400);
    expect(badStop.body.errors).toEqual([{ field: 'stopLossPriceAbove', message: "stopLossPriceAbove must be above the neutral grid's highest sell (96)" }]);
    expect((await c.get(`/api/bots/${uid}`)).body).toEqual([]);

    const created = await c.post('/api/bots', body);
    expect(created.status).toBe(201);
    expect(created.body.direction).toBe('neutral');
    const id = created.body.id as string;
    expect((await c.get(`/api/startBot?userId=${uid}&id=${id}`)).status).toBe(202);
    const port = await provider.for({ userId: uid, exchange: 'Binance', market: 'futures' });
    const rules: MarketRules = await port.marketRules(SYMBOL);
    await until('running', async () => (await c.get(`/api/bot-details/${id}`)).body.botstatus === true, 30_000);

    // converged: what rests on the venue is what the engine wants after the venue's fills
    const show = (o: { side: string; price: number; amount: number; reduceOnly?: boolean }) => `${o.side} ${o.price} ${o.amount}${o.reduceOnly ? ' reduce-only' : ''}`;
    const converged = async () => {
      const fills = await port.recentFills(SYMBOL, 0);
      const state = applyNeutralFills(initialNeutralState(NEUTRAL, rules, engineBotId(id)), fills.map((f) => toEngineFill(f)));
      const want = neutralDesiredOrders(rules, state).map((o) => `${o.clientOrderId} ${show(o)}`).sort();
      const open = (await port.openOrders(SYMBOL)).map((o) => `${o.clientOrderId} ${show(o)}`).sort();
      return JSON.stringify(want) === JSON.stringify(open);
    };
    await until('converged at start', converged, 30_000);
    expect((await port.openOrders(SYMBOL)).map(show).sort()).toEqual(['buy 88 0.5', 'buy 90 0.5', 'sell 94 0.5', 'sell 96 0.5']);
    for (let k = 1; k < LTC.length * 4; k++) {
      venue.advanceTo(T0 + k * H);
      await until(`converged after print ${k}`, converged, 30_000);
    }

    await expectVenueFills(port, SYMBOL, EXPECTED_FILLS, EXPECTED_FEES);
    // the venue: long 1 at 89; the sells at 90 and 92 close it reduce-only, 94 and 96 would open a short
    expect((await port.positions(SYMBOL)).map((p) => [p.amount, p.entryPrice])).toEqual([[1, 89]]);
    expect((await port.openOrders(SYMBOL)).map(show).sort()).toEqual(['sell 90 0.5 reduce-only', 'sell 92 0.5 reduce-only', 'sell 94 0.5', 'sell 96 0.5']);

    // the bot's profit: the three completed pairs, 0.9818 + 0.981 + 0.9814
    const profit = await expectRecordedProfit(c, id, EXPECTED_PROFIT);
    // its history: each opening fill an OrderFilled, each closing one a TakeProfitFilled with its pair's profit
    // (the runner records a round's fills with what it placed, in one append after the venue took the orders)
    const fillsSeen = await until('the eight fills in the history', async () => {
      const history = (await c.get(`/api/bots/${id}/history?limit=500`)).body as { items?: Array<{ type: string; data: Record<string, unknown> }> } | Array<{ type: string; data: Record<string, unknown> }>;
      const events = Array.isArray(history) ? history : history.items ?? [];
      const seen = events.filter((e) => e.type === 'OrderFilled' || e.type === 'TakeProfitFilled').map((e) => `${e.type === 'OrderFilled' ? 'opens' : 'closes'} ${e.data.side} ${e.data.price}${e.type === 'TakeProfitFilled' ? ` profit ${e.data.profit}` : ''}`);
      return seen.length >= EXPECTED_FILLS.length ? seen : null;
    }, 30_000);
    expect(fillsSeen).toEqual(['opens buy 90', 'closes sell 92 profit 0.9818', 'opens sell 94', 'opens sell 96', 'closes buy 94 profit 0.981', 'closes buy 92 profit 0.9814', 'opens buy 88', 'opens buy 90']);

    // the backtest of the same candles: the same fills, fees and profit to the cent
    const terms = paperTerms({ exchange: 'Binance', market: 'futures', symbol: SYMBOL });
    const bt = runNeutralBacktest(candles, { config: NEUTRAL, rules: terms.rules, feeBps: terms.feeBps, takerFeeBps: terms.takerFeeBps, crossingFill: terms.crossingFill });
    expect(bt.fills.map((f) => `${f.side} ${f.price} ${f.amount} fee ${f.fee}`)).toEqual(EXPECTED_FILLS);
    expect(Math.round(bt.profit * 100)).toBe(Math.round(profit * 100));
    expect(bt.position).toBe(1);

    // a stop with cancel-all and close-position: the orders go, the long of 1 is sold at market (the last close 88.5), reduce-only
    expect((await c.get(`/api/stopBot?userId=${uid}&id=${id}&cancelAllOrders=true&closePosition=true`)).status).toBe(202);
    await until('stopped', async () => (await c.get(`/api/bot-details/${id}`)).body.botstatus === false, 30_000);
    await until('closed', async () => (await port.positions(SYMBOL)).length === 0, 30_000);
    expect(await port.openOrders(SYMBOL)).toEqual([]);
    const close = (await port.recentFills(SYMBOL, 0)).slice(EXPECTED_FILLS.length);
    // 1 × 88.5 = 88.5, taker 0.05 %: 0.04425
    expect(close.map((f) => `${f.side} ${f.price} ${f.amount} fee ${f.fee}`)).toEqual(['sell 88.5 1 fee 0.04425']);
    expect((await port.orderByClientId(SYMBOL, close[0].clientOrderId))?.reduceOnly).toBe(true);
  });
});

describe('a neutral grid whose price falls through its lower stop', () => {
  // 92.5 (start), 89.5 (the buy at 90 fills), 87.5 (the buy at 88 fills: long 1), 84 (below the stop at 85)
  const paper = usePaperApp([92.5, 89.5, 87.5, 84].map((p, k) => `${T0 + k * H},Binance,${SYMBOL},${p}`), T0);

  it('records the stop-loss first, cancels every order, sells the long at market reduce-only, and stops the bot saying what it lost', async () => {
    const { venue, provider, c, uid } = await paperTrader(paper, 'neutral-stop@example.com');
    const created = await c.post('/api/bots', { ...body, stopLossPrice: 85 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ direction: 'neutral', stoplossprice: 85 });
    const id = created.body.id as string;
    expect((await c.get(`/api/startBot?userId=${uid}&id=${id}`)).status).toBe(202);
    const port = await provider.for({ userId: uid, exchange: 'Binance', market: 'futures' });
    await until('both halves resting', async () => (await port.openOrders(SYMBOL)).length === 4, 30_000);
    venue.advanceTo(T0 + H);
    await until('the buy at 90 filled', async () => (await port.positions(SYMBOL)).some((p) => p.amount === 0.5), 30_000);
    venue.advanceTo(T0 + 2 * H);
    await until('the buy at 88 filled', async () => (await port.positions(SYMBOL)).some((p) => p.amount === 1), 30_000);
    venue.advanceTo(T0 + 3 * H);
    const details = await until('stopped', async () => {
      const d = (await c.get(`/api/bot-details/${id}`)).body;
      return d.state === 'stopped' && d.lasterror ? d : null;
    }, 30_000);
    /*
     * By hand: long 0.5 bought at 90 (fee 0.009) and 0.5 at 88 (fee 0.0088), sold at market at 84, taker
     * 84 × 0.0005 = 0.042: (84 − 88) × 0.5 + (84 − 90) × 0.5 − 0.0088 − 0.009 − 0.042 = −5.0598
     */
    expect(details.lasterror).toBe('Stop-loss triggered at 84 (stop level 85): the long position was sold at market, loss 5.0598 USDT');
    expect(details.profit).toBe(-5.0598);
    expect(await port.openOrders(SYMBOL)).toEqual([]);
    expect(await port.positions(SYMBOL)).toEqual([]);
    const close = (await port.recentFills(SYMBOL, 0)).filter((f) => f.side === 'sell');
    expect(close.map((f) => `${f.side} ${f.price} ${f.amount} fee ${f.fee}`)).toEqual(['sell 84 1 fee 0.042']);
    expect((await port.orderByClientId(SYMBOL, close[0].clientOrderId))?.reduceOnly).toBe(true);
    // the history: the stop recorded before the cancels, then its fill with the loss
    const history = (await c.get(`/api/bots/${id}/history?limit=500`)).body as { items?: Array<{ type: string; data: Record<string, unknown> }> } | Array<{ type: string; data: Record<string, unknown> }>;
    const events = Array.isArray(history) ? history : history.items ?? [];
    const types = events.map((e) => e.type);
    const started = types.indexOf('StopLossStarted');
    expect(started).toBeGreaterThan(-1);
    expect(types.slice(started).filter((t) => t === 'OrderCancelled')).toHaveLength(4); // the sells at 90 and 92 (reduce-only), 94 and 96
    expect(types.slice(0, started).filter((t) => t === 'OrderCancelled')).toHaveLength(0);
    expect(events.find((e) => e.type === 'StopLossTriggered')?.data).toMatchObject({ side: 'sell', price: 84, amount: 1, loss: 5.0598, level: 85 });
  });
});
