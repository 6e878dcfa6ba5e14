import { MARKETS, MARKET_SOURCES, marketSpec } from './markets';

const catalogue = { priceStep: '0.01', amountStep: '0.001', minNotional: '5' }; // SOLUSDT's catalogue row

describe('venue markets: each venue market has its own steps and minimums (issue 32)', () => {
  it("Binance's SOLUSDT perpetual trades whole coins where the other markets take 0.001 SOL", () => {
    expect(marketSpec('Binance', 'futures', 'SOLUSDT', catalogue)).toMatchObject({ amountStep: '1', minAmount: '1', minNotional: '5', source: 'ISSUE-32' });
    // Binance spot SOLUSDT: no recorded answer found, the catalogue's values, said so
    expect(marketSpec('Binance', 'spot', 'SOLUSDT', catalogue)).toEqual({ priceStep: '0.01', amountStep: '0.001', minAmount: '0.001', minNotional: '5', source: 'catalogue' });
  });

  it('the same symbol differs by venue and market: BTCUSDT', () => {
    const btc = { priceStep: '0.01', amountStep: '0.00001', minNotional: '5' };
    expect(marketSpec('Binance', 'spot', 'BTCUSDT', btc)).toMatchObject({ priceStep: '0.01', amountStep: '0.00001', minAmount: '0.00001', minNotional: '5' });
    // the perpetual: 0.001 BTC steps and 100 USDT minimum value (MIN_NOTIONAL since 2023-11-02)
    expect(marketSpec('Binance', 'futures', 'btcusdt', btc)).toMatchObject({ priceStep: '0.1', amountStep: '0.001', minAmount: '0.001', minNotional: '100' });
    expect(marketSpec('Kucoin', 'spot', 'BTCUSDT', btc)).toMatchObject({ priceStep: '0.1', amountStep: '0.00000001', minAmount: '0.00001', minNotional: '0.1' });
    // Kucoin futures: contracts of 0.001 BTC (XBTUSDTM multiplier), whole lots of 1: amount step = minimum = 0.001 × 1; no minimum value
    expect(marketSpec('Kucoin', 'futures', 'BTCUSDT', btc)).toEqual({
      priceStep: '0.1',
      amountStep: '0.001',
      minAmount: '0.001',
      minNotional: '0',
      contract: { multiplier: '0.001', lotSize: '1' },
      source: 'KF-SNAP',
    });
  });

  it('a symbol with no source keeps the catalogue values, shaped by the market: Kucoin lots, Binance futures 5 USDT', () => {
    const algo = { priceStep: '0.0001', amountStep: '1', minNotional: '5' };
    expect(marketSpec('Kucoin', 'futures', 'ALGOUSDT', algo)).toEqual({ priceStep: '0.0001', amountStep: '1', minAmount: '1', minNotional: '0', contract: { multiplier: '1', lotSize: '1' }, source: 'catalogue' });
    expect(marketSpec('Binance', 'futures', 'ALGOUSDT', { ...algo, minNotional: '1' })).toMatchObject({ minNotional: '5', source: 'catalogue' });
  });

  it('every row names a source and is self-consistent (minimum on the step, Kucoin futures in lots)', () => {
    for (const [venue, rows] of Object.entries(MARKETS)) {
      for (const [symbol, r] of Object.entries(rows)) {
        expect([venue, symbol, MARKET_SOURCES[r.source]]).toEqual([venue, symbol, expect.any(String)]);
        const k = Number(r.minAmount) / Number(r.amountStep);
        expect([venue, symbol, Math.abs(k - Math.round(k)) < 1e-9]).toEqual([venue, symbol, true]);
        if (venue === 'kucoin-futures') {
          expect([symbol, Number(r.amountStep)]).toEqual([symbol, Number(r.contract!.multiplier) * Number(r.contract!.lotSize)]);
          expect(r.minNotional).toBe('0');
        }
      }
    }
  });
});
