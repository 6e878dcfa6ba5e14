// Over 400 lines: the one pure state machine (fills, take-profit, stop-loss fills, desired orders, reconcile) reads best in one file.
/**
 * The grid engine as a pure state machine, built for crash-safe reconciliation.
 *
 * The runner's loop is:
 *   1. apply every fill it learns about (live, or found after a restart), in exchange time order,
 *      and persist each as an event before acting on it: the state is `fills.reduce(applyFill, initial)`;
 *   2. `desiredOrders(config, rules, state)`: the exact set of orders that should rest on the exchange;
 *   3. `reconcile(desired, openOnExchange)`: cancel the rest (first), adopt what exists, place what is
 *      missing. Client order ids are deterministic, so steps 2–3 may be repeated any number of times,
 *      after any crash, without a duplicate or an orphan.
 *
 * Rules the state machine keeps:
 *  - a fill id is applied once: a repeat changes nothing (the same state object is returned);
 *  - every buy fill of this bot adds to the position (a late fill of an already replaced order too);
 *  - after a buy fill there is exactly one take-profit for the whole position, with a new id (tp<n+1>),
 *    so the previous one is cancelled and never confused with it;
 *  - a take-profit fill realises profit on the amount sold, average-cost method, after its share of the
 *    buy fees and its own fee; a partial fill leaves the same take-profit order working for the rest;
 *  - the cycle restarts only when the position is fully sold: levels that bought in the cycle are
 *    re-armed under the new cycle's ids, levels that did not keep their resting orders (same ladder).
 * Amounts, prices and fees are numbers; fees are in quote (the adapters convert fees paid in another
 * asset); a buy's position is the NET amount the account received (`Fill.netAmount`: a fee taken in
 * the coin bought). No I/O, no clock, no randomness.
 *
 * A short grid (issue 32, direction.ts) runs the same machine mirrored: its rungs are sells (the
 * `b<L>` ids name the rung, whatever its side), the position is the amount sold short and the quote
 * received for it, the take-profit a reduce-only buy at averageEntry × (1 − takeProfit/100) rounded
 * DOWN, and a take-profit fill realises `cost share − sold × price` less the fees.
 */
import {
  botHash,
  buyOrderId,
  isOwnClientOrderId,
  parseClientOrderId,
  takeProfitOrderId,
} from './client-order-id';
import { addClean, ceilToStep, cleanNumber, floorToStep, fromSteps, roundMoney, subClean } from './decimal';
import { validateGrid } from './ladder';
import { directionOf, entrySide, exitSide, type Direction } from './direction';
import type {
  DesiredOrder,
  ExchangeOrderRef,
  Fill,
  FillEffect,
  GridConfig,
  GridState,
  LevelState,
  MarketRules,
  Reconciliation,
} from './grid.types';

// ---- Start ----

/** The state of a bot that has just started: cycle 1, every level armed, flat, no profit. */
export function initialState(config: GridConfig, rules: MarketRules, botId: string): GridState {
  if (typeof botId !== 'string' || botId.length === 0) throw new Error('A grid needs a bot id');
  const validation = validateGrid(config, rules);
  if (!validation.ok) throw new Error(`Invalid grid: ${validation.reason}`);
  return {
    schema: 1,
    botId,
    cycle: 1,
    levels: validation.ladder.map((l) => ({
      index: l.index,
      price: l.price,
      amount: l.amount,
      armedCycle: 1,
      filled: 0,
      status: 'open' as const,
    })),
    position: { amount: 0, cost: 0, averageEntry: 0, buyFees: 0 },
    tp: null,
    profit: 0,
    cycleProfit: 0,
    feesPaid: 0,
    cyclesCompleted: 0,
    processedFillIds: [],
    amountStep: rules.amountStep,
    ...(directionOf(config) === 'short' ? { direction: 'short' as const } : {}),
  };
}

// ---- Fills ----

/** Fill ids of a state as a set, built once per state object. */
const fillIdSets = new WeakMap<GridState, Set<string>>();
function fillIdSet(state: GridState): Set<string> {
  let set = fillIdSets.get(state);
  if (!set) {
    set = new Set(state.processedFillIds);
    fillIdSets.set(state, set);
  }
  return set;
}

function cloneState(state: GridState): GridState {
  return {
    ...state,
    levels: state.levels.map((l) => ({ ...l })),
    position: { ...state.position },
    tp: state.tp ? { ...state.tp } : null,
    ...(state.stopLoss ? { stopLoss: { ...state.stopLoss } } : {}),
    processedFillIds: state.processedFillIds.slice(),
  };
}

