import { paperTerms } from './paper.candles';

describe('paper terms: the fee note a user reads under a backtest (issue 29, finding 9)', () => {
  it('says the venue and its fees in words, without source paths or float noise', () => {
    for (const market of ['spot', 'futures'] as const) {
      const { feeSource, feeBps, takerFeeBps } = paperTerms({ exchange: 'Binance', market, symbol: 'BTCUSDT' });
      expect(feeSource).toMatch(new RegExp(`^paper exchange with Binance ${market} fees: maker [0-9.]+ %, taker [0-9.]+ %$`));
      expect(feeSource).not.toMatch(/libs\/|docs\/|\.md|\.ts/);
      // the figures are the ones the backtest charges
      const [maker, taker] = [...feeSource.matchAll(/([0-9.]+) %/g)].map((m) => Number(m[1]));
      expect(maker).toBeCloseTo(feeBps / 100, 10);
      expect(taker).toBeCloseTo(takerFeeBps! / 100, 10);
    }
  });
});
