/**
 * The short futures grid (issue 32) on the paper exchange, end to end: a PAPER_PRICES CSV (one row per
 * print of each candle's path, as test/backtest-agrees.spec.ts writes it) replayed through the real
 * app's runner. The fills, fees, position and profit are the ones worked out by hand below, and the
 * backtest of the same candles gives the same fills and agrees to the cent.
 */
import { splitSymbol } from '@gridrocket/exchanges';
import { applyFills, desiredOrders, initialState, type GridConfig, type MarketRules } from '@gridrocket/trading/grid';
import { engineBotId, toEngineFill } from '@gridrocket/trading';
import type { Candle } from '@gridrocket/backtest';
import { until } from '@gridrocket/shared/testing/until';
import { candleRows, expectLadderBacktestAgrees, expectRecordedProfit, expectVenueFills, fourHourCandles, paperTrader, usePaperApp } from './support/paper-app';

jest.setTimeout(180_000);

const H = 3_600_000;
const T0 = 1_700_000_000_000;

// LTCUSDT futures on paper Binance: price step 0.01, amount step 0.001, maker 0.02 %, taker 0.05 %.
// Short ladder: sells of 0.5 at 92, 94, 96; take-profit 2 % below the average, rounded down.
const SHORT: GridConfig = { botType: 'Futures', numOfOrders: 3, orderSize: 0.5, interval: 2, entryPrice: 92, takeProfit: 2, leverage: 5, direction: 'short' };

// [open, high, low, close]; rising candles print open → low → high → close, falling open → high → low → close.
const LTC: Array<[number, number, number, number]> = [
  [90, 93, 89.5, 92.5], // ladder placed at 90 (nothing crosses); 93: sell 92 fills
  [92.5, 96.5, 92, 96], // 96.5: sells 94 and 96 fill at one print
  [96, 96.2, 92.05, 92.1], // 92.05: take-profit 92.12 fills; cycle 2's sell at 92 crosses 92.05 at once (taker, at 92.05)
  [92.1, 94.5, 91.8, 94.2], // 94.5: sell 94 fills
  [94.2, 94.3, 90.5, 91], // 90.5: take-profit 91.16 fills
  [91, 92.6, 90.8, 92.4], // 92.6: cycle 3's sell at 92 fills; ends short 0.5
];

/*
 * By hand (fee = price × amount × rate, to 1e-8):
 *  1. sell 0.5 @ 92     maker: 46 × 0.0002        = 0.0092
 *  2. sell 0.5 @ 94     maker: 47 × 0.0002        = 0.0094
 *  3. sell 0.5 @ 96     maker: 48 × 0.0002        = 0.0096
 *     short 1.5 for 46 + 47 + 48 = 141, average 94; take-profit 94 × 0.98 = 92.12 (buy, reduce-only)
 *  4. buy 1.5 @ 92.12   maker: 138.18 × 0.0002    = 0.027636
 *     profit 141 − 138.18 − (0.0092 + 0.0094 + 0.0096) − 0.027636 = 2.764164; cycle 2
 *  5. sell 0.5 @ 92.05  taker (placed at 92 with the price at 92.05): 46.025 × 0.0005 = 0.0230125
 *     take-profit 92.05 × 0.98 = 90.209 → 90.2
 *  6. sell 0.5 @ 94     maker: 0.0094
 *     short 1 for 46.025 + 47 = 93.025, average 93.025; take-profit 93.025 × 0.98 = 91.1645 → 91.16
 *  7. buy 1 @ 91.16     maker: 91.16 × 0.0002     = 0.018232
 *     profit 93.025 − 91.16 − (0.0230125 + 0.0094) − 0.018232 = 1.8143555; cycle 3
 *  8. sell 0.5 @ 92     maker: 0.0092
 *  fees 0.0282 + 0.027636 + 0.0230125 + 0.0094 + 0.018232 + 0.0092 = 0.1156805
 *  profit 2.764164 + 1.8143555 = 4.5785195; position short 0.5 at 92 (take-profit a buy of 0.5 at 90.16)
 */
const EXPECTED_FILLS = [
  'sell 92 0.5 fee 0.0092',
  'sell 94 0.5 fee 0.0094',
  'sell 96 0.5 fee 0.0096',
  'buy 92.12 1.5 fee 0.027636',
  'sell 92.05 0.5 fee 0.0230125',
  'sell 94 0.5 fee 0.0094',
  'buy 91.16 1 fee 0.018232',
  'sell 92 0.5 fee 0.0092',
];
const EXPECTED_FEES = 0.1156805;
const EXPECTED_PROFIT = 4.5785195;

const candles: Candle[] = fourHourCandles(LTC, T0);

