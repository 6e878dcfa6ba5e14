/**
 * A stop-loss beyond the liquidation price (issue 40 point 3), pure: the venue liquidates a futures
 * position when the (mark) price reaches its liquidation price, so a stop-loss that lies beyond it never
 * sells: the position is gone first, with all its margin. Refused at create and edit (the bots' rules)
 * and shown by the form, for every direction, on isolated margin (liquidation.ts: Binance's isolated
 * formula, the venue's tiers). On cross margin the whole futures wallet backs the position, so its
 * liquidation price depends on the balance and the other positions: not checked here (docs/risk.md).
 *
 * Which position is held when the price reaches the stop:
 *  - long: every rung priced at or above the stop has filled on the way down (a rung below it has not);
 *    with `stopLossPercent` the stop follows the average of the rungs filled, so each stage k (rungs
 *    1…k filled) whose stop lies above rung k+1 (or k = n) is a position the stop can meet;
 *  - short: the mirror (rungs at or below the stop, the stop above them);
 *  - a style's own (a neutral grid's two worst cases: styles/neutral/neutral.stops.ts), through the pure registry's
 *    stopsBeyondLiquidation (styles/pure-registry.ts), which asks this file for the ladder's.
 * The stop is beyond the liquidation when it is at or below it (long) or at or above it (short).
 */
import { ceilToStep, floorToStep, roundMoney } from './decimal';
import { directionOf } from './direction';
import { buildLadder } from './ladder';
import { liquidationPrice, type MaintenanceTier } from './liquidation';
import type { GridConfig, MarketRules } from './grid.types';

export interface StopBeyondLiquidation {
  /** The config field of the stop: `stopLossPrice`, `stopLossPercent` or (neutral, upper) `stopLossPriceAbove`. */
  field: 'stopLossPrice' | 'stopLossPercent' | 'stopLossPriceAbove';
  side: 'long' | 'short';
  /** The stop level met by the position, and that position's liquidation price. */
  stop: number;
  liquidation: number;
  /** The position the venue would liquidate first: amount and average entry. */
  amount: number;
  averageEntry: number;
  message: string;
}

const shown = (x: number) => String(Number(x.toPrecision(10)));

/** The liquidation price as the message shows it: on the market's price step, on the safe side (long: up, short: down). */
function onStep(f: Pick<StopBeyondLiquidation, 'side' | 'liquidation'>, priceStep: number): number {
  return f.side === 'long' ? ceilToStep(f.liquidation, priceStep) : floorToStep(f.liquidation, priceStep);
}

/** The field message of a stop beyond the liquidation price (`what`: the orders filled by then). */
export function stopMessage(f: Omit<StopBeyondLiquidation, 'message'>, leverage: number, what: string, priceStep: number): string {
  const beyond = f.side === 'long' ? 'at or below' : 'at or above';
  const name = f.field === 'stopLossPercent' ? `The stop-loss (at ${shown(f.stop)})` : `${f.field} ${shown(f.stop)}`;
  const liq = shown(onStep(f, priceStep));
  return `${name} is ${beyond} the liquidation price ${liq}: at leverage ${leverage} the venue would liquidate the ${f.side} position (${what}: ${shown(f.amount)} at ${shown(f.averageEntry)} on average) before the stop-loss closes it. Set the stop-loss ${f.side === 'long' ? 'above' : 'below'} ${liq} or lower the leverage`;
}

/** A futures grid on isolated margin whose stops may lie beyond its liquidation (spot: never). */
export const liquidates = (config: Pick<GridConfig, 'botType' | 'leverage'>, tiers: readonly MaintenanceTier[]): boolean => config.botType === 'Futures' && tiers.length > 0 && config.leverage >= 1;

/** The stops of a ladder (long, short) that lie beyond its liquidation price (empty when none; spot: never). */
export function ladderStopsBeyondLiquidation(config: GridConfig, rules: MarketRules, tiers: readonly MaintenanceTier[]): StopBeyondLiquidation[] {
  if (!liquidates(config, tiers)) return [];
  const direction = directionOf(config);
  const short = direction === 'short';
  const percent = typeof config.stopLossPercent === 'number' && config.stopLossPercent > 0 ? config.stopLossPercent : undefined;
  const fixed = percent === undefined && typeof config.stopLossPrice === 'number' && config.stopLossPrice > 0 ? config.stopLossPrice : undefined;
  if (percent === undefined && fixed === undefined) return [];
  const ladder = buildLadder(config, rules).filter((l) => l.price > 0 && l.amount > 0);
  let amount = 0;
  let cost = 0;
  for (let k = 0; k < ladder.length; k++) {
    amount += ladder[k].amount;
    cost += ladder[k].amount * ladder[k].price;
    const average = cost / amount;
    const stop = percent !== undefined ? (short ? ceilToStep(average * (1 + percent / 100), rules.priceStep) : floorToStep(average * (1 - percent / 100), rules.priceStep)) : fixed!;
    const next = ladder[k + 1]?.price;
    // the stop meets this position when the price reaches it before the next rung fills
    const meets = next === undefined || (short ? stop < next : stop > next);
    if (!meets) continue;
    // (a fixed stop between rungs: the rungs before it filled; the first stage it meets is the one)
    const liquidation = liquidationPrice(direction, amount, average, cost / config.leverage, tiers);
    if (liquidation > 0 && (short ? stop >= liquidation : stop <= liquidation)) {
      const f = { field: percent !== undefined ? ('stopLossPercent' as const) : ('stopLossPrice' as const), side: direction as 'long' | 'short', stop, liquidation, amount: roundMoney(amount), averageEntry: roundMoney(average) };
      return [{ ...f, message: stopMessage(f, config.leverage, k + 1 === ladder.length ? `every order of the ladder filled` : `orders 1 to ${k + 1} filled`, rules.priceStep) }];
    }
    if (fixed !== undefined) return []; // a fixed stop meets one position only
  }
  return [];
}

/** Issue 40: the bot warns (page, history, alert) when the price comes within this % of its position's liquidation price. */
export const LIQUIDATION_WARNING_PERCENT = 10;

/**
 * How far the price is from the liquidation price of a held isolated position, in % of the price (null:
 * nothing held, or no liquidation price). `amount` is signed (> 0 long, < 0 short); the margin is the
 * position's entry value ÷ leverage, as the venue holds it.
 */
export function liquidationDistance(amount: number, averageEntry: number, leverage: number, price: number, tiers: readonly MaintenanceTier[]): { side: 'long' | 'short'; liquidation: number; distancePercent: number } | null {
  if (!(Math.abs(amount) > 0) || !(averageEntry > 0) || !(price > 0) || !(leverage >= 1)) return null;
  const side = amount > 0 ? 'long' : 'short';
  const q = Math.abs(amount);
  const liquidation = liquidationPrice(side, q, averageEntry, (q * averageEntry) / leverage, tiers);
  if (!(liquidation > 0)) return null;
  const distancePercent = Math.round((Math.abs(price - liquidation) / price) * 10_000) / 100;
  return { side, liquidation, distancePercent: (side === 'long' ? price <= liquidation : price >= liquidation) ? 0 : distancePercent };
}
