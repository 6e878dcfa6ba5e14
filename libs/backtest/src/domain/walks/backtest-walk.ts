/**
 * A grid style's backtest walk (issue 42): how the backtest and the sweep run one style on candles. The
 * style's runner side is libs/trading/src/styles/<style>/ (GridStyle); libs/backtest depends on libs/trading,
 * so the walks, which need the candles and the equity walk, live here, one file per style, in the walk
 * table of styles.ts, keyed by the names the backtest and the sweep take (`BacktestStyle`).
 * Pure: the job pool runs them in worker threads.
 */
import type { BotConfig } from '@gridrocket/bots';
import type { ExchangeName } from '@gridrocket/shared';
import type { GridConfig, MarketRules } from '@gridrocket/trading/grid';
import type { CandleSeries } from '../candle';
import type { FeeTerms } from '../backtest.engine';
import type { StyledBacktestResult, StyledGrid, StyledParams } from '../styled.types';

/** The grid a sweep's cell tries, read from the sweep's base (the ladder's fields) at the cell's settings. */
export interface SweepCellBase {
  botType: 'Spot' | 'Futures';
  orderSize: number;
  entryPrice: number;
  leverage: number;
  trailDownLimit?: number;
  /** The base's own style (a long base's trailDownLimit goes to its long cells only). */
  style: string;
}

/** The ladder's fields of a backtest body (the bot form's, parsed), which a style of the ladder's fields trades. */
export type LadderCore = Pick<GridConfig, 'botType' | 'numOfOrders' | 'orderSize' | 'interval' | 'entryPrice' | 'takeProfit' | 'leverage'>;

/** What a backtest body asks for: the venue, market and symbol, and the grid. */
export interface BodyGrid<G> {
  exchange: ExchangeName;
  market: 'spot' | 'futures';
  symbol: string;
  config: G;
}

/**
 * A style whose backtest body names it in `style` and has fields of its own (not the ladder's): the
 * `style` value, the body's parse (its grid and market; throws ValidationError with the field errors,
 * which the backtest's parse reports with the period's) and, for a grid a sweep cannot start from, the
 * sweep's field message when its body names this style.
 */
export interface BacktestBody<G> {
  readonly style: string;
  parse(body: unknown): BodyGrid<G>;
  readonly sweepProblem?: string;
}

export interface BacktestWalk<G = any> {
  /** The styles this walk runs, as the backtest and the sweep name them ('long' and 'short' for the ladder). */
  readonly styles: readonly string[];
  /** This walk runs the grid. */
  owns(g: StyledGrid): boolean;
  /** The grid's style among `styles`. */
  styleOf(g: G): string;
  /** Why the style cannot trade on the market, null when it can (the backtest's and the sweep's field message). */
  marketProblem(style: string, market: 'spot' | 'futures'): string | null;
  /** Orders the grid may fill on one print, for the job pool's estimate of its work. */
  rungs(g: G): number;
  /** The style has a take-profit setting (a sweep's cells then try every take-profit of its range). */
  hasTakeProfit(style: string): boolean;
  /** The grid the style trades at one cell of a sweep (interval, numOfOrders, takeProfit of the ranges). */
  sweepGrid(base: SweepCellBase, style: string, interval: number, numOfOrders: number, takeProfit: number): G;
  /** The style's own backtest body (absent: its body is the ladder's fields, or a plug-in's bot's, `fromBot`). */
  readonly body?: BacktestBody<G>;
  /** A style of the ladder's fields: its grid of a backtest body's parsed bot, null when the bot is not this style's (the ladder's walk takes every other). */
  fromLadderBot?(bot: BotConfig, core: LadderCore): G | null;
  /** A plug-in style's grid from its bot's configuration (a backtest body is its bot's create body, with its own rules). */
  fromBot?(config: BotConfig, botType: 'Spot' | 'Futures'): G;
  /** One backtest of the grid over the candles (a series of at least one candle). */
  run(series: CandleSeries, params: Omit<StyledParams, 'config'> & { config: G; rules: MarketRules }): StyledBacktestResult;
}

/** The venue's fee terms of a backtest's parameters (what every walk passes its engine). */
export const feeTerms = (p: FeeTerms): FeeTerms => ({ feeBps: p.feeBps, takerFeeBps: p.takerFeeBps, buyFeeIn: p.buyFeeIn, crossingFill: p.crossingFill });
