/**
 * The infinity grid (issue 32, infinity.engine.ts) on the paper exchange with Binance spot's rules
 * (LTCUSDT: price step 0.01, amount step 0.001, minimum order value 5; maker and taker 0.1 %, a buy's
 * fee taken in LTC): a replayed price CSV (one row per print of each candle's path), and a small driver
 * playing the runner's loop against the venue (apply the venue's fills to the engine in order, cancel the
 * orders no longer desired, place the missing ones, by client order id). The fills, fees, position and
 * profit are worked out by hand below; the backtest of the same candles gives the same fills and agrees
 * to the cent. The app's runner trades the same example: test/infinity-grid-runner.spec.ts.
 */
import { CsvReplayFeed, PaperExchangeProvider, PaperVenue, type ExchangePort } from '@gridrocket/exchanges';
import { candlePath, paperTerms, runInfinityBacktest, toSeries, type Candle } from '@gridrocket/backtest';
import { toEngineFill } from '../../runner/bot-workflow';
import { infinityDesiredOrders, infinityInitialState, processInfinityFill, type InfinityConfig, type InfinityState } from './infinity.engine';
import type { MarketRules } from '../../grid/grid.types';

const T0 = 1_700_000_000_000;
const H = 3_600_000;
const SYMBOL = 'LTCUSDT';

// start at 100 buying 100 USDT of LTC; a step of 2 %, 20 USDT a step; no buy below 95
const CONFIG: InfinityConfig = { style: 'infinity', botType: 'Spot', entryPrice: 100, stepPercent: 2, quoteValue: 20, lowerPrice: 95, initialQuote: 100 };

// [open, high, low, close]; rising candles print open → low → high → close, falling open → high → low → close.
const LTC: Array<[number, number, number, number]> = [
  [101, 101.5, 99.8, 100.5], // the initial buy at 100 rests at 101, fills at 99.8
  [100.5, 102.3, 100.2, 102.1], // 102.3: the sell at 102 fills (a step up)
  [102.1, 102.4, 97.5, 98], // 97.5: the buy at 99.96 fills; the next buy at 97.96 crosses 97.5 at once
  [98, 99.6, 94, 99.5], // 94: the buy at 95.55 fills, no buy below 95; 99.6: the sell at 97.47 fills, the next at 99.42 crosses at once
];

/*
 * By hand. Buys: the fee is 0.1 % of the amount in LTC (to 1e-8), its quote value at the price; the bot holds
 * the net amount at cost price × net. Sells: fee 0.1 % of the proceeds in USDT. A sell realises
 * proceeds − cost share − buy-fee share − its fee, the shares being sold ÷ held of the cost and of the unpaid buy fees.
 *  1. initial buy 1 @ 100 (maker): fee 0.001 LTC = 0.1 USDT, holds 0.999 for 99.9, buy fees 0.1
 *     pair from 100: sell 100 × 1.02 = 102 for ⌊20 ÷ 102⌋ = 0.196; buy 100 × 0.98 = 98 for ⌊20 ÷ 98⌋ = 0.204
 *  2. sell 0.196 @ 102 (maker): 19.992, fee 0.019992; cost share 99.9 × 0.196 ÷ 0.999 = 19.6,
 *     fee share 0.1 × 0.196 ÷ 0.999 = 0.0196196…; profit 19.992 − 19.6 − 0.0196196 − 0.019992 = 0.35238838
 *     holds 0.803 for 80.3; pair from 102: sell ⌈104.04⌉ for 0.192, buy 99.96 for ⌊20 ÷ 99.96⌋ = 0.2
 *  3. buy 0.2 @ 99.96 (maker): fee 0.0002 LTC = 0.019992, holds 0.1998 more for 19.972008
 *     pair from 99.96: sell ⌈101.9592⌉ = 101.96 for 0.196, buy ⌊97.9608⌋ = 97.96 for 0.204: 97.96 ≥ 97.5, it crosses
 *  4. buy 0.204 @ 97.5 (taker, at the price): fee 0.000204 LTC = 0.01989, holds 0.203796 more for 19.87011
 *     pair from 97.5: sell 99.45 for 0.201, buy 95.55 for ⌊20 ÷ 95.55⌋ = 0.209
 *  5. buy 0.209 @ 95.55 (maker): fee 0.000209 LTC = 0.01996995, holds 0.208791 more for 19.94998005
 *     held 1.415387 for 140.09209805; pair from 95.55: sell ⌈97.461⌉ = 97.47 for 0.205; buy ⌊93.639⌋ = 93.63 < 95: none
 *  6. sell 0.205 @ 97.47 (maker): 19.98135, fee 0.01998135; cost share 140.09209805 × 0.205 ÷ 1.415387 = 20.29047893,
 *     fee share 0.1393630… × 0.205 ÷ 1.415387 = 0.02031079; profit 19.98135 − 20.29047893 − 0.02031079 − 0.01998135 = −0.34942107
 *     (a step up that sells below the average cost realises a loss: the average-cost method)
 *     pair from 97.47: sell ⌈99.4194⌉ = 99.42 for 0.201, buy 95.52 for 0.209; 99.6 ≥ 99.42: the sell crosses
 *  7. sell 0.201 @ 99.6 (taker, at the price): 20.0196, fee 0.0200196; cost share 19.89456715, fee share 0.01991448;
 *     profit 20.0196 − 19.89456715 − 0.01991448 − 0.0200196 = 0.08509877
 *     pair from 99.6: sell 101.6 for 0.196, buy 97.6 for 0.204
 *  profit 0.35238838 − 0.34942107 + 0.08509877 = 0.08806608
 *  fees 0.1 + 0.019992 + 0.019992 + 0.01989 + 0.01996995 + 0.01998135 + 0.0200196 = 0.2198449
 *  holds 0.999 − 0.196 + 0.1998 + 0.203796 + 0.208791 − 0.205 − 0.201 = 1.009387 LTC
 */
