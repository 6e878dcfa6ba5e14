import type { BacktestHistory } from '../domain/backtest.events';
import type { MarketRules } from '@gridrocket/trading/grid';
import type { CandleSeries } from '../domain/candle';
import type { FeeTerms } from '../domain/backtest.engine';

/** The candles of one market and timeframe whose open times are in [from, to) (ms): what a backtest's history names. */
export type CandleQuery = Pick<BacktestHistory, 'exchange' | 'market' | 'symbol' | 'timeframe' | 'from' | 'to'>;

/** The venue's trading rules and fee for a backtest, and where the fee comes from. */
export interface VenueTerms extends FeeTerms {
  rules: MarketRules;
  feeSource: string;
}

/** Where candles come from: the exchange (ccxt), the paper venue, or an uploaded CSV. */
export interface CandleSource {
  readonly name: string;
  candles(query: CandleQuery, onProgress?: (fraction: number) => void): Promise<CandleSeries>;
  terms(query: Pick<CandleQuery, 'exchange' | 'market' | 'symbol'>): Promise<VenueTerms>;
}

export const CANDLE_SOURCE = Symbol('CANDLE_SOURCE');

/** Most candles one backtest reads (a year of 1-minute candles). */
export const MAX_CANDLES = 527_040;
