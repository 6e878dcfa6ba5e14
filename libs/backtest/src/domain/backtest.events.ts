import type { ExchangeName } from '@gridrocket/shared';
import type { MarketRules } from '@gridrocket/trading/grid';
import type { FeeTerms } from './backtest.engine';
import type { Timeframe } from './candle';
import type { SweepMeasure, SweepRanges } from './sweep';
import type { BacktestStyle, StyledBacktestResult, StyledGrid } from './styles';

export type MarketType = 'spot' | 'futures';

/** What to backtest: fixed when requested (the range is absolute), so a re-run gives the same answer. */
export interface BacktestRequest {
  exchange: ExchangeName;
  market: MarketType;
  symbol: string;
  /** The grid (issue 32: of any style: the ladder long or short, the neutral grid, the infinity grid; styles.ts). */
  config: StyledGrid;
  timeframe: Timeframe;
  from: number;
  to: number;
  /**
   * The venue's terms: paper, the paper venue's model of the venue; exchange, the venue's own (ccxt). The
   * candles are the venue's where the server reaches it, else simulated, in either (issue 40: `history`).
   */
  source: 'paper' | 'exchange';
  /** Candles of an uploaded CSV (POST /api/backtests/candles) instead of the source's; from/to are the file's. */
  candlesId?: string;
  /** `styles`: the grid styles compared on the same candles (absent: the config's own style). */
  sweep?: { ranges: SweepRanges; measure: SweepMeasure; styles?: BacktestStyle[] };
}

/** One combination of a sweep as kept: the figures the heatmap and the table show. */
export interface SweepPoint {
  /** The grid style of this combination (issue 32; absent in sweeps recorded before it: their request's style). */
  style?: BacktestStyle;
  interval: number;
  numOfOrders: number;
  /** null for the styles without a take-profit (neutral, infinity). */
  takeProfit: number | null;
  profit: number | null;
  unrealised: number | null;
  totalReturn: number | null;
  annualisedReturn: number | null;
  maxDrawdownPct: number | null;
  cycles: number | null;
  fills: number | null;
  fees: number | null;
  error?: string;
}

/**
 * Where a backtest's candles came from (issue 40), named in its result and shown with it: `venue`, the
 * exchange's own candles (ccxt's public OHLCV, cached in the candle store); `simulated`, the fixed, seeded
 * history (the same request, the same candles, whenever and wherever it runs: not market prices); `upload`,
 * the user's CSV. Absent on backtests completed before issue 40.
 */
export interface BacktestHistory {
  source: 'venue' | 'simulated' | 'upload';
  simulated: boolean;
  exchange: ExchangeName;
  market: MarketType;
  symbol: string;
  timeframe: Timeframe;
  /** The period: [from, to) in ms, as requested (an upload: its first and last candle's open time). */
  from: number;
  to: number;
  candles: number;
  /** Simulated: the seed the candles are made from. */
  seed?: string;
  /** Simulated: why not the venue's candles (not reached, refused, no candles then, or the server's setting). */
  reason?: string;
  /** The history in words, as the dashboard shows it. */
  label: string;
}

export interface BacktestTerms extends FeeTerms {
  rules: MarketRules;
  feeSource: string;
}

export type BacktestEvent =
  | { type: 'BacktestRequested'; data: { backtestId: string; userId: string; kind: 'single' | 'sweep'; request: BacktestRequest } }
  | {
      type: 'BacktestCompleted';
      data: {
        backtestId: string;
        terms: BacktestTerms;
        candles: number;
        /** Issue 40: where the candles came from. */
        history?: BacktestHistory;
        result?: Omit<StyledBacktestResult, 'fillLog'>;
        sweep?: { points: SweepPoint[]; best: SweepPoint | null };
      };
    }
  | { type: 'BacktestFailed'; data: { backtestId: string; reason: string } }
  /** Its owner cancelled it (DELETE /api/backtests/{id}) while it was queued or running. */
  | { type: 'BacktestCancelled'; data: { backtestId: string } }
  /** The process stopped while it ran (found `running` at the next start): never run again. */
  | { type: 'BacktestInterrupted'; data: { backtestId: string } };

export const BACKTEST_STREAM_PREFIX = 'backtest-';
export const backtestStream = (id: string) => `${BACKTEST_STREAM_PREFIX}${id}`;