const EXPECTED_FILLS = [
  'buy 100 1 fee 0.1',
  'sell 102 0.196 fee 0.019992',
  'buy 99.96 0.2 fee 0.019992',
  'buy 97.5 0.204 fee 0.01989',
  'buy 95.55 0.209 fee 0.01996995',
  'sell 97.47 0.205 fee 0.01998135',
  'sell 99.6 0.201 fee 0.0200196',
];
const EXPECTED_PROFIT = 0.08806608;
const EXPECTED_FEES = 0.2198449;
const EXPECTED_HELD = 1.009387;

const candles: Candle[] = LTC.map(([open, high, low, close], i) => ({ time: T0 + i * 4 * H, open, high, low, close }));

describe('an infinity grid on the paper exchange (Binance spot rules, replayed CSV)', () => {
  it('gives the hand-computed fills, fees, position and profit, stops buying below the lower price, and the backtest agrees', async () => {
    const rows = candles.flatMap((c) => candlePath(c).map((p, k) => `${c.time + k * H},Binance,${SYMBOL},${p}`));
    const venue = new PaperVenue({ store: ':memory:', feed: new CsvReplayFeed(['ms,exchange,symbol,price', ...rows].join('\n')), startingUsdt: '10000' });
    try {
      venue.advanceTo(T0);
      const port: ExchangePort = await new PaperExchangeProvider(venue).for({ userId: 'infinity', exchange: 'Binance', market: 'spot' });
      const r = await port.marketRules(SYMBOL);
      const rules: MarketRules = { priceStep: r.priceStep, amountStep: r.amountStep, minNotional: r.minNotional, minAmount: r.minAmount };
      const botId = 'infinity-paper-bot';
      let state: InfinityState = infinityInitialState(CONFIG, rules, botId);
      const applied = new Set<string>();
      const applyFills = async () => {
        for (const f of await port.recentFills(SYMBOL, 0)) {
          if (applied.has(f.fillId)) continue;
          applied.add(f.fillId);
          state = processInfinityFill(CONFIG, rules, state, toEngineFill(f, 'LTC')).state;
        }
      };
      // the runner's loop: fills first, then cancel what is not desired, then place what is missing (by id)
      const converge = async () => {
        for (let i = 0; i < 20; i++) {
          await applyFills();
          const want = infinityDesiredOrders(rules, state);
          const open = await port.openOrders(SYMBOL);
          const cancel = open.filter((o) => !want.some((w) => w.clientOrderId === o.clientOrderId));
          const place = want.filter((w) => !open.some((o) => o.clientOrderId === w.clientOrderId));
          if (cancel.length === 0 && place.length === 0) return;
          for (const o of cancel) await port.cancelOrder(SYMBOL, o.clientOrderId);
          await applyFills();
          const now = infinityDesiredOrders(rules, state);
          for (const o of place) {
            if (!now.some((w) => w.clientOrderId === o.clientOrderId)) continue; // a fill in between moved the step
            await port.createLimitOrder({ symbol: SYMBOL, side: o.side, price: o.price, amount: o.amount, clientOrderId: o.clientOrderId });
          }
        }
        throw new Error('did not converge');
      };
      for (let k = 0; k < LTC.length * 4; k++) {
        venue.advanceTo(T0 + k * H);
        await converge();
        // the bot holds what the account holds, all along
        const held = (await port.balances()).find((b) => b.symbol === 'LTC')?.balance ?? 0;
        expect(Math.abs(state.position.amount - held)).toBeLessThan(1e-9);
        if (k === 13) expect((await port.openOrders(SYMBOL)).map((o) => `${o.side} ${o.price} ${o.amount}`)).toEqual(['sell 97.47 0.205']); // 94: no buy below 95
      }
      const fills = await port.recentFills(SYMBOL, 0);
      expect(fills.map((f) => `${f.side} ${f.price} ${f.amount} fee ${f.fee}`)).toEqual(EXPECTED_FILLS);
      expect(state.profit).toBe(EXPECTED_PROFIT);
      expect(state.feesPaid).toBe(EXPECTED_FEES);
      expect(state.position.amount).toBe(EXPECTED_HELD);
      expect(state.stepsUp).toBe(3); // sells 2, 6, 7 (the initial buy is no step)
      expect(state.stepsDown).toBe(3); // buys 3, 4, 5
      expect((await port.openOrders(SYMBOL)).map((o) => `${o.side} ${o.price} ${o.amount}`).sort()).toEqual(['buy 97.6 0.204', 'sell 101.6 0.196']);

      // the backtest of the same candles: the same fills, fees, position and profit
      const bt = runInfinityBacktest(toSeries(candles), { ...paperTerms({ exchange: 'Binance', market: 'spot', symbol: SYMBOL }), config: CONFIG, rules, recordFills: true });
      expect(bt.fillLog!.map((f) => `${f.side} ${f.price} ${f.amount} fee ${f.fee}`)).toEqual(EXPECTED_FILLS);
      expect(Math.round(bt.profit * 100)).toBe(Math.round(state.profit * 100));
      expect(bt.profit).toBe(EXPECTED_PROFIT);
      expect(bt.fees).toBe(EXPECTED_FEES);
      expect(bt.position.amount).toBe(EXPECTED_HELD);
      expect(bt.last).toBe(99.6);
    } finally {
      venue.close();
    }
  });
});