function validFill(fill: Fill): boolean {
  return (
    typeof fill.fillId === 'string' &&
    fill.fillId.length > 0 &&
    typeof fill.clientOrderId === 'string' &&
    Number.isFinite(fill.price) &&
    fill.price > 0 &&
    Number.isFinite(fill.amount) &&
    fill.amount > 0 &&
    Number.isFinite(fill.fee) && // a negative fee is a maker rebate
    (fill.netAmount === undefined || (Number.isFinite(fill.netAmount) && fill.netAmount >= 0))
  );
}

type Step = 'ignore' | 'record';

/**
 * Applies one fill to a draft (mutated) and reports what happened. Returns 'ignore' when the fill
 * must not be recorded (not this bot's, unknown, invalid): the caller then keeps the old state.
 */
function applyToDraft(draft: GridState, fill: Fill, effects: FillEffect[]): Step {
  const ignored = (reason: Extract<FillEffect, { type: 'FillIgnored' }>['reason']): Step => {
    effects.push({ type: 'FillIgnored', fillId: fill.fillId, clientOrderId: fill.clientOrderId, reason });
    return reason === 'closed-cycle' ? 'record' : 'ignore';
  };
  if (!validFill(fill)) return ignored('invalid-fill');
  const id = parseClientOrderId(fill.clientOrderId);
  if (!id || id.hash !== botHash(draft.botId)) return ignored('not-this-bot');

  const pos = draft.position;
  if (id.kind === 'buy') {
    const level: LevelState | undefined = draft.levels[id.level];
    const earlier = !level && id.cycle < draft.cycle; // its level removed by an edit (book.ts): still adds to the position
    if ((!level && !earlier) || (level && id.cycle > level.armedCycle)) return ignored('unknown-order');
    if (level && id.cycle === level.armedCycle && id.rearm > (level.rearm ?? 0)) return ignored('unknown-order'); // a replacement never made
    const late = earlier || (level !== undefined && id.cycle < level.armedCycle);
    // (a fee taken in the coin bought lowers what a buy holds; a short rung sells, so it holds what it sold)
    const held = draft.direction !== 'short' && fill.netAmount !== undefined && fill.netAmount >= 0 && fill.netAmount <= fill.amount ? fill.netAmount : fill.amount;
    pos.cost = addClean(pos.cost, fill.price * held);
    pos.amount = addClean(pos.amount, held);
    pos.averageEntry = cleanNumber(pos.cost / pos.amount);
    pos.buyFees = addClean(pos.buyFees, fill.fee);
    draft.feesPaid = roundMoney(draft.feesPaid + fill.fee);
    if (!late && level) {
      level.filled = addClean(level.filled, fill.amount);
      level.status = subClean(level.amount, level.filled) <= 0 ? 'filled' : 'partial';
    }
    effects.push({
      type: 'BuyFilled',
      fillId: fill.fillId,
      clientOrderId: fill.clientOrderId,
      cycle: id.cycle,
      level: id.level,
      price: fill.price,
      amount: fill.amount,
      fee: fill.fee,
      levelFilled: !late && level?.status === 'filled',
      late,
    });
    defineTakeProfit(draft, effects);
    return 'record';
  }

  // take-profit (one of the cycle a restarted book carried its position from sells that position)
  const carried = draft.carriedCycle !== undefined && id.cycle === draft.carriedCycle && pos.amount > 0;
  const stop = id.kind === 'stop-loss'; // risk.ts: the market sell of a stop-loss begun in its cycle
  if (stop && (!draft.stopLoss || draft.stopLoss.cycle !== id.cycle || id.cycle !== draft.cycle)) return ignored(id.cycle < draft.cycle ? 'closed-cycle' : 'unknown-order');
  if (id.cycle < draft.cycle && !carried) return ignored('closed-cycle');
  if (!stop && (id.cycle > draft.cycle || !draft.tp || (!carried && id.seq > draft.tp.seq))) return ignored('unknown-order');
  const sold = Math.min(fill.amount, pos.amount);
  const oversold = subClean(fill.amount, sold);
  let profit = -fill.fee;
  if (sold > 0) {
    const whole = subClean(pos.amount, sold) <= 0;
    const share = sold / pos.amount;
    const costShare = whole ? pos.cost : pos.cost * share;
    const feeShare = whole ? pos.buyFees : pos.buyFees * share;
    // long: sold for sold × price what cost costShare; short: bought back for sold × price what brought costShare
    profit += (draft.direction === 'short' ? costShare - sold * fill.price : sold * fill.price - costShare) - feeShare;
    pos.amount = whole ? 0 : subClean(pos.amount, sold);
    pos.cost = whole ? 0 : subClean(pos.cost, costShare);
    pos.buyFees = whole ? 0 : subClean(pos.buyFees, feeShare);
  }
  profit = roundMoney(profit);
  draft.profit = roundMoney(draft.profit + profit);
  draft.cycleProfit = roundMoney(draft.cycleProfit + profit);
  draft.feesPaid = roundMoney(draft.feesPaid + fill.fee);
  if (stop && draft.stopLoss) {
    draft.stopLoss = { ...draft.stopLoss, result: roundMoney(draft.stopLoss.result + profit) };
    effects.push({ type: 'StopLossFilled', fillId: fill.fillId, clientOrderId: fill.clientOrderId, cycle: id.cycle, price: fill.price, amount: fill.amount, fee: fill.fee, profit });
    return 'record'; // the bot stops after its stop-loss: the cycle is not completed, nothing is re-armed
  }
  effects.push({
    type: 'TakeProfitFilled',
    fillId: fill.fillId,
    clientOrderId: fill.clientOrderId,
    cycle: id.cycle,
    tpSeq: id.seq,
    price: fill.price,
    amount: fill.amount,
    fee: fill.fee,
    profit,
    oversold,
  });

  // A rest below the amount step (fee taken in the coin) cannot be sold: the cycle completes, the rest stays held.
  const dust = pos.amount > 0 && draft.amountStep !== undefined && floorToStep(pos.amount, draft.amountStep) <= 0;
  if (sold > 0 && (pos.amount === 0 || dust)) {
    completeCycle(draft, effects);
  } else if (draft.tp && (carried || id.seq < draft.tp.seq) && pos.amount > 0) {
    // A fill of a replaced take-profit (its cancel raced the fill): the working take-profit is now
    // larger than the position, so it is replaced by one for the position.
    defineTakeProfit(draft, effects);
  }
  return 'record';
}

