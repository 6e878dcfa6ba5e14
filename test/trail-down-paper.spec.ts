/**
 * Trailing down of a long grid (issue 32, grid/trail-down.ts, docs/risk.md "Trailing down") on the paper
 * exchange, end to end: a PAPER_PRICES CSV (one row per print of each candle's path, as
 * test/short-grid-paper.spec.ts writes it) replayed through the real app's runner. The ladder moves down
 * twice, the second time to its limit, the held position and its take-profit are kept, and the fills,
 * fees and profit are the ones worked out by hand below; the backtest of the same candles agrees to the cent.
 */
import { activeOrders, type GridConfig, type MarketRules } from '@gridrocket/trading/grid';
import { engineBotId, replayBook } from '@gridrocket/trading';
import { evolveBot, initialBotState, type BotEvent, type BotState } from '@gridrocket/bots';
import type { Candle } from '@gridrocket/backtest';
import { join } from 'node:path';
import { SqliteEventStore } from '@gridrocket/event-store';
import { until } from '@gridrocket/shared/testing/until';
import { candleRows, expectLadderBacktestAgrees, expectRecordedProfit, expectVenueFills, fourHourCandles, paperTrader, usePaperApp } from './support/paper-app';

jest.setTimeout(180_000);

const H = 3_600_000;
const T0 = 1_700_000_000_000;

// LTCUSDT futures on paper Binance: price step 0.01, amount step 0.001, maker 0.02 %, taker 0.05 %; an
// order crossing the price when placed fills at once at the current price (taker).
// Long ladder: buys of 0.5 at 90 and 88 (interval 2), take-profit 2 % above the average, trailing down never below 80.
const LONG: GridConfig = { botType: 'Futures', numOfOrders: 2, orderSize: 0.5, interval: 2, entryPrice: 90, takeProfit: 2, leverage: 5, trailDownLimit: 80 };

// [open, high, low, close]; rising candles print open → low → high → close, falling open → high → low → close.
const LTC: Array<[number, number, number, number]> = [
  [91, 91.5, 87.5, 88], // ladder placed at 91; 87.5: buys 90 and 88 fill (every rung filled: trigger 88 − 2 = 86)
  [88, 88.5, 83, 84], // 83 < 86: trails down to 83 (rungs 83, 81); the rung at 83 fills at once
  [84, 84.5, 80.5, 81], // 80.5: buy 81 fills (every rung filled: trigger 81 − 2 = 79)
  [81, 81.5, 78.5, 79], // 78.5 < 79: would trail to 78.5, but never below the limit: to 80 (rungs 80, 78); 80 crosses 78.5 at once
  [79, 86, 78.8, 85.9], // 86: the take-profit 85.79 sells everything; cycle complete
];

/*
 * By hand (fee = price × amount × rate, to 1e-8):
 *  1. buy 0.5 @ 90      maker: 45 × 0.0002      = 0.009
 *  2. buy 0.5 @ 88      maker: 44 × 0.0002      = 0.0088
 *     held 1 for 89, average 89; take-profit 89 × 1.02 = 90.78
 *  -- 83 is more than one interval (2) below the lowest rung 88: trail to 83; held 1 and its
 *     take-profit 90.78 kept (re-placed under cycle 2's id), new rungs 83 and 81
 *  3. buy 0.5 @ 83      taker (placed at 83 with the price at 83): 41.5 × 0.0005 = 0.02075
 *     held 1.5 for 130.5, average 87; take-profit 87 × 1.02 = 88.74
 *  4. buy 0.5 @ 81      maker: 40.5 × 0.0002    = 0.0081
 *     held 2 for 171, average 85.5; take-profit 85.5 × 1.02 = 87.21
 *  -- 78.5 is below 81 − 2 = 79: the anchor max(78.5, limit 80) = 80 is below 81: trail to 80, rungs 80 and 78
 *  5. buy 0.5 @ 78.5    taker (placed at 80 with the price at 78.5): 39.25 × 0.0005 = 0.019625
 *     held 2.5 for 210.25, average 84.1; take-profit 84.1 × 1.02 = 85.782, rounded up → 85.79
 *     (the ladder is at the limit: all its rungs filled would not trail again)
 *  6. sell 2.5 @ 85.79  maker: 214.475 × 0.0002 = 0.042895
 *     profit 214.475 − 210.25 − (0.009 + 0.0088 + 0.02075 + 0.0081 + 0.019625) − 0.042895
 *          = 4.225 − 0.066275 − 0.042895 = 4.11583; the cycle completes, rung 80 re-armed, 78 still rests
 *  fees 0.066275 + 0.042895 = 0.10917
 */
const EXPECTED_FILLS = [
  'buy 90 0.5 fee 0.009',
  'buy 88 0.5 fee 0.0088',
  'buy 83 0.5 fee 0.02075',
  'buy 81 0.5 fee 0.0081',
  'buy 78.5 0.5 fee 0.019625',
  'sell 85.79 2.5 fee 0.042895',
];
const EXPECTED_FEES = 0.10917;
const EXPECTED_PROFIT = 4.11583;

