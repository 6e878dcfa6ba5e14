import { CandleCsvParser, CsvCandleError, CsvCandleSource, parseCandleCsv } from './csv.candles';
import { PaperCandleSource } from './paper.candles';

describe('CSV candles', () => {
  it('reads ms, seconds or ISO times with an optional header, sorted', async () => {
    const rows = parseCandleCsv('time,open,high,low,close,volume\n1700000060,2,3,1,2.5,10\n2023-11-14T22:13:20Z,1,2,0.5,1.5\n');
    expect(rows.map((r) => r.time)).toEqual([1_700_000_060_000, 1_700_000_000_000]);
    const s = await new CsvCandleSource('1700000060000,2,3,1,2.5\n1700000000000,1,2,0.5,1.5').candles({} as never);
    expect(Array.from(s.time)).toEqual([1_700_000_000_000, 1_700_000_060_000]);
  });

  it('names the line of a bad candle', () => {
    expect(() => parseCandleCsv('1700000000000,1,2,0.5,1.5\n1700000060000,1,0.9,0.5,1')).toThrow(new CsvCandleError('CSV line 2: low/high do not contain open and close'));
    expect(() => parseCandleCsv('1700000000000,1,2')).toThrow(/CSV line 1: expected time,open,high,low,close/);
    expect(() => parseCandleCsv('')).toThrow(/no candles/);
  });

  it('reads a file in pieces cut anywhere (an upload as it streams in), with the same lines', () => {
    const good = 'time,open,high,low,close\r\n1700000000000,1,2,0.5,1.5\r\n\r\n1700000060,2,3,1,2.5\n';
    for (const size of [1, 3, 7, 64]) {
      const parser = new CandleCsvParser();
      for (let i = 0; i < good.length; i += size) parser.push(good.slice(i, i + size));
      expect(parser.end().map((c) => c.time)).toEqual([1_700_000_000_000, 1_700_000_060_000]);
    }
    const bad = new CandleCsvParser();
    bad.push(good + '1700000120000,1,0.9,');
    expect(() => bad.push('0.5,1\n')).toThrow(new CsvCandleError('CSV line 5: low/high do not contain open and close'));
  });

  it('refuses a time given twice, naming both lines (seconds and ms of one time are the same time)', () => {
    expect(() => parseCandleCsv('1700000000,1,2,0.5,1.5\n1700000060,1,2,0.5,1.5\n1700000000000,1,2,0.5,1.5')).toThrow(
      new CsvCandleError('CSV line 3: time 2023-11-14T22:13:20.000Z is also on line 1'),
    );
  });
});

describe('paper candles', () => {
  it('give the same history for the same query, on the symbol\'s price step, offline', async () => {
    const q = { exchange: 'Binance' as const, market: 'spot' as const, symbol: 'SOLUSDT', timeframe: '1m' as const, from: 1_700_000_000_000, to: 1_700_000_000_000 + 30 * 86_400_000 };
    const a = await new PaperCandleSource().candles(q);
    const b = await new PaperCandleSource().candles(q);
    expect(a.length).toBe(43_200);
    expect(Array.from(a.close)).toEqual(Array.from(b.close));
    for (let i = 0; i < a.length; i += 997) {
      expect(a.low[i]).toBeLessThanOrEqual(Math.min(a.open[i], a.close[i]));
      expect(Math.round(a.close[i] * 100) / 100).toBe(a.close[i]);
    }
    expect(await new PaperCandleSource().terms(q)).toMatchObject({ rules: { priceStep: 0.01, amountStep: 0.001, minNotional: 5 }, feeBps: 10 });
  });
});
