/** The shapes every backtest walk shares (styles.ts's table, walks/<style>.walk.ts): the grid, its parameters and its result. */
import type { GridConfig } from '@gridrocket/trading/grid';
import type { NeutralGridConfig } from '@gridrocket/trading/styles/neutral';
import type { InfinityConfig } from '@gridrocket/trading/styles/infinity';
import type { BacktestParams, BacktestResult } from './backtest.engine';

/** The built-in styles a backtest and a sweep take (the OpenAPI document's enum); styles.ts backtestStyles() adds the plug-ins'. */
export const BACKTEST_STYLES = ['long', 'short', 'neutral', 'infinity'] as const;
/** A backtest style: a built-in one, or one of a walk of a plug-in style (libs/shared style-plugins.ts). */
export type BacktestStyle = (typeof BACKTEST_STYLES)[number] | (string & {});

/** A sweep's base: the ladder's settings (long, short) or the neutral grid's. */
export type SweepBase = GridConfig | NeutralGridConfig;

/** A grid of any style: the ladder's config (long, or direction short), the neutral one, the infinity one (or a registered style's). */
export type StyledGrid = GridConfig | NeutralGridConfig | InfinityConfig;

/** The backtest's result: the ladder's figures (see the file's comment for what each means per style). */
export interface StyledBacktestResult extends BacktestResult {
  /** The neutral and infinity grids' results say their style; a ladder's is the ladder's result as it always was (its config says long or short). */
  style?: 'neutral' | 'infinity' | (string & {});
  /** Neutral: completed pairs (= cycles). */
  pairs?: number;
  /** Infinity: completed steps up (sells, = cycles) and down (buys). */
  stepsUp?: number;
  stepsDown?: number;
}

export type StyledParams = Omit<BacktestParams, 'config'> & { config: StyledGrid };