function defineTakeProfit(draft: GridState, effects: FillEffect[]): void {
  const seq = (draft.tp?.seq ?? 0) + 1;
  draft.tp = { seq, amount: draft.position.amount };
  effects.push({ type: 'TakeProfitDefined', cycle: draft.cycle, tpSeq: seq, amount: draft.position.amount });
}

function completeCycle(draft: GridState, effects: FillEffect[]): void {
  const next = draft.cycle + 1;
  effects.push({ type: 'CycleCompleted', cycle: draft.cycle, profit: draft.cycleProfit, nextCycle: next });
  draft.cycle = next;
  draft.cyclesCompleted += 1;
  draft.cycleProfit = 0;
  draft.tp = null;
  if (draft.position.amount <= 0) draft.position = { amount: 0, cost: 0, averageEntry: 0, buyFees: 0 };
  delete draft.carriedCycle;
  for (const level of draft.levels) {
    if (level.filled > 0) {
      // Bought in the cycle (fully, or partly and its rest is cancelled): a fresh order, fresh id.
      level.armedCycle = next;
      level.filled = 0;
      level.status = 'open';
      delete level.rearm;
    }
  }
}

/** Applies a fill and says what it did (for the runner's history events). Idempotent by fillId. */
export function processFill(state: GridState, fill: Fill): { state: GridState; effects: FillEffect[] } {
  if (fillIdSet(state).has(fill.fillId)) {
    return {
      state,
      effects: [{ type: 'FillIgnored', fillId: fill.fillId, clientOrderId: fill.clientOrderId, reason: 'duplicate' }],
    };
  }
  const draft = cloneState(state);
  const effects: FillEffect[] = [];
  if (applyToDraft(draft, fill, effects) === 'ignore') return { state, effects };
  draft.processedFillIds.push(fill.fillId);
  const set = new Set(fillIdSet(state));
  set.add(fill.fillId);
  fillIdSets.set(draft, set);
  return { state: draft, effects };
}

/** Applies a fill (a reducer: `fills.reduce(applyFill, initial)`). The same fillId twice changes nothing. */
export function applyFill(state: GridState, fill: Fill): GridState {
  return processFill(state, fill).state;
}

/** Applies fills in order; same result as reducing with applyFill, in one pass. */
export function applyFills(state: GridState, fills: Iterable<Fill>): GridState {
  const draft = cloneState(state);
  const seen = new Set(fillIdSet(state));
  const effects: FillEffect[] = [];
  let changed = false;
  for (const fill of fills) {
    if (seen.has(fill.fillId)) continue;
    if (applyToDraft(draft, fill, effects) === 'ignore') continue;
    draft.processedFillIds.push(fill.fillId);
    seen.add(fill.fillId);
    changed = true;
  }
  if (!changed) return state;
  fillIdSets.set(draft, seen);
  return draft;
}