describe('a short futures grid on the paper exchange', () => {
  const paper = usePaperApp(candleRows(candles, 'Binance', 'LTCUSDT', H), T0);

  it('sells its ladder above the entry, buys back reduce-only below the average: the hand-computed fills, fees, position and profit, and the backtest agrees', async () => {
    const { venue, provider, c, uid } = await paperTrader(paper, 'short@example.com');
    // a spot bot cannot be short: 400 with the field's message, nothing created
    const spot = await c.post('/api/bots', { exchange: 'Binance', symbol: 'LTCUSDT', ...SHORT, botType: 'Spot', leverage: 1 });
    expect(spot.status).toBe(400);
    expect(JSON.stringify(spot.body)).toContain('direction short applies to futures bots only: a spot bot buys its ladder (long)');
    // a short entry well below the market sells at once: it needs the confirmation (the long check mirrored)
    const below = await c.post('/api/bots', { exchange: 'Binance', symbol: 'LTCUSDT', ...SHORT, entryPrice: 85 });
    expect(below.status).toBe(400);
    // 85 is (90 − 85) ÷ 90 = 5.56 % below 90; its rungs 85, 87, 89 are all ≤ 90 and sell at once:
    // 3 × 0.5 = 1.5 LTC at about 90 = 135 USDT, taker fee 135 × 0.05 % = 0.0675 → 0.07
    expect(JSON.stringify(below.body)).toContain('The entry price is 5.56 % below the current price of 90.00 USDT: 3 of the 3 sell orders (1.5 LTC) would fill at once as taker orders, for about 135.00 USDT plus 0.07 USDT taker fee');
    expect((await c.get(`/api/bots/${uid}`)).body).toEqual([]);
    const created = await c.post('/api/bots', { exchange: 'Binance', symbol: 'LTCUSDT', ...SHORT });
    expect(created.status).toBe(201);
    expect(created.body.direction).toBe('short');
    const id = created.body.id as string;
    expect((await c.get(`/api/startBot?userId=${uid}&id=${id}`)).status).toBe(202);
    const port = await provider.for({ userId: uid, exchange: 'Binance', market: 'futures' });
    const rules: MarketRules = await port.marketRules('LTCUSDT');
    await until('running', async () => (await c.get(`/api/bot-details/${id}`)).body.botstatus === true, 30_000);

    const converged = async () => {
      const fills = await port.recentFills('LTCUSDT', 0);
      const state = applyFills(initialState(SHORT, rules, engineBotId(id, 1)), fills.map((f) => toEngineFill(f, splitSymbol('LTCUSDT').base)));
      const want = desiredOrders(SHORT, rules, state).map((o) => `${o.clientOrderId} ${o.side} ${o.price} ${o.amount}`).sort();
      const open = (await port.openOrders('LTCUSDT')).map((o) => `${o.clientOrderId} ${o.side} ${o.price} ${o.amount}`).sort();
      return JSON.stringify(want) === JSON.stringify(open);
    };
    await until('converged at start', converged, 30_000);
    const atStart = await port.openOrders('LTCUSDT');
    expect(atStart.map((o) => `${o.side} ${o.price} ${o.amount}`).sort()).toEqual(['sell 92 0.5', 'sell 94 0.5', 'sell 96 0.5']);
    for (let k = 1; k < LTC.length * 4; k++) {
      venue.advanceTo(T0 + k * H);
      await until(`converged after print ${k}`, converged, 30_000);
    }

    const fees = await expectVenueFills(port, 'LTCUSDT', EXPECTED_FILLS, EXPECTED_FEES);

    // the venue's position: short 0.5 at 92 (amount < 0 is short), and the bot's take-profit is a reduce-only buy
    const positions = await port.positions('LTCUSDT');
    expect(positions.map((p) => [p.amount, p.entryPrice])).toEqual([[-0.5, 92]]);
    const open = await port.openOrders('LTCUSDT');
    const tp = open.find((o) => o.side === 'buy');
    expect(tp).toMatchObject({ price: 90.16, amount: 0.5, reduceOnly: true }); // 92 × 0.98 = 90.16
    expect(open.filter((o) => o.side === 'sell').every((o) => !o.reduceOnly)).toBe(true);
    expect(open.filter((o) => o.side === 'sell').map((o) => o.price).sort()).toEqual([94, 96]);

    const profit = await expectRecordedProfit(c, id, EXPECTED_PROFIT);

    // the backtest of the same candles: the same fills, fees and profit to the cent, the same position
    const bt = expectLadderBacktestAgrees(candles, SHORT, rules, { fills: EXPECTED_FILLS, fees: EXPECTED_FEES, profit: EXPECTED_PROFIT }, { fees, profit });
    expect(bt.position).toEqual({ amount: 0.5, averageEntry: 92 });
    expect(bt.cycles).toBe(2);
    // unrealised at the last close 92.4: received 46 for 0.5, buying back costs 46.2, less its fee 0.0092 → −0.2092
    expect(bt.unrealised).toBe(-0.2092);

    // a stop with cancel-all and close-position: the orders go, the short is bought back at market (92.4), reduce-only
    const usdtBefore = (await port.balances()).find((b) => b.symbol === 'USDT')!.balance;
    expect((await c.get(`/api/stopBot?userId=${uid}&id=${id}&cancelAllOrders=true&closePosition=true`)).status).toBe(202);
    await until('stopped', async () => (await c.get(`/api/bot-details/${id}`)).body.botstatus === false, 30_000);
    await until('closed', async () => (await port.positions('LTCUSDT')).length === 0, 30_000);
    expect(await port.openOrders('LTCUSDT')).toEqual([]);
    const close = (await port.recentFills('LTCUSDT', 0)).slice(EXPECTED_FILLS.length);
    // 0.5 × 92.4 = 46.2, taker 0.05 %: 0.0231
    expect(close.map((f) => `${f.side} ${f.price} ${f.amount} fee ${f.fee}`)).toEqual(['buy 92.4 0.5 fee 0.0231']);
    expect((await port.orderByClientId('LTCUSDT', close[0].clientOrderId))?.reduceOnly).toBe(true);
    // the wallet: sold short at 92 (46), bought back at 92.4 (46.2): −0.2 − 0.0231 = −0.2231
    expect(Math.round(((await port.balances()).find((b) => b.symbol === 'USDT')!.balance - usdtBefore) * 1e8) / 1e8).toBe(-0.2231);
  });
});
