/**
 * The grid styles a backtest and a sweep run (issue 32), on the same candles and with the same venue
 * model: the ladder long and short (backtest.engine.ts), the neutral futures grid (walks/neutral.backtest.ts)
 * and the infinity spot grid (walks/infinity.backtest.ts). Pure (the job pool runs it in worker threads).
 *
 * One result shape for all: the ladder's BacktestResult, which the page and the sweep read (the neutral
 * and infinity results add their `style`). Each style's walk is its own file (walks/<style>.walk.ts) in
 * the walk table below; nothing here names a style but the table (issue 42).
 *
 * Where a figure means the same it is measured the same way (equity-walk.ts); where a style has
 * its own words the closest figure carries them, and the style's own count is added:
 *  - `cycles`: the ladder's completed take-profits; the neutral grid's completed pairs (an opening fill
 *    closed by its answer one line away, also in `pairs`); the infinity grid's steps up (each sells
 *    at one step above the last trade: what realises its profit; `stepsUp`, `stepsDown` beside it);
 *  - `capital`: the ladder's cost ÷ leverage (what it locks); the neutral grid's margin of its larger
 *    side, max(Σ buy lines, Σ sell lines) × size ÷ leverage (what its worst case holds, as
 *    neutralLiquidation counts it); the infinity grid's initial buy plus one step's value for every step
 *    down from the entry to its lower price (the quote it may spend before it stops buying);
 *  - `position`: the neutral grid's is signed (> 0 long, < 0 short); `trails` is 0 (the ladder's
 *    trailing down only).
 */
import type { BotConfig } from '@gridrocket/bots';
import { stylePluginParts } from '@gridrocket/shared';
import type { NeutralGridConfig } from '@gridrocket/trading/styles/neutral';
import type { InfinityConfig } from '@gridrocket/trading/styles/infinity';
import { BACKTEST_STYLES, type BacktestStyle, type StyledBacktestResult, type StyledGrid, type StyledParams, type SweepBase } from './styled.types';
import type { CandleSeries } from './candle';
import type { BacktestWalk, LadderCore } from './walks/backtest-walk';
import { infinityWalk } from './walks/infinity.walk';
import { ladderGrid, ladderWalk } from './walks/ladder.walk';
import { neutralWalk } from './walks/neutral.walk';

export * from './styled.types';
export { infinityCapital } from './walks/infinity.walk';
export * from './walks/infinity.backtest';
export * from './walks/neutral.backtest';
export { neutralCapital, neutralUnrealised } from './walks/neutral.walk';

/** The walk table: one line per built-in style; the ladder is the fallback (a grid no other walk owns); plug-ins: libs/shared style-plugins.ts. */
const walks: BacktestWalk[] = [
  infinityWalk,
  neutralWalk,
];
const fallbackWalk: BacktestWalk = ladderWalk;

/** The plug-in styles' walks (libs/shared style-plugins.ts, asked first), then the table's. */
function allWalks(): BacktestWalk[] {
  return [...stylePluginParts<BacktestWalk>('backtest'), ...walks];
}

/** The walk that runs the grid. */
export function walkOf(g: StyledGrid): BacktestWalk {
  return allWalks().find((w) => w.owns(g)) ?? fallbackWalk;
}

/** The walk of a style by its name, undefined for a style no walk runs. */
export function walkNamed(style: string): BacktestWalk | undefined {
  return [...allWalks(), fallbackWalk].find((w) => w.styles.includes(style));
}

/** Every style a backtest and a sweep take: the built-in ones (long, short, neutral, infinity), then the plug-ins'. */
export function backtestStyles(): string[] {
  const named = [fallbackWalk, ...allWalks()].flatMap((w) => w.styles);
  return [...BACKTEST_STYLES.filter((s) => named.includes(s)), ...named.filter((s) => !(BACKTEST_STYLES as readonly string[]).includes(s))];
}

/** The walk whose backtest body names this `style` and has fields of its own (BacktestWalk.body); undefined for the ladder's body and an unknown style. */
export function bodyWalk(style: unknown): BacktestWalk | undefined {
  return allWalks().find((w) => w.body !== undefined && w.body.style === style);
}

/** The `style` values a backtest body takes, as its field message says them: the ladder's ('ladder', or none), then each walk's with a body of its own. */
export function bodyStyles(): string[] {
  return ['ladder', ...allWalks().flatMap((w) => (w.body ? [w.body.style] : []))];
}

/** The grid of a backtest body of the ladder's fields: the walk's that claims its bot (a neutral grid's), else the ladder's. */
export function ladderBodyGrid(bot: BotConfig, core: LadderCore): StyledGrid {
  for (const w of allWalks()) {
    const grid = w.fromLadderBot?.(bot, core);
    if (grid) return grid;
  }
  return ladderGrid(bot, core);
}

/** The example of a sweep's `styles` list in its field message: a long and a neutral grid compared. */
export function stylesListExample(): string[] {
  return [ladderWalk.styles[0], neutralWalk.styles[0]];
}

/** The grid is an infinity grid (a sweep tries ladder settings and compares it through `styles`). */
export function isInfinity(g: StyledGrid): g is InfinityConfig {
  return walkOf(g) === infinityWalk;
}

/** A sweep may start from the grid: it tries ladder settings, which every grid has but the infinity grid's. */
export function sweepsFrom(g: StyledGrid): g is SweepBase {
  return !isInfinity(g);
}

export function isNeutral(g: StyledGrid): g is NeutralGridConfig {
  return walkOf(g) === neutralWalk;
}

export function styleOf(g: StyledGrid): BacktestStyle {
  return walkOf(g).styleOf(g);
}

/** The market a style trades (short and neutral futures only, infinity spot only, long both): its field message, or null. */
export function styleMarketProblem(style: BacktestStyle, market: 'spot' | 'futures'): string | null {
  return walkNamed(style)?.marketProblem(style, market) ?? null;
}

/** Orders a grid may fill on one print, for the job pool's estimate of its work (jobWork). */
export function rungsOf(g: StyledGrid): number {
  return walkOf(g).rungs(g);
}

/**
 * One backtest of a grid of any style over the candles (placed at the first open), the fill log left out
 * unless `recordFills`. Throws when the grid cannot trade on the market (its engine's reason).
 */
export function runStyledBacktest(series: CandleSeries, params: StyledParams): StyledBacktestResult {
  if (series.length === 0) throw new Error('No candles to backtest');
  return walkOf(params.config).run(series, params);
}
