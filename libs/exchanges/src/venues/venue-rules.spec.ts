import { BINANCE_SPOT, BINANCE_USDM, KUCOIN_FUTURES, KUCOIN_SPOT, fillFee, minTakeProfitPercent, netBoughtAmount, tradeWindows, validClientOrderId } from './venue-rules';

const DAY = 86_400_000;

describe('venue rules (pure)', () => {
  it('the minimum take-profit covers a round trip of maker fees, rounded up to 0.01 %', () => {
    expect(minTakeProfitPercent(BINANCE_SPOT.fees.maker)).toBe(0.21); // (1.001 / 0.999 − 1) = 0.2002 %
    expect(minTakeProfitPercent(KUCOIN_SPOT.fees.maker)).toBe(0.21);
    expect(minTakeProfitPercent(BINANCE_USDM.fees.maker)).toBe(0.05); // 0.04 % + a hair
    expect(minTakeProfitPercent(KUCOIN_FUTURES.fees.maker)).toBe(0.05);
    // a market's own maker rate (a VIP tier, a contract's listing) moves the minimum with it
    expect(minTakeProfitPercent(0.00075)).toBe(0.16); // 0.15011 %
    expect(minTakeProfitPercent(0)).toBe(0.01);
    // at the minimum a cycle gains, just below it a cycle loses
    const m = BINANCE_SPOT.fees.maker;
    const cycle = (tp: number) => 100 * (1 + tp / 100) * (1 - m) - 100 * (1 + m);
    expect(cycle(0.21)).toBeGreaterThan(0);
    expect(cycle(0.2)).toBeLessThan(0);
  });

  it('Binance spot charges a buy in the coin received, a sell in the quote; BNB at a discount', () => {
    const opts = { base: 'BTC', quote: 'USDT' };
    expect(fillFee(BINANCE_SPOT, { side: 'buy', price: 94000, amount: 0.001, role: 'maker' }, opts)).toEqual({ asset: 'BTC', cost: 0.000001, quoteValue: 0.094 });
    expect(fillFee(BINANCE_SPOT, { side: 'sell', price: 96000, amount: 0.001, role: 'maker' }, opts).asset).toBe('USDT');
    const bnb = fillFee(BINANCE_SPOT, { side: 'buy', price: 94000, amount: 0.001, role: 'maker' }, { ...opts, payInDiscountAsset: true, discountAssetPrice: 600 });
    expect(bnb.asset).toBe('BNB');
    expect(bnb.quoteValue).toBeCloseTo(0.0705, 10);
    expect(bnb.cost).toBeCloseTo(0.0705 / 600, 12);
    expect(fillFee(KUCOIN_SPOT, { side: 'buy', price: 94000, amount: 0.001, role: 'taker' }, opts).asset).toBe('USDT');
    expect(netBoughtAmount(BINANCE_SPOT, 0.01)).toBeCloseTo(0.00999, 12);
    expect(netBoughtAmount(KUCOIN_SPOT, 0.01)).toBe(0.01);
  });

  it('trade-history windows cover [since, now] without a gap, each within the venue limit', () => {
    for (const rules of [BINANCE_SPOT, BINANCE_USDM, KUCOIN_SPOT, KUCOIN_FUTURES]) {
      const since = 1_700_000_000_000;
      const now = since + 20 * DAY + 123;
      const w = tradeWindows(rules, since, now);
      expect(w[0][0]).toBe(since);
      expect(w.at(-1)![1]).toBe(now);
      for (let i = 0; i < w.length; i++) {
        expect(w[i][1] - w[i][0]).toBeLessThanOrEqual(rules.tradeHistory.maxWindowMs);
        if (i > 0) expect(w[i][0]).toBe(w[i - 1][1] + 1);
      }
    }
  });

  it('client order ids: Binance 36 of [.A-Z:/a-z0-9_-], Kucoin 40 of [A-Za-z0-9_-]', () => {
    expect(validClientOrderId(BINANCE_SPOT, 'gr-abc.1:2/3_x')).toBe(true);
    expect(validClientOrderId(BINANCE_SPOT, 'x'.repeat(37))).toBe(false);
    expect(validClientOrderId(KUCOIN_SPOT, 'x'.repeat(40))).toBe(true);
    expect(validClientOrderId(KUCOIN_FUTURES, 'a.b')).toBe(false);
  });
});
