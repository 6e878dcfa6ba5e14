import { InsufficientFundsError, InvalidOrderError } from './exchange.errors';
import { toUnits } from './fixed-point';
import { balanceRecords, changeLeverage, futuresAvailable, hold, newAccount, openPositions, release, settle, UnitOfWork } from './paper-accounts';
import { holdRateBps } from './paper-matching';
import { symbolRulesOf } from './paper-order-rules';
import type { OrderRow } from './paper.store';
import { BINANCE_SPOT, BINANCE_USDM, KUCOIN_SPOT } from './venues/venue-rules';

const BTC = symbolRulesOf({ symbol: 'BTCUSDT', startPrice: '95000', priceStep: '0.01', amountStep: '0.00001', minNotional: '5' });
const u = toUnits;

function order(o: Partial<OrderRow> & Pick<OrderRow, 'side' | 'price' | 'amount' | 'reserved'>, market: 'spot' | 'futures' = 'spot'): OrderRow {
  return { id: 1, userId: 'u', exchange: 'Binance', market, symbol: 'BTCUSDT', clientOrderId: 'c', filled: 0, status: 'open', reduceOnly: false, fee: 0, fillCost: 0, createdAt: 0, updatedAt: 0, ...o };
}

describe('paper accounts: held funds, margin and settlement', () => {
  it('Binance spot: a buy holds the notional only and is settled with the fee taken in the coin', () => {
    const a = newAccount('u', 'Binance', 'spot');
    a.assets.set('USDT', { total: u(1000), locked: 0 });
    const uow = new UnitOfWork();
    const reserved = hold(a, BTC, BINANCE_SPOT, { symbol: 'BTCUSDT', side: 'buy', reduceOnly: false, amount: u(0.01), notional: u(940), feeBps: holdRateBps(BINANCE_SPOT, false) }, uow);
    expect(reserved).toBe(u(940));
    const s = settle(a, BTC, BINANCE_SPOT, order({ side: 'buy', price: u(94000), amount: u(0.01), reserved }), u(94000), 10, uow);
    expect(s).toEqual({ amount: u(0.01), fee: u(0.94), feeAsset: 'BTC', feeCost: u(0.00001), realizedPnl: null });
    expect(balanceRecords(a)).toEqual([
      { symbol: 'USDT', exchange: 'Binance', balance: 60, available: 60 },
      { symbol: 'BTC', exchange: 'Binance', balance: 0.00999, available: 0.00999 },
    ]);
    // an oversell is refused
    expect(() => hold(a, BTC, BINANCE_SPOT, { symbol: 'BTCUSDT', side: 'sell', reduceOnly: false, amount: u(0.01), notional: u(960), feeBps: 10 }, uow)).toThrow(InsufficientFundsError);
  });

  it('Kucoin spot: a buy holds notional + fee in USDT and receives the full amount', () => {
    const a = newAccount('u', 'Kucoin', 'spot');
    a.assets.set('USDT', { total: u(1000), locked: 0 });
    const uow = new UnitOfWork();
    const reserved = hold(a, BTC, KUCOIN_SPOT, { symbol: 'BTCUSDT', side: 'buy', reduceOnly: false, amount: u(0.01), notional: u(940), feeBps: 10 }, uow);
    expect(reserved).toBe(u(940.94));
    const s = settle(a, BTC, KUCOIN_SPOT, order({ side: 'buy', price: u(94000), amount: u(0.01), reserved }), u(94000), 10, uow);
    expect(s.feeAsset).toBe('USDT');
    expect(balanceRecords(a).find((b) => b.symbol === 'BTC')).toMatchObject({ balance: 0.01 });
  });

  it('a cancel releases what the order held', () => {
    const a = newAccount('u', 'Binance', 'spot');
    a.assets.set('USDT', { total: u(1000), locked: 0 });
    const uow = new UnitOfWork();
    const reserved = hold(a, BTC, BINANCE_SPOT, { symbol: 'BTCUSDT', side: 'buy', reduceOnly: false, amount: u(0.01), notional: u(940), feeBps: 10 }, uow);
    const o = order({ side: 'buy', price: u(94000), amount: u(0.01), reserved });
    release(a, BTC, o, uow);
    expect(balanceRecords(a)[0]).toMatchObject({ balance: 1000, available: 1000 });
    expect(o.reserved).toBe(0);
  });

  it('futures: margin = notional ÷ leverage + fee; a close realises profit; lowering leverage needs margin', () => {
    const a = newAccount('u', 'Binance', 'futures');
    a.assets.set('USDT', { total: u(100), locked: 0 });
    changeLeverage(a, 'BTCUSDT', 10, 'isolated');
    const uow = new UnitOfWork();
    const reserved = hold(a, BTC, BINANCE_USDM, { symbol: 'BTCUSDT', side: 'buy', reduceOnly: false, amount: u(0.01), notional: u(940), feeBps: 2 }, uow);
    expect(reserved).toBe(u(94 + 0.188));
    settle(a, BTC, BINANCE_USDM, order({ side: 'buy', price: u(94000), amount: u(0.01), reserved }, 'futures'), u(94000), 2, uow);
    expect(openPositions(a)).toEqual([{ symbol: 'BTCUSDT', amount: 0.01, entryPrice: 94000, leverage: 10, marginMode: 'isolated' }]);
    expect(futuresAvailable(a)).toBe(u(100 - 0.188 - 94));
    expect(() => changeLeverage(a, 'BTCUSDT', 1, 'isolated')).toThrow(InsufficientFundsError);
    expect(() => hold(a, BTC, BINANCE_USDM, { symbol: 'BTCUSDT', side: 'buy', reduceOnly: true, amount: u(0.01), notional: u(940), feeBps: 2 }, uow)).toThrow(InvalidOrderError);
    const close = settle(a, BTC, BINANCE_USDM, order({ side: 'sell', price: u(95000), amount: u(0.02), reserved: 0, reduceOnly: true }, 'futures'), u(95000), 2, uow);
    expect(close).toMatchObject({ amount: u(0.01), realizedPnl: u(10), fee: u(0.19) }); // capped at the position
    expect(openPositions(a)).toEqual([]);
  });
});
