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

/**
 * A CSV of candles read a piece at a time (an upload as its request streams in): `push` each chunk
 * of text, `end` for the candles. Only the unfinished last line is kept between chunks. A time given
 * twice (1700000000 and 1700000000000 are the same time) is refused, naming both lines: a backtest
 * must not silently keep one of two candles.
 */
export class CandleCsvParser {
  private readonly out: Candle[] = [];
  private readonly lineOf = new Map<number, number>();
  private rest = '';
  private line = 0;

  constructor(private readonly maxRows = MAX_CANDLES) {}

  push(text: string): void {
    const lines = (this.rest + text).split('\n');
    this.rest = lines.pop()!;
    for (const l of lines) this.take(l);
  }

  end(): Candle[] {
    if (this.rest !== '') this.take(this.rest);
    this.rest = '';
    if (this.out.length === 0) throw new CsvCandleError('CSV: no candles');
    return this.out;
  }

  private take(raw: string): void {
    const n = ++this.line;
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const cells = line.split(/[,;\t]/).map((c) => c.trim());
    if (this.out.length === 0 && Number.isNaN(parseTime(cells[0]))) return; // header
    if (cells.length < 5) throw new CsvCandleError(`CSV line ${n}: expected time,open,high,low,close`);
    const [open, high, low, close] = cells.slice(1, 5).map(Number);
    const c: Candle = { time: parseTime(cells[0]), open, high, low, close };
    const problem = candleProblem(c);
    if (problem) throw new CsvCandleError(`CSV line ${n}: ${problem}`);
    const first = this.lineOf.get(c.time);
    if (first !== undefined) throw new CsvCandleError(`CSV line ${n}: time ${new Date(c.time).toISOString()} is also on line ${first}`);
    this.lineOf.set(c.time, n);
    this.out.push(c);
    if (this.out.length > this.maxRows) throw new CsvCandleError(`CSV: more than ${this.maxRows} candles`);
  }
}

export function parseCandleCsv(text: string, maxRows = MAX_CANDLES): Candle[] {
  const parser = new CandleCsvParser(maxRows);
  parser.push(text);
  return parser.end();
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
