/**
 * Risk controls of a grid beyond the spec (issue 14, docs/risk.md), pure like the engine:
 *  - stop-loss: when the price reaches `stopLossPercent` % below the average entry (or `stopLossPrice`)
 *    the bot begins a stop-loss (`beginStopLoss`): no order is desired any more and the position is
 *    sold at market under one fixed id per cycle (`stopLossOrderId`), so it is never sold twice;
 *  - trailing take-profit (`trailingDeviation` %): no take-profit rests; once the price reaches the
 *    take-profit level the runner follows the peak and sells at market under the take-profit's id
 *    when the price falls back by the deviation (the engine books it as the take-profit's fill);
 *  - follow (`reanchor: 'follow'`): flat and the price more than one interval above the anchor →
 *    the ladder is re-anchored at the market (`reanchorBook`: a new cycle, so new ids). "Flat" counts
 *    dust as nothing (`dustOf`): a rest the venue would not take as a sell (below one amount step,
 *    the minimum order value or the minimum amount: a buy fee taken in the coin leaves one on Binance
 *    spot, issue 29 finding 7). The dust stays the bot's and rides along: the next take-profit sells it.
 * A bot with none of these settings behaves exactly as the spec's (its orders: `desiredOrders`).
 * A short grid (issue 32, direction.ts) mirrors each: the stop-loss is `stopLossPercent` % ABOVE the
 * average entry and triggers when the price reaches it from below, its market order a reduce-only buy;
 * trailing follows the trough below the take-profit level and buys when the price rises back by the
 * deviation; follow re-anchors when flat and the price is more than one interval BELOW the anchor
 * (never below `reanchorLimit`).
 */
import { stopLossOrderId, takeProfitOrderId } from './client-order-id';
import { ceilToStep, floorToStep, roundMoney } from './decimal';
import { directionOf, exitSide } from './direction';
import { desiredOrders, stateDirection, takeProfitPrice } from './grid.engine';
import { validateGrid } from './ladder';
import { oneInterval } from './spacing';
import { trailDownTarget } from './trail-down';
export { riskProblem } from './risk-settings';
import type { DesiredOrder, GridConfig, GridState, MarketRules } from './grid.types';

const positiveNumber = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x) && x > 0;

/** The price at which the bot's stop-loss triggers now, or null (none set, or nothing held). */
export function stopLossLevel(config: GridConfig, rules: MarketRules, state: GridState): number | null {
  if (state.position.amount <= 0 || floorToStep(state.position.amount, rules.amountStep) <= 0) return null;
  if (positiveNumber(config.stopLossPercent)) {
    // short: above the average, rounded up (the loss it allows is at least the percentage)
    if (state.direction === 'short') return ceilToStep(state.position.averageEntry * (1 + config.stopLossPercent / 100), rules.priceStep);
    return floorToStep(state.position.averageEntry * (1 - config.stopLossPercent / 100), rules.priceStep);
  }
  if (positiveNumber(config.stopLossPrice)) return config.stopLossPrice;
  return null;
}

/** The price has reached the stop level (long: at or below it; short: at or above it). */
function beyondStop(state: GridState, price: number, level: number): boolean {
  return state.direction === 'short' ? price >= level : price <= level;
}

/** The stop-loss level for a chart or a preview before anything is held: below the ladder's average if every rung filled (short: above). */
export function stopLossPreview(config: GridConfig, averageEntry: number): number | null {
  const sign = directionOf(config) === 'short' ? -1 : 1;
  if (positiveNumber(config.stopLossPercent)) return roundMoney(averageEntry * (1 - (sign * config.stopLossPercent) / 100));
  if (positiveNumber(config.stopLossPrice)) return config.stopLossPrice;
  return null;
}

/** The state once a stop-loss has begun at market `price` (idempotent: an ongoing one stays). */
export function beginStopLoss(state: GridState, price: number, level: number): GridState {
  if (state.stopLoss) return state;
  return { ...state, stopLoss: { cycle: state.cycle, price, level, result: 0 } };
}

/** The market sell a stop-loss still needs (what is held, whole amount steps), or null when it is done. */
export function stopLossSell(config: GridConfig, rules: MarketRules, state: GridState): DesiredOrder | null {
  if (!state.stopLoss) return null;
  const amount = floorToStep(state.position.amount, rules.amountStep);
  if (amount <= 0) return null;
  return {
    clientOrderId: stopLossOrderId(state.botId, state.stopLoss.cycle),
    role: 'take-profit',
    side: exitSide(stateDirection(state)),
    type: 'limit', // placed at market by the runner
    price: 0,
    amount,
    reduceOnly: config.botType === 'Futures',
    cycle: state.stopLoss.cycle,
  };
}

