/**
 * The grid styles a backtest and a sweep run (issue 32), on the same candles and with the same venue
 * model: the ladder long and short (backtest.engine.ts), the neutral futures grid (neutral-backtest.ts)
 * and the infinity spot grid (infinity.backtest.ts). Pure (the job pool runs it in worker threads).
 *
 * One result shape for all: the ladder's BacktestResult, which the page and the sweep read (the neutral
 * and infinity results add their `style`). Where a figure means the same it is measured the same way (equity-walk.ts); where a style has
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
import { floorToStep, neutralLinePrices, roundMoney } from '@gridrocket/trading/grid';
import type { GridConfig, InfinityConfig, MarketRules, NeutralGridConfig, NeutralState } from '@gridrocket/trading/grid';
import { runBacktest, type BacktestParams, type BacktestResult, type FeeTerms } from './backtest.engine';
import { candleAt, type CandleSeries } from './candle';
import { EquityWalk } from './equity-walk';
import { runInfinityBacktest } from './infinity.backtest';
import { runNeutralBacktest } from './neutral-backtest';

export const BACKTEST_STYLES = ['long', 'short', 'neutral', 'infinity'] as const;
export type BacktestStyle = (typeof BACKTEST_STYLES)[number];

/** A grid of any style: the ladder's config (long, or direction short), the neutral one, or the infinity one. */
export type StyledGrid = GridConfig | NeutralGridConfig | InfinityConfig;

export function isInfinity(g: StyledGrid): g is InfinityConfig {
  return (g as InfinityConfig).style === 'infinity';
}

export function isNeutral(g: StyledGrid): g is NeutralGridConfig {
  return !isInfinity(g) && (g as NeutralGridConfig).direction === 'neutral';
}

export function styleOf(g: StyledGrid): BacktestStyle {
  if (isInfinity(g)) return 'infinity';
  if (isNeutral(g)) return 'neutral';
  return (g as GridConfig).direction === 'short' ? 'short' : 'long';
}

/** The market a style trades: short and neutral futures only, infinity spot only, long both. */
export function styleMarketProblem(style: BacktestStyle, market: 'spot' | 'futures'): string | null {
  if (market === 'spot' && (style === 'short' || style === 'neutral')) return `style ${style} applies to futures only: a spot grid buys the coin it sells`;
  if (market === 'futures' && style === 'infinity') return 'style infinity applies to spot only: an infinity grid sells and buys the coin itself';
  return null;
}

/** Orders a grid may fill on one print, for the job pool's estimate of its work (jobWork). */
export function rungsOf(g: StyledGrid): number {
  if (isInfinity(g)) return 2;
  const n = Number.isFinite(g.numOfOrders) ? Math.max(0, g.numOfOrders) : 0;
  return isNeutral(g) ? 2 * n : n;
}

/** The backtest's result: the ladder's figures (see the file's comment for what each means per style). */
export interface StyledBacktestResult extends BacktestResult {
  /** The neutral and infinity grids' results say their style; a ladder's is the ladder's result as it always was (its config says long or short). */
  style?: 'neutral' | 'infinity';
  /** Neutral: completed pairs (= cycles). */
  pairs?: number;
  /** Infinity: completed steps up (sells, = cycles) and down (buys). */
  stepsUp?: number;
  stepsDown?: number;
}

export type StyledParams = Omit<BacktestParams, 'config'> & { config: StyledGrid };

/** The neutral grid's capital: the margin of its larger side at the full position, max(Σ buys, Σ sells) × size ÷ leverage. */
export function neutralCapital(config: NeutralGridConfig, rules: MarketRules): number {
  const n = config.numOfOrders;
  const prices = neutralLinePrices(config, rules);
  const size = floorToStep(config.orderSize, rules.amountStep);
  let buys = 0;
  let sells = 0;
  for (let l = 0; l < n; l++) buys += prices[l];
  for (let l = n + 1; l <= 2 * n; l++) sells += prices[l];
  return roundMoney((Math.max(buys, sells) * size) / config.leverage);
}

