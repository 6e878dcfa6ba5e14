/**
 * Crash safety of the risk controls (issue 14), with the machinery of test/runner-crash.spec.ts: the
 * runner is its own OS process (crash-runner.child.ts) on a data folder, the paper venue lives in THIS
 * process (an independent actor, like a real exchange) and is reached over RPC. The runner is
 * SIGKILLed in the middle of a stop-loss (as soon as it has recorded StopLossStarted, and once its
 * market sell is on the exchange) and in the middle of a re-anchor (as soon as GridReanchored is
 * recorded). Before the restart the price moves back, so only the history can tell the restarted runner
 * what to finish. After the restart each finishes exactly once: one stop-loss sell, the coins sold, no
 * order left open, the bot stopped with the reason; one re-anchor, the new ladder and nothing of the old.
 */
import { buyOrderId, roundMoney, stopLossOrderId, takeProfitOrderId, takeProfitPrice, isOwnClientOrderId } from '@gridrocket/trading';
import { sleep, until, useSlowPaperCrash } from './support/slow-paper-crash';

jest.setTimeout(120_000);


// BTCUSDT: three buys fill (average 59000, stop level 56050), the price falls to 56000, then recovers to 58000.
// SOLUSDT: a rally to 146 before any buy (follow re-anchors at 146), then the price falls back to 143.
const PATH = [
  'ms,exchange,symbol,price',
  '1000,Binance,BTCUSDT,61000',
  '1000,Binance,SOLUSDT,141',
  '2000,Binance,BTCUSDT,59500',
  '3000,Binance,BTCUSDT,58500',
  '4000,Binance,BTCUSDT,57500',
  '5000,Binance,BTCUSDT,56000',
  '6000,Binance,BTCUSDT,58000', // back above the stop level, below the take-profit (59590)
  '7000,Binance,SOLUSDT,146',
  '8000,Binance,SOLUSDT,143',
].join('\n');