// The open orders after each print (k = 0 … 19), worked out from the story above.
const OPEN_AFTER: string[][] = (() => {
  const start = ['buy 88 0.5', 'buy 90 0.5'];
  const held1 = ['sell 90.78 1'];
  const trailed = ['buy 81 0.5', 'sell 88.74 1.5'];
  const held2 = ['sell 87.21 2'];
  const atLimit = ['buy 78 0.5', 'sell 85.79 2.5'];
  const sold = ['buy 78 0.5', 'buy 80 0.5'];
  return [start, start, held1, held1, held1, held1, trailed, trailed, trailed, trailed, held2, held2, held2, held2, atLimit, atLimit, atLimit, atLimit, sold, sold];
})();

const candles: Candle[] = fourHourCandles(LTC, T0);

describe('a long grid trailing down on the paper exchange', () => {
  const paper = usePaperApp(candleRows(candles, 'Binance', 'LTCUSDT', H), T0);

  it('moves the ladder down twice (the second time to its limit) keeping the position and its take-profit: the hand-computed fills, fees and profit, and the backtest agrees', async () => {
    const { venue, provider, c, uid } = await paperTrader(paper, 'trail-down@example.com');
    // the limit must be below the entry: 400 with the field's message, nothing created
    const above = await c.post('/api/bots', { exchange: 'Binance', symbol: 'LTCUSDT', ...LONG, trailDownLimit: 95 });
    expect(above.status).toBe(400);
    expect(above.body.errors).toEqual([{ field: 'trailDownLimit', message: 'trailDownLimit must be below the entry price' }]);
    const created = await c.post('/api/bots', { exchange: 'Binance', symbol: 'LTCUSDT', ...LONG });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await c.get(`/api/bot-details/${id}`)).body.traildownlimit).toBe(80);
    expect((await c.get(`/api/startBot?userId=${uid}&id=${id}`)).status).toBe(202);
    const port = await provider.for({ userId: uid, exchange: 'Binance', market: 'futures' });
    const rules: MarketRules = await port.marketRules('LTCUSDT');
    await until('running', async () => (await c.get(`/api/bot-details/${id}`)).body.botstatus === true, 30_000);

    const openNow = async () => (await port.openOrders('LTCUSDT')).map((o) => `${o.side} ${o.price} ${o.amount}`).sort();
    for (let k = 0; k < LTC.length * 4; k++) {
      if (k > 0) venue.advanceTo(T0 + k * H);
      await until(`open orders after print ${k}`, async () => JSON.stringify(await openNow()) === JSON.stringify(OPEN_AFTER[k]), 30_000);
    }

    const fees = await expectVenueFills(port, 'LTCUSDT', EXPECTED_FILLS, EXPECTED_FEES);
    expect(await port.positions('LTCUSDT')).toEqual([]); // everything sold

    const profit = await expectRecordedProfit(c, id, EXPECTED_PROFIT);

    // the history says where the ladder went and that the position was kept
    const store = new SqliteEventStore(join(paper().app.dataDir, 'events.sqlite'));
    const history = await store.readStream(`bot-${id}`).finally(() => store.close());
    expect(history.filter((e) => e.type === 'GridReanchored').map((e) => e.data)).toEqual([
      expect.objectContaining({ from: 90, to: 83, cycle: 2, trailDown: true }),
      expect.objectContaining({ from: 83, to: 80, cycle: 3, trailDown: true }),
    ]);
    // what a restarted runner rebuilds from this history (crash safety): the same grid the venue shows
    const folded = history.reduce<BotState>((st, e) => evolveBot(st, { type: e.type, data: e.data } as BotEvent), initialBotState);
    const replayed = replayBook((folded as Extract<BotState, { kind: 'live' }>).trading.runs, rules, engineBotId(id, 1));
    const withIds = (await port.openOrders('LTCUSDT')).map((o) => `${o.clientOrderId} ${o.side} ${o.price} ${o.amount}`).sort();
    expect(activeOrders(LONG, rules, replayed).map((o) => `${o.clientOrderId} ${o.side} ${o.price} ${o.amount}`).sort()).toEqual(withIds);
    expect(replayed.anchor).toBe(80);
    expect(replayed.profit).toBe(EXPECTED_PROFIT);

    // the backtest of the same candles: the same fills, fees and profit to the cent, and two trails
    const bt = expectLadderBacktestAgrees(candles, LONG, rules, { fills: EXPECTED_FILLS, fees: EXPECTED_FEES, profit: EXPECTED_PROFIT }, { fees, profit });
    expect(bt.trails).toBe(2);
    expect(bt.position).toEqual({ amount: 0, averageEntry: 0 });
    expect(bt.cycles).toBe(1);
  });
});