// ---- Orders cancelled outside GridRocket ----

/** How many times in a row one order of the grid is replaced after being cancelled outside GridRocket. */
export const MAX_REARMS = 3;

/**
 * The grid after the venue reported its current order `clientOrderId` cancelled outside GridRocket
 * (by the trader on the exchange's site, another tool, the venue): that order is replaced by the same
 * order under a new id, never the old one (a client order id is used once: crash safety relies on it).
 * A buy takes the level's next `r<k>` suffix and what is left of the level; a take-profit takes the
 * next `tp<n>` for the whole position. Null when the id is not the grid's current order (nothing to
 * replace) or when it was replaced MAX_REARMS times in a row already (the caller flags it and stops).
 * The runner records the replacement (BotDriftDetected with `replacedBy`) before it places anything,
 * and a replay applies it at the same place among the fills, so the rebuilt grid is the same.
 */
export function rearmOrder(state: GridState, clientOrderId: string): { state: GridState; replacement: string } | null {
  const id = parseClientOrderId(clientOrderId);
  if (!id || id.hash !== botHash(state.botId)) return null;
  if (id.kind === 'buy') {
    const level = state.levels[id.level];
    if (!level || level.status === 'filled' || level.armedCycle !== id.cycle || (level.rearm ?? 0) !== id.rearm) return null;
    if (id.rearm >= MAX_REARMS) return null;
    const draft = cloneState(state);
    draft.levels[id.level].rearm = id.rearm + 1;
    fillIdSets.set(draft, fillIdSet(state));
    return { state: draft, replacement: buyOrderId(state.botId, id.cycle, id.level, id.rearm + 1) };
  }
  if (id.kind === 'take-profit') {
    const tp = state.tp;
    if (!tp || id.cycle !== state.cycle || id.seq !== tp.seq || state.position.amount <= 0) return null;
    if ((tp.rearms ?? 0) >= MAX_REARMS) return null;
    const draft = cloneState(state);
    draft.tp = { seq: tp.seq + 1, amount: state.position.amount, rearms: (tp.rearms ?? 0) + 1 };
    fillIdSets.set(draft, fillIdSet(state));
    return { state: draft, replacement: takeProfitOrderId(state.botId, state.cycle, tp.seq + 1) };
  }
  return null; // a stop-loss sell is never placed again (risk.ts)
}

// ---- Orders ----

/**
 * averageEntry × (1 + takeProfit/100) rounded UP to the price step, always strictly above the entry.
 * Short (issue 32): averageEntry × (1 − takeProfit/100) rounded DOWN, always strictly below the entry
 * (and at least one price step: a take-profit at 0 cannot be placed).
 */
export function takeProfitPrice(averageEntry: number, takeProfit: number, priceStep: number, direction: Direction = 'long'): number {
  if (direction === 'short') {
    const price = floorToStep(averageEntry * (1 - takeProfit / 100), priceStep);
    if (price < averageEntry && price > 0) return price;
    return Math.max(priceStep, fromSteps(Math.round(ceilToStep(averageEntry, priceStep) / priceStep) - 1, priceStep));
  }
  const price = ceilToStep(averageEntry * (1 + takeProfit / 100), priceStep);
  if (price > averageEntry) return price;
  return fromSteps(Math.round(floorToStep(averageEntry, priceStep) / priceStep) + 1, priceStep);
}

/** The direction a state trades (absent: long). */
export function stateDirection(state: Pick<GridState, 'direction'>): Direction {
  return state.direction === 'short' ? 'short' : 'long';
}

/** The take-profit that should rest now, or null (flat, or a position too small for the market). */
export function takeProfitOrder(config: GridConfig, rules: MarketRules, state: GridState): DesiredOrder | null {
  const { tp, position } = state;
  if (!tp || position.amount <= 0) return null;
  const direction = stateDirection(state);
  const price = takeProfitPrice(position.averageEntry, config.takeProfit, rules.priceStep, direction);
  const amount = floorToStep(position.amount, rules.amountStep);
  if (amount <= 0) return null;
  // Minimums apply to the order as placed (its full amount), not to what is left after partial fills.
  const placed = floorToStep(tp.amount, rules.amountStep);
  if (roundMoney(placed * price) < rules.minNotional) return null;
  if (rules.minAmount !== undefined && placed < rules.minAmount) return null;
  return {
    clientOrderId: takeProfitOrderId(state.botId, state.cycle, tp.seq),
    role: 'take-profit',
    side: exitSide(direction),
    type: 'limit',
    price,
    amount,
    // futures: the close must never open a position the other way (short: never a long from the buy)
    reduceOnly: config.botType === 'Futures',
    cycle: state.cycle,
    tpSeq: tp.seq,
  };
}

