import type { BotConfig, RunBook } from '@gridrocket/bots';
import type { Fill as ExchangeFill } from '@gridrocket/exchanges';
import { infinityOrderId } from './infinity.engine';
import type { MarketRules } from '../../grid/grid.types';
import { decideInfinityConverge, decideInfinityFills, infinityActive, infinityFundsNeeded, replayInfinity, toInfinityConfig } from './infinity-workflow';

// LTCUSDT spot as on Binance: price step 0.01, amount step 0.001, minimum order value 5
const rules: MarketRules = { priceStep: 0.01, amountStep: 0.001, minNotional: 5 };
const BOT = 'infinity-workflow-bot';
// start at 100 buying 100 USDT of LTC; a step of 2 %, 20 USDT a step; no buy below 95
const config: BotConfig = { exchange: 'Binance', symbol: 'LTCUSDT', numOfOrders: 0, orderSize: 0, interval: 0, entryPrice: 100, takeProfit: 0, leverage: 1, style: 'infinity', stepPercent: 2, quoteValue: 20, lowerPrice: 95, initialQuote: 100 };
const run = (n: number, restart: boolean, fills: RunBook['fills']): RunBook => ({ run: n, restart, dropPosition: false, config, botType: 'Spot', fills });
const ini1 = infinityOrderId(BOT, 1, 'initial');
// the initial buy of 1 LTC at 100, its fee 0.001 LTC (0.1 USDT): 0.999 held
const initialFill = { clientOrderId: ini1, fillId: 'f1', price: 100, amount: 1, fee: 0.1, netAmount: 0.999, at: 1 };

describe('the runner\'s infinity workflow', () => {
  it('given a bot that never traded, then the initial buy alone rests (a buy of the ladder\'s kind), and its quote with the maker fee is what it needs', () => {
    const engine = replayInfinity([run(1, true, [])], rules, BOT);
    const active = infinityActive(rules, engine);
    expect(active).toEqual([{ clientOrderId: ini1, role: 'buy', side: 'buy', type: 'limit', price: 100, amount: 1, reduceOnly: false, cycle: 1, level: 0, tpSeq: 1 }]);
    // 1 × 100 = 100, maker 0.1 %: 0.1
    expect(infinityFundsNeeded(active, 0.001)).toEqual({ need: 100.1, fees: 0.1 });
    expect(decideInfinityConverge(rules, engine, [], new Map())).toEqual([{ type: 'place', order: active[0] }]);
  });

  it('given a run continued and a run restarted, then the continued one keeps the grid and the restart numbers its ids above every earlier one', () => {
    const continued = replayInfinity([run(1, true, [initialFill]), run(2, false, [])], rules, BOT);
    // from 100: sell ⌈102⌉ for ⌊20 ÷ 102⌋ = 0.196 (step 2), buy 98 for ⌊20 ÷ 98⌋ = 0.204
    expect(infinityActive(rules, continued).map((o) => `${o.clientOrderId} ${o.side} ${o.price} ${o.amount} ${o.role}`)).toEqual([
      `${infinityOrderId(BOT, 2, 'step-sell')} sell 102 0.196 take-profit`,
      `${infinityOrderId(BOT, 2, 'step-buy')} buy 98 0.204 buy`,
    ]);
    const restarted = replayInfinity([run(1, true, [initialFill]), run(2, true, [])], rules, BOT);
    // the first run reached step 2: the new initial buy is step 3, never gr-<h>-1-ini again
    expect(infinityActive(rules, restarted).map((o) => o.clientOrderId)).toEqual([infinityOrderId(BOT, 3, 'initial')]);
    expect(restarted.position.amount).toBe(0);
  });

  it('given fills, then a buy is an OrderFilled with the net amount held and a sell a TakeProfitFilled with what it realised, and its ProfitRealized', () => {
    const engine = replayInfinity([run(1, true, [])], rules, BOT);
    const buy: ExchangeFill = { fillId: 'f1', clientOrderId: ini1, side: 'buy', price: 100, amount: 1, fee: 0.1, feeAsset: 'LTC', feeCost: 0.001, timestamp: 10 } as ExchangeFill;
    const sell: ExchangeFill = { fillId: 'f2', clientOrderId: infinityOrderId(BOT, 2, 'step-sell'), side: 'sell', price: 102, amount: 0.196, fee: 0.019992, feeAsset: 'USDT', feeCost: 0.019992, timestamp: 20 } as ExchangeFill;
    const d = decideInfinityFills(toInfinityConfig(config), rules, { botId: 'bot', run: 3, base: 'LTC' }, engine, [buy, sell]);
    // sell 0.196 @ 102: 19.992 − 99.9 × 0.196 ÷ 0.999 (19.6) − 0.1 × 0.196 ÷ 0.999 (0.0196196) − 0.019992 = 0.35238838
    expect(d.facts).toEqual([
      { type: 'OrderFilled', data: { botId: 'bot', run: 3, fillId: 'f1', clientOrderId: ini1, side: 'buy', price: 100, amount: 1, fee: 0.1, netAmount: 0.999, feeAsset: 'LTC', feeCost: 0.001, cycle: 1, level: 0, late: false, at: 10 } },
      { type: 'TakeProfitFilled', data: { botId: 'bot', run: 3, fillId: 'f2', clientOrderId: sell.clientOrderId, side: 'sell', price: 102, amount: 0.196, fee: 0.019992, feeAsset: 'USDT', feeCost: 0.019992, cycle: 2, tpSeq: 2, profit: 0.35238838, at: 20 } },
      { type: 'ProfitRealized', data: { botId: 'bot', amount: 0.35238838, totalProfit: 0, cycle: 2, run: 3, fillId: 'f2' } },
    ]);
    expect(d.engine.position.amount).toBe(0.803);
    // the same fills again: nothing
    expect(decideInfinityFills(toInfinityConfig(config), rules, { botId: 'bot', run: 3, base: 'LTC' }, d.engine, [buy, sell]).facts).toEqual([]);
  });
});
