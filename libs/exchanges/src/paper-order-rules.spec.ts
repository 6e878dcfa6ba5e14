import { DuplicateOrderError, InvalidOrderError } from './exchange.errors';
import { toUnits } from './fixed-point';
import { newAccount } from './paper-accounts';
import { checkOrder, symbolRulesOf } from './paper-order-rules';
import type { OrderRow } from './paper.store';
import { BINANCE_SPOT, KUCOIN_FUTURES } from './venues/venue-rules';

const BTC = symbolRulesOf({ symbol: 'BTCUSDT', startPrice: '95000', priceStep: '0.01', amountStep: '0.00001', minNotional: '5' });
const now = toUnits(95000);

describe('paper order rules (the venue rules applied to an order)', () => {
  const a = newAccount('u', 'Binance', 'spot');
  const req = { symbol: 'BTCUSDT', side: 'buy' as const, price: 90000, amount: 0.001, clientOrderId: 'ok-1' };

  it('accepts an order on the steps and above the minimum; a market order takes the current price', () => {
    expect(checkOrder(a, BTC, BINANCE_SPOT, req, now)).toEqual({ symbol: 'BTCUSDT', market: false, price: toUnits(90000), amount: toUnits(0.001), notional: toUnits(90), reduceOnly: false });
    expect(checkOrder(a, BTC, BINANCE_SPOT, { ...req, price: undefined }, now)).toMatchObject({ market: true, price: now });
  });

  it('refuses what the venue refuses', () => {
    expect(() => checkOrder(a, BTC, BINANCE_SPOT, { ...req, price: 90000.001 }, now)).toThrow(/price must be a multiple/);
    expect(() => checkOrder(a, BTC, BINANCE_SPOT, { ...req, amount: 0.000015 }, now)).toThrow(/amount must be a multiple/);
    expect(() => checkOrder(a, BTC, BINANCE_SPOT, { ...req, amount: 0.00001 }, now)).toThrow(/order value/);
    expect(() => checkOrder(a, BTC, BINANCE_SPOT, { ...req, clientOrderId: 'x'.repeat(37) }, now)).toThrow(InvalidOrderError);
    expect(() => checkOrder(a, BTC, BINANCE_SPOT, { ...req, positionSide: 'LONG' }, now)).toThrow(/position side/);
    const f = newAccount('u', 'Kucoin', 'futures');
    expect(() => checkOrder(f, BTC, KUCOIN_FUTURES, { ...req, clientOrderId: 'a/b' }, now)).toThrow(/1 to 40/);
    // Kucoin futures has no minimum order value
    expect(checkOrder(f, BTC, KUCOIN_FUTURES, { ...req, amount: 0.00001 }, now).amount).toBe(toUnits(0.00001));
    a.open.set('dup', {} as OrderRow);
    expect(() => checkOrder(a, BTC, BINANCE_SPOT, { ...req, clientOrderId: 'dup' }, now)).toThrow(DuplicateOrderError);
  });
});