/** A stop-loss begun and finished (nothing left to sell): the bot stops with this reason. */
export function stopLossDoneReason(rules: MarketRules, state: GridState, quote = 'USDT'): string | null {
  const sl = state.stopLoss;
  if (!sl || floorToStep(state.position.amount, rules.amountStep) > 0) return null;
  if (state.direction === 'short') {
    // the short grid's stop-loss buys back (issue 32)
    if (sl.result === 0) return `Stop-loss triggered at ${sl.price} (stop level ${sl.level}): the take-profit had already bought the position back, nothing was left to buy`;
    return `Stop-loss triggered at ${sl.price} (stop level ${sl.level}): the short position was bought back at market, loss ${roundMoney(-sl.result)} ${quote}`;
  }
  if (sl.result === 0) return `Stop-loss triggered at ${sl.price} (stop level ${sl.level}): the take-profit had already sold the position, nothing was left to sell`;
  return `Stop-loss triggered at ${sl.price} (stop level ${sl.level}): the position was sold at market, loss ${roundMoney(-sl.result)} ${quote}`;
}

/** The orders that should rest now with the risk settings: none during a stop-loss, no resting take-profit when trailing. */
export function activeOrders(config: GridConfig, rules: MarketRules, state: GridState): DesiredOrder[] {
  if (state.stopLoss) return [];
  const orders = desiredOrders(config, rules, state);
  return positiveNumber(config.trailingDeviation) ? orders.filter((o) => o.role !== 'take-profit') : orders;
}

/** Trailing: where the take-profit level is now (null: nothing to sell). */
export function trailingActivation(config: GridConfig, rules: MarketRules, state: GridState): number | null {
  // (dust carried by a restarted book has a take-profit record but nothing a sell could take)
  if (!positiveNumber(config.trailingDeviation) || !state.tp || floorToStep(state.position.amount, rules.amountStep) <= 0) return null;
  return takeProfitPrice(state.position.averageEntry, config.takeProfit, rules.priceStep, stateDirection(state));
}

/** The trailing sell price for a peak: peak × (1 − deviation). Short: the buy price for a trough, trough × (1 + deviation). */
export function trailingStop(config: GridConfig, rules: MarketRules, peak: number): number {
  if (directionOf(config) === 'short') return ceilToStep(peak * (1 + (config.trailingDeviation ?? 0) / 100), rules.priceStep);
  return floorToStep(peak * (1 - (config.trailingDeviation ?? 0) / 100), rules.priceStep);
}

export type PriceDecision =
  | { type: 'none'; peak: number | null }
  | { type: 'stop-loss'; level: number }
  | { type: 'trail'; peak: number }
  | { type: 'trail-sell'; peak: number; order: DesiredOrder }
  | { type: 'reanchor'; from: number; to: number }
  /** Issue 32 (trail-down.ts): every rung filled, the price far below: the ladder moves down, the position kept. */
  | { type: 'trail-down'; from: number; to: number };

/** An order of `amount` at `price` the market takes: above 0, worth its minimum order value, at least its minimum amount (the infinity grid's steps; the investment sizing's test of a step, libs/bots bot-investment.rules.ts). */
export function meetsOrderMinimums(rules: MarketRules, amount: number, price: number): boolean {
  return amount > 0 && roundMoney(amount * price) >= rules.minNotional && (rules.minAmount === undefined || amount >= rules.minAmount);
}

/**
 * What the bot holds that no sell order could take at `price` (issue 29 finding 7), or 0: a position
 * whose sellable part (whole amount steps) is zero, worth less than the market's minimum order value,
 * or below its minimum amount. Such a rest is dust: shown, not counted as a position, and follow
 * re-anchors over it.
 */
export function dustOf(rules: MarketRules, state: GridState, price: number): number {
  const held = state.position.amount;
  if (!(held > 0)) return 0;
  const sellable = floorToStep(held, rules.amountStep);
  if (sellable <= 0) return held;
  if (price > 0 && roundMoney(sellable * price) < rules.minNotional) return held;
  if (rules.minAmount !== undefined && sellable < rules.minAmount) return held;
  return 0;
}