/**
 * The infinity grid's capital: its initial buy plus one step's value for each step down from the entry
 * (each a step below the last, rounded down to the price step, as stepOrders prices them) that is not
 * below the lower price. Gaps that fill at the market can buy a step more; this is the plan's figure.
 */
export function infinityCapital(config: InfinityConfig, rules: MarketRules): number {
  let price = floorToStep(config.entryPrice, rules.priceStep);
  let steps = 0;
  for (let k = 0; k < 100_000; k++) {
    const next = floorToStep(price * (1 - config.stepPercent / 100), rules.priceStep);
    if (!(next >= config.lowerPrice) || next >= price) break;
    steps++;
    price = next;
  }
  return roundMoney(config.initialQuote + steps * config.quoteValue);
}

/** Unrealised result of the neutral grid's open lots at `price`, less their unpaid opening fees. */
export function neutralUnrealised(state: NeutralState, price: number): number {
  let u = 0;
  for (const lot of state.lots) u += (lot.side === 'long' ? price - lot.price : lot.price - price) * lot.amount - lot.fee;
  return roundMoney(u);
}

function neutralAverage(state: NeutralState): number {
  let amount = 0;
  let cost = 0;
  for (const lot of state.lots) {
    amount += lot.amount;
    cost += lot.price * lot.amount;
  }
  return amount > 0 ? roundMoney(cost / amount) : 0;
}

const terms = (p: FeeTerms): FeeTerms => ({ feeBps: p.feeBps, takerFeeBps: p.takerFeeBps, buyFeeIn: p.buyFeeIn, crossingFill: p.crossingFill });

/**
 * One backtest of a grid of any style over the candles (placed at the first open), the fill log left out
 * unless `recordFills`. Throws when the grid cannot trade on the market (its engine's reason).
 */
export function runStyledBacktest(series: CandleSeries, params: StyledParams): StyledBacktestResult {
  const { config, rules } = params;
  const n = series.length;
  if (n === 0) throw new Error('No candles to backtest');
  if (!isInfinity(config) && !isNeutral(config)) return runBacktest(series, { ...params, config });
  const last = series.close[n - 1];
  if (isNeutral(config)) {
    const capital = neutralCapital(config, rules);
    const walk = new EquityWalk(capital, series, params.curvePoints);
    const candles = Array.from({ length: n }, (_, i) => candleAt(series, i));
    const r = runNeutralBacktest(candles, { ...terms(params), config, rules, observer: walk });
    const unrealised = neutralUnrealised(r.state, last);
    return {
      style: 'neutral',
      candles: n, from: series.time[0], to: series.time[n - 1], capital,
      profit: r.profit, unrealised, fees: r.fees, cycles: r.pairs, pairs: r.pairs, fills: r.fills.length, trails: 0,
      ...walk.figures(roundMoney(capital + r.profit + unrealised), params.feeBps),
      position: { amount: r.position, averageEntry: neutralAverage(r.state) },
      ...(params.recordFills ? { fillLog: r.fills } : {}),
    };
  }
  const capital = infinityCapital(config, rules);
  const walk = new EquityWalk(capital, series, params.curvePoints);
  const r = runInfinityBacktest(series, { ...terms(params), config, rules, observer: walk, recordFills: params.recordFills });
  return {
    style: 'infinity',
    candles: n, from: series.time[0], to: series.time[n - 1], capital,
    profit: r.profit, unrealised: r.unrealised, fees: r.fees, cycles: r.stepsUp, stepsUp: r.stepsUp, stepsDown: r.stepsDown, fills: r.fills, trails: 0,
    ...walk.figures(roundMoney(capital + r.profit + r.unrealised), params.feeBps),
    position: r.position,
    ...(r.fillLog ? { fillLog: r.fillLog } : {}),
  };
}