/**
 * The exact set of orders that should be open now: the take-profit (at most one) first, then every
 * ladder buy not yet completely filled (a partly filled one with what is left), highest price first
 * (short: every ladder sell, lowest price first).
 * The ladder is the one frozen in the state at start; `config` gives the take-profit percentage and
 * the bot type, `rules` the market steps.
 */
export function desiredOrders(config: GridConfig, rules: MarketRules, state: GridState): DesiredOrder[] {
  const orders: DesiredOrder[] = [];
  const tp = takeProfitOrder(config, rules, state);
  if (tp) orders.push(tp);
  const side = entrySide(stateDirection(state));
  for (const level of state.levels) {
    if (level.status === 'filled') continue;
    const amount = floorToStep(subClean(level.amount, level.filled), rules.amountStep);
    if (amount <= 0) continue; // only a rest smaller than the amount step: nothing the exchange can take
    orders.push({
      clientOrderId: buyOrderId(state.botId, level.armedCycle, level.index, level.rearm ?? 0),
      role: 'buy',
      side,
      type: 'limit',
      price: level.price,
      amount,
      reduceOnly: false,
      cycle: level.armedCycle,
      level: level.index,
    });
  }
  return orders;
}

/**
 * Why the grid cannot make progress on its own, or null. The one case: a position remains (e.g. the
 * rest after a replaced take-profit filled in a race) that is below the market's minimums, so no
 * take-profit can be placed, and no buy is left to grow it. The runner should stop the bot with this
 * reason (BotFailed) rather than stall silently.
 */
export function stalledReason(config: GridConfig, rules: MarketRules, state: GridState): string | null {
  if (state.position.amount <= 0) return null;
  const orders = desiredOrders(config, rules, state);
  if (orders.length > 0) return null;
  const price = takeProfitPrice(state.position.averageEntry, config.takeProfit, rules.priceStep, stateDirection(state));
  const amount = floorToStep(state.position.amount, rules.amountStep);
  const worth = roundMoney(amount * price);
  const minimum =
    rules.minAmount !== undefined && amount < rules.minAmount
      ? `the market's minimum amount of ${rules.minAmount}`
      : `the market's minimum order value of ${rules.minNotional}`;
  return `The remaining position of ${amount} (worth ${worth} at the take-profit price ${price}) is below ${minimum}, and every ${state.direction === 'short' ? 'sell' : 'buy'} of the ladder has filled: the take-profit cannot be placed`;
}

export interface ReconcileOptions {
  /** When given, only open orders with this bot's client order ids are considered; others are `foreign`. */
  botId?: string;
  /**
   * The bot's recently closed orders on the exchange (filled or cancelled), by client order id. A
   * desired order found here is not placed again: its fills must be fetched and applied first
   * (`awaitingFills`).
   */
  closed?: ReadonlyMap<string, ExchangeOrderRef>;
}

/**
 * Compares the desired orders with the exchange's open orders by client order id.
 * Execute `toCancel` before `toPlace` (on spot the old take-profit holds the coins the new one sells).
 */
export function reconcile<O extends ExchangeOrderRef>(
  desired: readonly DesiredOrder[],
  openOnExchange: readonly O[],
  options: ReconcileOptions = {},
): Reconciliation<O> {
  const wanted = new Map<string, DesiredOrder>();
  for (const d of desired) if (!wanted.has(d.clientOrderId)) wanted.set(d.clientOrderId, d);

  const result: Reconciliation<O> = { toPlace: [], toCancel: [], adopted: [], awaitingFills: [], foreign: [] };
  const adoptedIds = new Set<string>();
  for (const order of openOnExchange) {
    if (options.botId !== undefined && !isOwnClientOrderId(options.botId, order.clientOrderId)) {
      result.foreign.push(order);
      continue;
    }
    const match = wanted.get(order.clientOrderId);
    if (match && !adoptedIds.has(order.clientOrderId)) {
      adoptedIds.add(order.clientOrderId);
      result.adopted.push({ desired: match, onExchange: order });
    } else {
      result.toCancel.push(order); // not desired, or a second order under the same id
    }
  }
  for (const d of wanted.values()) {
    if (adoptedIds.has(d.clientOrderId)) continue;
    const done = options.closed?.get(d.clientOrderId);
    if (done) result.awaitingFills.push({ desired: d, onExchange: done });
    else result.toPlace.push(d);
  }
  return result;
}