/** Nothing held but dust (at `price`). */
export function isFlat(rules: MarketRules, state: GridState, price: number): boolean {
  return state.position.amount <= 0 || dustOf(rules, state, price) > 0;
}

/** The ladder's current anchor (the config's entry until a follow grid re-anchored it). */
export function anchorOf(config: GridConfig, state: GridState): number {
  return state.anchor ?? config.entryPrice;
}

/**
 * What a market price asks of the bot, given the trailing peak seen so far in this cycle (null: not
 * activated). Stop-loss first, then trailing down (trail-down.ts), then trailing, then follow.
 */
export function decidePrice(config: GridConfig, rules: MarketRules, state: GridState, price: number, peak: number | null): PriceDecision {
  if (state.stopLoss || !(price > 0)) return { type: 'none', peak };
  const sl = stopLossLevel(config, rules, state);
  if (sl !== null && beyondStop(state, price, sl)) return { type: 'stop-loss', level: sl };
  if (peak === null) {
    // (a trailing take-profit under way sells first: its stop is far above a price this low)
    const down = trailDownTarget(config, rules, state, price);
    if (down) return { type: 'trail-down', ...down };
  }
  const short = state.direction === 'short';
  const activation = trailingActivation(config, rules, state);
  if (activation !== null && state.tp) {
    // (short: the "peak" is the trough: following starts at or below the take-profit level)
    const top = peak === null ? ((short ? price <= activation : price >= activation) ? price : null) : short ? Math.min(peak, price) : Math.max(peak, price);
    if (top === null) return { type: 'none', peak: null };
    const amount = floorToStep(state.position.amount, rules.amountStep);
    const stop = trailingStop(config, rules, top);
    if ((short ? price >= stop : price <= stop) && amount > 0) {
      const order: DesiredOrder = {
        clientOrderId: takeProfitOrderId(state.botId, state.cycle, state.tp.seq),
        role: 'take-profit', side: exitSide(stateDirection(state)), type: 'limit', price: 0, amount, reduceOnly: config.botType === 'Futures', cycle: state.cycle, tpSeq: state.tp.seq,
      };
      return { type: 'trail-sell', peak: top, order };
    }
    return top !== peak ? { type: 'trail', peak: top } : { type: 'none', peak };
  }
  if (config.reanchor === 'follow' && isFlat(rules, state, price) && state.levels.every((l) => l.filled === 0)) {
    const from = anchorOf(config, state);
    if (short) {
      let to = ceilToStep(price, rules.priceStep);
      if (positiveNumber(config.reanchorLimit)) to = Math.max(to, ceilToStep(config.reanchorLimit, rules.priceStep));
      if (from - to > oneInterval(config, from) && price < from) return { type: 'reanchor', from, to };
      return { type: 'none', peak };
    }
    let to = floorToStep(price, rules.priceStep);
    if (positiveNumber(config.reanchorLimit)) to = Math.min(to, floorToStep(config.reanchorLimit, rules.priceStep));
    if (to - from > oneInterval(config, from) && price > from) return { type: 'reanchor', from, to };
  }
  return { type: 'none', peak };
}

/**
 * The ladder re-anchored at `to`: a new cycle (fresh ids), every rung armed, flat but for dust (kept
 * with its cost: the next buy adds to it and the take-profit sells it along). Throws when it holds more
 * than dust at `to`, or the ladder is invalid.
 */
export function reanchorBook(state: GridState, config: GridConfig, rules: MarketRules, to: number): GridState {
  if (!isFlat(rules, state, to)) throw new Error('A grid that holds a position is not re-anchored');
  const validation = validateGrid({ ...config, entryPrice: to }, rules);
  if (!validation.ok) throw new Error(`Invalid grid: ${validation.reason}`);
  const next = state.cycle + 1;
  const out: GridState = {
    ...state,
    cycle: next,
    levels: validation.ladder.map((l) => ({ index: l.index, price: l.price, amount: l.amount, armedCycle: next, filled: 0, status: 'open' as const })),
    position: state.position.amount > 0 ? { ...state.position } : { amount: 0, cost: 0, averageEntry: 0, buyFees: 0 },
    tp: null,
    cycleProfit: 0,
    processedFillIds: state.processedFillIds.slice(),
    anchor: to,
  };
  delete out.carriedCycle;
  return out;
}
