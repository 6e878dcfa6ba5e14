/**
 * The simulated history (issue 40: the history where the server does not reach the venue, labelled
 * simulated): a fixed, seeded history of the paper venue's kind of price feed (a mulberry32 random walk
 * on the symbol's price step, from its catalogue start price). Its seed names the exchange, the symbol
 * and the timeframe, never the period's start or the clock: the same request gives the same candles at any
 * minute, on any day, after any restart (before issue 40 the seed held the period's start, so the "last
 * 30 days" were another history every minute: buy and hold +37.93 %, −14.97 %, −22.86 % within two). The
 * terms are the paper venue's for that market: the venue market's steps and minimums
 * (libs/exchanges/src/venues/markets.ts, as the paper exchange checks orders: issue 32) and its fees.
 */
import { PAPER_SYMBOLS, UnknownSymbolError } from '@gridrocket/exchanges';
import { marketSpec, venueRules } from '@gridrocket/exchanges/venues';
import { TIMEFRAMES, type CandleSeries } from '../domain/candle';
import { randomWalkCandles } from '../domain/synthetic-candles';
import { MAX_CANDLES, type CandleQuery, type CandleSource, type VenueTerms } from './candle-source.port';

function spec(symbol: string) {
  const s = PAPER_SYMBOLS.find((x) => x.symbol === symbol.toUpperCase());
  if (!s) throw new UnknownSymbolError(symbol);
  return s;
}

/** A fee fraction as a percentage without float noise (0.001 → 0.1). */
const pct = (f: number) => String(Number((f * 100).toPrecision(6)));

export function paperTerms(q: Pick<CandleQuery, 'exchange' | 'market' | 'symbol'>): VenueTerms {
  const s = spec(q.symbol);
  const fees = venueRules(q.exchange, q.market).fees;
  const m = marketSpec(q.exchange, q.market, s.symbol, s);
  return {
    rules: { priceStep: Number(m.priceStep), amountStep: Number(m.amountStep), minNotional: Number(m.minNotional), minAmount: Number(m.minAmount) },
    feeBps: fees.maker * 1e4,
    takerFeeBps: fees.taker * 1e4,
    buyFeeIn: fees.buyFeeIn,
    crossingFill: 'market',
    // shown to the user under a backtest's figures: words only (the rules live in libs/exchanges/src/venues,
    // docs/exchanges.md; issue 29 finding 9 found those paths in the dashboard)
    feeSource: `paper exchange with ${q.exchange} ${q.market} fees: maker ${pct(fees.maker)} %, taker ${pct(fees.taker)} %`,
  };
}

/** The seed of the simulated history of a query: exchange, symbol and timeframe (no time of any kind). */
export function simulatedSeed(seed: string | number, q: Pick<CandleQuery, 'exchange' | 'symbol' | 'timeframe'>): string {
  return `simulated|${seed}|${q.exchange}|${q.symbol.toUpperCase()}|${q.timeframe}`;
}

export class PaperCandleSource implements CandleSource {
  readonly name = 'paper';

  /** `shared`: the candles in a SharedArrayBuffer (made in a worker thread, read by others). */
  constructor(
    private readonly seed: string | number = 1,
    private readonly shared = false,
  ) {}

  async candles(q: CandleQuery, onProgress?: (fraction: number) => void): Promise<CandleSeries> {
    const s = spec(q.symbol);
    const tf = TIMEFRAMES[q.timeframe];
    const from = Math.ceil(q.from / tf) * tf;
    const count = Math.min(MAX_CANDLES, Math.max(0, Math.ceil((q.to - from) / tf)));
    const series = randomWalkCandles({
      seed: simulatedSeed(this.seed, q),
      startPrice: Number(s.startPrice),
      priceStep: Number(s.priceStep),
      from,
      count,
      timeframeMs: tf,
      ticksPerCandle: 6,
      maxMoveBps: Math.max(1, Math.round(5 * Math.sqrt(tf / 60_000))),
      shared: this.shared,
    });
    onProgress?.(1);
    return series;
  }

  async terms(q: Pick<CandleQuery, 'exchange' | 'market' | 'symbol'>): Promise<VenueTerms> {
    return paperTerms(q);
  }
}
