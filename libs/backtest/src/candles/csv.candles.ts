/**
 * Candles from a CSV: `time,open,high,low,close[,volume]` per line; time in ms since the epoch, in
 * seconds, or ISO 8601. An optional header line, blank lines and # comments are allowed. Errors name
 * the line. The venue terms come from the paper catalogue for the symbol (a CSV carries none) unless
 * given.
 */
import { candleProblem, toSeries, type Candle, type CandleSeries } from '../domain/candle';
import { MAX_CANDLES, type CandleQuery, type CandleSource, type VenueTerms } from './candle-source.port';
import { paperTerms } from './paper.candles';

export class CsvCandleError extends Error {}

function parseTime(cell: string): number {
  if (/^\d{9,10}$/.test(cell)) return Number(cell) * 1000;
  if (/^\d{11,14}$/.test(cell)) return Number(cell);
  const t = Date.parse(cell);
  return Number.isFinite(t) ? t : NaN;
}

export function parseCandleCsv(text: string, maxRows = MAX_CANDLES): Candle[] {
  const out: Candle[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '' || line.startsWith('#')) continue;
    const cells = line.split(/[,;\t]/).map((c) => c.trim());
    if (out.length === 0 && Number.isNaN(parseTime(cells[0]))) continue; // header
    if (cells.length < 5) throw new CsvCandleError(`CSV line ${i + 1}: expected time,open,high,low,close`);
    const [open, high, low, close] = cells.slice(1, 5).map(Number);
    const c: Candle = { time: parseTime(cells[0]), open, high, low, close };
    const problem = candleProblem(c);
    if (problem) throw new CsvCandleError(`CSV line ${i + 1}: ${problem}`);
    out.push(c);
    if (out.length > maxRows) throw new CsvCandleError(`CSV: more than ${maxRows} candles`);
  }
  if (out.length === 0) throw new CsvCandleError('CSV: no candles');
  return out;
}

export class CsvCandleSource implements CandleSource {
  readonly name = 'csv';
  private readonly series: CandleSeries;

  constructor(text: string, private readonly venue?: VenueTerms) {
    this.series = toSeries(parseCandleCsv(text));
  }

  /** Every candle of the file (the query's range is the file's). */
  async candles(_q: CandleQuery, onProgress?: (fraction: number) => void): Promise<CandleSeries> {
    onProgress?.(1);
    return this.series;
  }

  async terms(q: Pick<CandleQuery, 'exchange' | 'market' | 'symbol'>): Promise<VenueTerms> {
    return this.venue ?? paperTerms(q);
  }
}
