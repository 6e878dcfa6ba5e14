import { DuplicateOrderError, InvalidOrderError } from './exchange.errors';
import { toUnits } from './fixed-point';
import { newAccount } from './paper-accounts';
import { checkOrder, symbolRulesOf } from './paper-order-rules';
import type { OrderRow } from './paper.store';
import { BINANCE_SPOT, KUCOIN_FUTURES } from './venues/venue-rules';
import { PaperExchangeProvider, PaperVenue } from './paper.exchange';
import { CsvReplayFeed } from './paper-price-feed';

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

describe('paper order rules: the venue\'s maximums (issue 39)', () => {
  const a = newAccount('u', 'Binance', 'spot');
  const capped = symbolRulesOf({ symbol: 'BTCUSDT', startPrice: '95000', priceStep: '0.01', amountStep: '0.00001', minNotional: '5', maxAmount: '9000', maxNotional: '9000000' });
  const req = { symbol: 'BTCUSDT', side: 'buy' as const, price: 900, amount: 9000, clientOrderId: 'max-1' };
  it('an amount above LOT_SIZE maxQty is refused (the stand-in answers it as Binance does: -1013 LOT_SIZE); at it, accepted', () => {
    expect(checkOrder(a, capped, BINANCE_SPOT, req, now).amount).toBe(toUnits(9000));
    expect(() => checkOrder(a, capped, BINANCE_SPOT, { ...req, amount: 9000.00001 }, now)).toThrow(/amount must be at most 9000/);
  });
  it('a limit order worth more than NOTIONAL maxNotional is refused', () => {
    expect(() => checkOrder(a, capped, BINANCE_SPOT, { ...req, price: 1001, amount: 9000 }, now)).toThrow(/order value must be at most 9000000 USDT/);
  });
});

describe("paper order rules: the account's own venue market (issue 32)", () => {
  /** A paper venue at 1000 ms on the given price rows (`ms,exchange,symbol,price`), and its provider. */
  const pricedAt1000 = (rows: string) => {
    const venue = new PaperVenue({ store: ':memory:', feed: new CsvReplayFeed(`ms,exchange,symbol,price\n${rows}`) });
    venue.advanceTo(1000);
    return { venue, provider: new PaperExchangeProvider(venue) };
  };

  it("Binance's SOLUSDT perpetual refuses 0.5 SOL that its spot market takes, and reports its own steps", async () => {
    const { venue, provider } = pricedAt1000('1000,Binance,SOLUSDT,140\n');
    const spot = await provider.for({ userId: 'u', exchange: 'Binance', market: 'spot' });
    const futures = await provider.for({ userId: 'u', exchange: 'Binance', market: 'futures' });
    const req = { symbol: 'SOLUSDT', side: 'buy' as const, price: 130, amount: 0.5, clientOrderId: 'half' };
    expect(await spot.createLimitOrder(req)).toMatchObject({ status: 'open', amount: 0.5 });
    await expect(futures.createLimitOrder(req)).rejects.toThrow('amount must be a multiple of 1');
    expect(await futures.createLimitOrder({ ...req, amount: 1 })).toMatchObject({ status: 'open', amount: 1 });
    expect(await futures.marketRules('SOLUSDT')).toMatchObject({ amountStep: 1, minAmount: 1, minNotional: 5 });
    expect(await spot.marketRules('SOLUSDT')).toMatchObject({ amountStep: 0.001, minAmount: 0.001, minNotional: 5 });
    venue.close();
  });

  it("Binance's BTCUSDT perpetual refuses an order worth less than 100 USDT; Kucoin's contract takes one lot of 0.001 BTC", async () => {
    const { venue, provider } = pricedAt1000('1000,Binance,BTCUSDT,95000\n1000,Kucoin,BTCUSDT,95000\n');
    const binance = await provider.for({ userId: 'u', exchange: 'Binance', market: 'futures' });
    const kucoin = await provider.for({ userId: 'u', exchange: 'Kucoin', market: 'futures' });
    // 0.001 BTC × 90000 = 90 USDT < 100
    await expect(binance.createLimitOrder({ symbol: 'BTCUSDT', side: 'buy', price: 90000, amount: 0.001, clientOrderId: 'b1' })).rejects.toThrow('order value must be at least 100 USDT');
    // 0.002 × 90000 = 180 ≥ 100
    expect(await binance.createLimitOrder({ symbol: 'BTCUSDT', side: 'buy', price: 90000, amount: 0.002, clientOrderId: 'b2' })).toMatchObject({ status: 'open' });
    expect(await kucoin.createLimitOrder({ symbol: 'BTCUSDT', side: 'buy', price: 90000, amount: 0.001, clientOrderId: 'k1' })).toMatchObject({ status: 'open' });
    await expect(kucoin.createLimitOrder({ symbol: 'BTCUSDT', side: 'buy', price: 90000, amount: 0.0015, clientOrderId: 'k2' })).rejects.toThrow('amount must be a multiple of 0.001');
    venue.close();
  });
});