describe('risk controls survive SIGKILL', () => {
  const w = useSlowPaperCrash('gr-risk-crash-', PATH);

  async function stopLossStory(killWhen: 'recorded' | 'sell-on-exchange') {
    const userId = `sl-${killWhen}`;
    const id = await w.createAndStart(userId, { symbol: 'BTCUSDT', numOfOrders: 3, orderSize: 0.01, interval: 1000, entryPrice: 60000, takeProfit: 1, stopLossPercent: 5 });
    for (const [ms, left] of [[2000, 2], [3000, 1], [4000, 0]] as const) {
      w.venue.advanceTo(ms);
      await until(`buys left ${left}`, async () => {
        const fills = (await w.stream(id)).filter((e) => e.type === 'OrderFilled').length;
        const tp = (await w.own(userId, id, 'BTCUSDT')).some((o) => o.side === 'sell' && o.amount === roundMoney(0.00999 * (3 - left)));
        return fills === 3 - left && tp;
      });
    }
    w.venue.advanceTo(5000); // 56000 ≤ 56050: the stop-loss begins
    const sl = stopLossOrderId(id, 1);
    if (killWhen === 'recorded') await until('StopLossStarted', async () => (await w.stream(id)).some((e) => e.type === 'StopLossStarted'), 30_000, 1);
    else await until('stop-loss sell on the exchange', async () => (await (await w.port(userId)).orderByClientId('BTCUSDT', sl)) !== null, 30_000, 1);
    await w.kill();
    const history = await w.stream(id);
    const halfDone = !history.some((e) => e.type === 'BotFailed');
    const soldBeforeKill = (await (await w.port(userId)).orderByClientId('BTCUSDT', sl)) !== null;
    w.venue.advanceTo(6000); // the price recovers above the stop level while the runner is down (58000)
    await w.restart();
    const failed = await until('stopped by the stop-loss', async () => (await w.stream(id)).find((e) => e.type === 'BotFailed'));
    const after = await w.stream(id);
    const p = await w.port(userId);
    const fills = (await p.recentFills('BTCUSDT', 0)).filter((f) => f.clientOrderId === sl);
    expect(fills).toHaveLength(1); // sold once, never twice
    // sold at 56000 when the sell was on the exchange before the kill, else at the market after the restart (58000)
    const at = soldBeforeKill ? 56000 : 58000;
    expect(fills[0].price).toBe(at);
    expect(fills[0].amount).toBe(0.02997);
    expect(after.filter((e) => e.type === 'StopLossStarted')).toHaveLength(1);
    expect(after.filter((e) => e.type === 'StopLossTriggered')).toHaveLength(1);
    expect(after.filter((e) => e.type === 'BotFailed')).toHaveLength(1);
    const loss = 0.00999 * (60000 + 59000 + 58000) + (0.6 + 0.59 + 0.58) + 0.02997 * at * 0.001 - 0.02997 * at;
    expect((failed.data as { reason: string }).reason).toBe(`Stop-loss triggered at 56000 (stop level 56050): the position was sold at market, loss ${roundMoney(loss)} USDT`);
    expect(await w.own(userId, id, 'BTCUSDT')).toEqual([]); // nothing left open
    expect((await p.balances()).find((b) => b.symbol === 'BTC')?.balance ?? 0).toBeLessThan(0.00001);
    return halfDone;
  }

  it('killed as soon as the stop-loss is recorded: after the restart it is finished once, although the price recovered', async () => {
    expect(await stopLossStory('recorded')).toBe(true);
  });

  it('killed once the stop-loss sell is on the exchange: after the restart it is recorded once, never sold twice', async () => {
    expect(await stopLossStory('sell-on-exchange')).toBe(true);
  });

  it('killed as soon as a re-anchor is recorded: after the restart the new ladder stands once and nothing of the old one', async () => {
    const userId = 'follow';
    const id = await w.createAndStart(userId, { symbol: 'SOLUSDT', numOfOrders: 3, orderSize: 1, interval: 5, entryPrice: 140, takeProfit: 1, reanchor: 'follow' });
    await until('ladder', async () => (await w.own(userId, id, 'SOLUSDT')).length === 3);
    w.venue.advanceTo(7000); // 146
    await until('GridReanchored', async () => (await w.stream(id)).some((e) => e.type === 'GridReanchored'), 30_000, 1);
    await w.kill();
    const left = await w.own(userId, id, 'SOLUSDT');
    const halfDone = left.some((o) => o.clientOrderId === buyOrderId(id, 1, 0)) || !left.some((o) => o.clientOrderId === buyOrderId(id, 2, 2));
    w.venue.advanceTo(8000); // 143: no second re-anchor (not above 146 + 5), and buy 0 at 146 is no longer at the market
    await w.restart();
    const p = await w.port(userId);
    const line = (o: { side: string; clientOrderId: string; price: number; amount: number }) => `${o.side} ${o.clientOrderId} ${o.price} ${o.amount}`;
    // The new first rung (146) fills once: at 146 when it was placed before the kill, else at the market
    // it crosses after the restart (143); its take-profit covers it, the other rungs wait below.
    const first = await until('the new first rung filled', async () => (await p.recentFills('SOLUSDT', 0)).find((f) => f.clientOrderId === buyOrderId(id, 2, 0)));
    const expected = [
      `buy ${buyOrderId(id, 2, 1)} 141 1`,
      `buy ${buyOrderId(id, 2, 2)} 136 1`,
      `sell ${takeProfitOrderId(id, 2, 1)} ${takeProfitPrice(first.price, 1, 0.01)} 0.999`,
    ].sort();
    await until('new ladder', async () => JSON.stringify((await w.own(userId, id, 'SOLUSDT')).map(line).sort()) === JSON.stringify(expected));
    await sleep(500); // nothing else happens afterwards
    expect((await w.own(userId, id, 'SOLUSDT')).map(line).sort()).toEqual(expected);
    const after = await w.stream(id);
    expect(after.filter((e) => e.type === 'GridReanchored').map((e) => e.data)).toEqual([expect.objectContaining({ from: 140, to: 146, cycle: 2 })]);
    const buys = (await p.recentFills('SOLUSDT', 0)).filter((f) => isOwnClientOrderId(id, f.clientOrderId));
    expect(buys.map((f) => f.clientOrderId)).toEqual([buyOrderId(id, 2, 0)]); // the new first rung, once
    expect(after.filter((e) => e.type === 'BotFailed')).toHaveLength(0);
    expect(halfDone).toBe(true);
  });
});
