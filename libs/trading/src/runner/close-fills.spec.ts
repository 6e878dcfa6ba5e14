import type { Fill as ExchangeFill } from '@gridrocket/exchanges';
import { buyOrderId } from '../grid/client-order-id';
import { initialNeutralState, neutralClose, processNeutralFill } from '../styles/neutral/neutral.engine';
import { closeOnAverage } from '../grid/position-close';
import { closeFillFacts, closeProfits } from './close-fills';

const fill = (fillId: string, side: 'buy' | 'sell', price: number, amount: number, fee: number, timestamp = 10): ExchangeFill => ({
  fillId, clientOrderId: 'gr-abcdefgh-3-close', exchangeOrderId: 'x', symbol: 'BTCUSDT', side, price, amount, fee, feeAsset: 'USDT', feeCost: fee, timestamp,
});

describe('what a stop\'s market close realises (issue 40)', () => {
  it('a long on its average cost, its buy fees and its own fee: whole, and in two fills the second on what is left', () => {
    // held 0.01998 BTC bought at 60,000 and 59,000 (0.00999 each, fees worth 0.6 and 0.59): cost 1188.81
    const held = { amount: 0.01998, cost: 1188.81, buyFees: 1.19 };
    // sold at 58,500, fee 1.16883: 1168.83 − 1.16883 − 1188.81 − 1.19
    expect(closeOnAverage(held, false, { price: 58500, amount: 0.01998, fee: 1.16883 })).toEqual({ held: { amount: 0, cost: 0, buyFees: 0 }, profit: -22.33883 });
    // half at 58,500 (fee 0.584415), half at 58,000 (fee 0.57942), each on half the cost (594.405) and fees (0.595):
    // 584.415 − 0.584415 − 594.405 − 0.595 and 579.42 − 0.57942 − 594.405 − 0.595
    expect(closeProfits({ kind: 'average', held, short: false }, [fill('a', 'sell', 58500, 0.00999, 0.584415), fill('b', 'sell', 58000, 0.00999, 0.57942)])).toEqual([-11.169415, -16.15942]);
    // beyond what is held: only its fee
    expect(closeOnAverage({ amount: 0, cost: 0, buyFees: 0 }, false, { price: 58500, amount: 0.001, fee: 0.0585 }).profit).toBe(-0.0585);
  });

  it('a short bought back: the quote its sells received less what buying back cost', () => {
    // short 1 LTC sold at 100 and 102 (101 received, fees 0.0202), bought back at 102.5 (fee 0.05125)
    expect(closeOnAverage({ amount: 1, cost: 101, buyFees: 0.0202 }, true, { price: 102.5, amount: 1, fee: 0.05125 }).profit).toBe(-1.57145);
  });

  it('a neutral grid on its lots, latest first (its stop-loss\'s way): the lot\'s price and opening fee', () => {
    const rules = { priceStep: 0.0001, amountStep: 0.1, minNotional: 5 };
    const start = initialNeutralState({ style: undefined, botType: 'Futures', direction: 'neutral', entryPrice: 0.5, interval: 0.01, numOfOrders: 2, orderSize: 20, leverage: 5 } as never, rules, 'bot-n');
    // lines 0.48, 0.49 | 0.5 | 0.51, 0.52: the buy of 20 at 0.49 (line 1) fills, fee 0.00196
    const s = processNeutralFill(start, { clientOrderId: buyOrderId('bot-n', start.lines[1].generation, 1), fillId: 'o1', price: 0.49, amount: 20, fee: 0.00196 }).state;
    expect({ position: s.position, lots: s.lots }).toEqual({ position: 20, lots: [{ side: 'long', line: 1, price: 0.49, amount: 20, fee: 0.00196 }] });
    // sold at 0.485 (fee 0.00485): (0.485 − 0.49) × 20 − 0.00196 − 0.00485
    expect(closeProfits({ kind: 'engine', state: s, close: neutralClose }, [fill('c', 'sell', 0.485, 20, 0.00485)])).toEqual([-0.10681]);
  });

  it('the history facts: per fill a PositionClosed with its fee and what it realised, and its ProfitRealized, in the order the fills happened', () => {
    const facts = closeFillFacts({ botId: 'b1', run: 4, cycle: 3, base: 'BTC' }, { kind: 'average', held: { amount: 0.01998, cost: 1188.81, buyFees: 1.19 }, short: false }, [
      fill('b', 'sell', 58000, 0.00999, 0.57942, 20),
      fill('a', 'sell', 58500, 0.00999, 0.584415, 10),
    ]);
    expect(facts.map((f) => [f.type, (f.data as { fillId: string }).fillId, (f.data as { profit?: number; amount: number }).profit ?? (f.data as { amount: number }).amount])).toEqual([
      ['PositionClosed', 'a', -11.169415],
      ['ProfitRealized', 'a', -11.169415],
      ['PositionClosed', 'b', -16.15942],
      ['ProfitRealized', 'b', -16.15942],
    ]);
    expect(facts[0].data).toEqual({ botId: 'b1', run: 4, fillId: 'a', clientOrderId: 'gr-abcdefgh-3-close', side: 'sell', price: 58500, amount: 0.00999, fee: 0.584415, feeAsset: 'USDT', feeCost: 0.584415, cycle: 3, profit: -11.169415, at: 10 });
    expect(facts[1].data).toEqual({ botId: 'b1', amount: -11.169415, totalProfit: 0, cycle: 3, run: 4, fillId: 'a' });
  });
});
