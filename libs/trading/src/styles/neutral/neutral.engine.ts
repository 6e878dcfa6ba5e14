// Over 300 lines: the neutral grid's one pure state machine (lines, fills, lots, orders, bounds) reads best in one file.
/**
 * The NEUTRAL futures grid (issue 32, "Direction on futures: neutral"), pure like grid.engine.ts: no I/O,
 * no clock. It is its own state machine beside the long/short engine (whose cycle, average entry and
 * single take-profit do not describe it); it shares the ids, the rounding and the liquidation formulas.
 *
 * The grid. A reference price R (the config's `entryPrice`) and 2N+1 price lines
 *     line L (L = 0 … 2N) at R + (L − N)·interval,     N = numOfOrders,
 * the lines below R rounded DOWN to the price step, those above rounded UP, R to the nearest step.
 * One line, the CURSOR, holds no order; every line below it a limit buy of `orderSize`, every line above
 * it a limit sell. At start the cursor is R's line (N): N buys below R, N sells above. Each completely
 * filled order moves the cursor one line: a buy filled at line L (the one just below the cursor) makes L
 * the cursor and puts a sell on the old cursor's line L+1 (the fill's answer, one step away); a sell
 * filled at L makes L the cursor and puts a buy on L−1. So
 *     units = completed buys − completed sells = N − cursor,  position = units × orderSize,
 * and since the cursor stays on the lines 0 … 2N the position stays within ±N × orderSize (all buys
 * filled: long N×size; all sells filled: short N×size). A partly filled order keeps resting for what is
 * left (its answer comes when it is complete). The desired orders are a function of the cursor and each
 * line's generation, so the runner's reconcile loop can repeat them after any crash.
 *
 * Client order ids: line L's order of generation g is `gr-<h>-<g>-b<L>` (client-order-id.ts): the "cycle"
 * of the id is the line's generation, raised each time the line gets a new order (an answer of the other
 * side, or the same side again after its fill), so an id is never re-used. If fills arrive out of price
 * order (two orders crossed at one print, reported the lower first), the cursor's move can leave a resting
 * order on the new cursor line: it is retired (cancelled) and remembered with its side, so a late fill
 * of it still counts, moves the cursor again, and the grid settles to the same orders as the in-order case.
 *
 * One-way position mode, reduce-only (the venue judges): an order that can only ever CLOSE part of the
 * grid's position is reduce-only, every order that may open one is not:
 *  - a sell on a line at or below R (L ≤ N) answers a buy below R: it closes the long that buy opened;
 *  - a buy on a line at or above R (L ≥ N) answers a sell above R: it closes the short that sell opened;
 *  - buys below R and sells above R open (or grow) the position: not reduce-only.
 * The reduce-only sells rest on lines cursor+1 … N, one per completed long unit, so their total is the
 * long position less what of it is still partly filled: never more than the position, which is the
 * condition under which Binance USDⓈ-M accepts a reduce-only order ("ReduceOnly Order is rejected", -2022,
 * https://developers.binance.com/docs/derivatives/usds-margined-futures/error-code) and the mirror for
 * the short side. A reduce-only order never flips the position, so the grid never holds more than its
 * bounds even if a print jumps over several lines.
 *
 * Profit per completed pair (buy at P, sell at the next line up): a closing fill is matched with the lot
 * opened one line away (its pair; else the latest lot), even when one print filled two orders and the venue
 * reported the later placed one first, so a pair realises
 *     size × (sell price − buy price) − the buy's fee − the sell's fee
 * (a partial close realises its share). Opening lots and their fees wait in `lots` until closed.
 */
import { botHash, buyOrderId, parseClientOrderId, stopLossOrderId } from '../../grid/client-order-id';
import { addClean, ceilToStep, floorToStep, roundMoney, roundToStep, subClean } from '../../grid/decimal';
import { liquidationPrice, type MaintenanceTier } from '../../grid/liquidation';
import type { Fill, GridConfig, MarketRules } from '../../grid/grid.types';

/** A neutral grid's config: a futures GridConfig whose `entryPrice` is the reference price. */
export interface NeutralGridConfig extends Omit<GridConfig, 'direction'> {
  direction: 'neutral';
  /** Stop-loss of the long side: a price below the lowest buy (the config's `stopLossPrice`). */
  stopLossPrice?: number;
  /** Stop-loss of the short side: a price above the highest sell. */
  stopLossPriceAbove?: number;
}

export interface NeutralLine {
  /** L in `R + (L − N)·interval`, 0 … 2N. */
  index: number;
  price: number;
  /** Generation of the line's current order (the `<g>` of its id), from 1. */
  generation: number;
  /** Side of the line's current order (null: the cursor, no order). */
  side: 'buy' | 'sell' | null;
  /** Amount of the current order filled so far. */
  filled: number;
}

/** An opened amount waiting for its closing answer (LIFO). `amount` > 0; `side` says which way it opened. */
export interface NeutralLot {
  side: 'long' | 'short';
  /** The line of the order that opened it. */
  line: number;
  price: number;
  amount: number;
  /** The opening fee not yet charged to a closing fill. */
  fee: number;
}

export interface NeutralState {
  schema: 1;
  kind: 'neutral';
  botId: string;
  /** N: orders on each side at start. */
  orders: number;
  /** Each order's amount (orderSize at the amount step). */
  size: number;
  lines: NeutralLine[];
  /** The line without an order. */
  cursor: number;
  /** Signed base amount held: > 0 long, < 0 short. */
  position: number;
  lots: NeutralLot[];
  /** Orders retired by an out-of-order cursor move, by client order id: their side and what filled. */
  retired: Record<string, { side: 'buy' | 'sell'; filled: number; line: number }>;
  profit: number;
  feesPaid: number;
  pairsCompleted: number;
  processedFillIds: string[];
  /** A stop-loss under way (runner: neutralStopLoss set it off): no order rests, the position is closed at market. */
  stopLoss?: NeutralStopLossState;
}

/**
 * A neutral grid's stop-loss (issue 32): set off by the price beyond a stop with a position on that side
 * (neutralStopLoss); every order of the grid is cancelled and the position closed at market, reduce-only,
 * under the fixed id `gr-<h>-<seq>-sl1` (never twice). `result`: what its fills realised (< 0 a loss).
 */
export interface NeutralStopLossState {
  side: 'long' | 'short';
  /** The stop level crossed and the price that crossed it. */
  level: number;
  price: number;
  /** The `<seq>` of the close's id: above every generation the bot used, so never an id seen before. */
  seq: number;
  result: number;
}

export interface NeutralDesiredOrder {
  clientOrderId: string;
  side: 'buy' | 'sell';
  type: 'limit';
  price: number;
  amount: number;
  reduceOnly: boolean;
  line: number;
  generation: number;
}

export type NeutralFillEffect =
  | { type: 'FillIgnored'; fillId: string; clientOrderId: string; reason: 'duplicate' | 'not-this-bot' | 'unknown-order' | 'invalid-fill' }
  | {
      type: 'NeutralFilled';
      fillId: string;
      clientOrderId: string;
      side: 'buy' | 'sell';
      line: number;
      price: number;
      amount: number;
      fee: number;
      /** Amount that opened (or grew) the position, and amount that closed part of it. */
      opened: number;
      closed: number;
      /** Profit realised by the closed amount (its share of opening fees and this fill's fee); 0 for an opening fill. */
      profit: number;
      /** The order is now completely filled: the cursor moved to its line. */
      complete: boolean;
      position: number;
      /** The fill of the stop-loss's market close (line −1). */
      stopLoss?: true;
    };

// ---- The lines and their checks ----

function fmt(x: number): string {
  return String(Number(x.toPrecision(12)));
}

/** The 2N+1 line prices (L = 0 … 2N), without validation. */
export function neutralLinePrices(config: Pick<GridConfig, 'entryPrice' | 'interval' | 'numOfOrders'>, rules: Pick<MarketRules, 'priceStep'>): number[] {
  const n = config.numOfOrders;
  const prices: number[] = [];
  for (let l = 0; l <= 2 * n; l++) {
    const raw = config.entryPrice + (l - n) * config.interval;
    prices.push(l < n ? floorToStep(raw, rules.priceStep) : l > n ? ceilToStep(raw, rules.priceStep) : roundToStep(raw, rules.priceStep));
  }
  return prices;
}

/** Why a neutral config cannot trade on a market, or null. */
export function neutralProblem(config: NeutralGridConfig, rules: MarketRules): string | null {
  if (config.botType !== 'Futures') return 'A neutral grid trades futures only: a spot bot is long';
  const n = config.numOfOrders;
  if (!Number.isInteger(n) || n < 1 || n > 500) return `The number of orders must be a whole number from 1 to 500 on each side (got ${String(n)})`;
  for (const [v, label] of [[config.orderSize, 'Order size'], [config.interval, 'Price interval'], [config.entryPrice, 'Entry price']] as const) {
    if (!(typeof v === 'number' && Number.isFinite(v) && v > 0)) return `${label} must be a number greater than 0 (got ${String(v)})`;
  }
  if (!(Number.isFinite(config.leverage) && config.leverage >= 1)) return `Leverage must be a number of at least 1 (got ${String(config.leverage)})`;
  if (config.spacing === 'percent' || (config.sizeScale !== undefined && config.sizeScale !== 1)) {
    return 'A neutral grid has equal steps and sizes: percent spacing and a size scale apply to long and short grids';
  }
  const size = floorToStep(config.orderSize, rules.amountStep);
  if (size <= 0) return `Order size ${fmt(config.orderSize)} rounds down to 0 at the market's amount step of ${fmt(rules.amountStep)}`;
  if (rules.minAmount !== undefined && size < rules.minAmount) return `Order size ${fmt(size)} is below the market's minimum amount of ${fmt(rules.minAmount)}`;
  const prices = neutralLinePrices(config, rules);
  if (prices[0] <= 0) {
    return `The lowest buy would be priced at or below zero: ${fmt(config.entryPrice)} − ${n} × ${fmt(config.interval)} = ${fmt(config.entryPrice - n * config.interval)}`;
  }
  for (let l = 1; l < prices.length; l++) {
    if (prices[l] <= prices[l - 1]) return `Two lines would both be priced at ${fmt(prices[l])}: the interval ${fmt(config.interval)} is too small for the market's price step of ${fmt(rules.priceStep)}`;
  }
  const low = roundMoney(prices[0] * size);
  if (low < rules.minNotional) return `The lowest buy would be worth ${fmt(low)} (${fmt(size)} × ${fmt(prices[0])}), below the market's minimum order value of ${fmt(rules.minNotional)}`;
  if (config.stopLossPrice !== undefined && !(config.stopLossPrice > 0 && config.stopLossPrice < prices[0])) {
    return `The stop-loss price ${fmt(config.stopLossPrice)} of a neutral grid must be below its lowest buy at ${fmt(prices[0])}`;
  }
  if (config.stopLossPriceAbove !== undefined && !(config.stopLossPriceAbove > prices[2 * n])) {
    return `The upper stop-loss price ${fmt(config.stopLossPriceAbove)} of a neutral grid must be above its highest sell at ${fmt(prices[2 * n])}`;
  }
  return null;
}

/** The state of a neutral grid that has just started: the cursor on R's line, N buys below, N sells above, flat. */
export function initialNeutralState(config: NeutralGridConfig, rules: MarketRules, botId: string): NeutralState {
  if (typeof botId !== 'string' || botId.length === 0) throw new Error('A grid needs a bot id');
  const problem = neutralProblem(config, rules);
  if (problem) throw new Error(`Invalid grid: ${problem}`);
  const n = config.numOfOrders;
  return {
    schema: 1,
    kind: 'neutral',
    botId,
    orders: n,
    size: floorToStep(config.orderSize, rules.amountStep),
    lines: neutralLinePrices(config, rules).map((price, index) => ({ index, price, generation: 1, side: index < n ? 'buy' : index > n ? 'sell' : null, filled: 0 })),
    cursor: n,
    position: 0,
    lots: [],
    retired: {},
    profit: 0,
    feesPaid: 0,
    pairsCompleted: 0,
    processedFillIds: [],
  };
}

// ---- Fills ----

function cloneNeutral(s: NeutralState): NeutralState {
  return { ...s, lines: s.lines.map((l) => ({ ...l })), lots: s.lots.map((l) => ({ ...l })), retired: Object.fromEntries(Object.entries(s.retired).map(([k, v]) => [k, { ...v }])), processedFillIds: s.processedFillIds.slice(), ...(s.stopLoss ? { stopLoss: { ...s.stopLoss } } : {}) };
}

/** The highest `<g>` (or stop-loss `<seq>`) of the bot's ids so far: a new order is numbered above it. */
export function neutralIdsUsed(s: NeutralState): number {
  return Math.max(0, s.stopLoss?.seq ?? 0, ...s.lines.map((l) => l.generation), ...Object.keys(s.retired).map((id) => parseClientOrderId(id)?.cycle ?? 0));
}

/**
 * A new run that restarts the book (after a cancel-all stop, an edit, a failure): the grid starts again
 * from its reference, flat, its lines' generations above every id of `previous` (the engine's bot id is
 * the bot's across runs, so an id is never used twice: a venue would refuse it, or the runner adopt the
 * old order). What `previous` held stays on the venue, shown on the bot page; the new grid books only
 * its own fills.
 */
export function restartNeutral(previous: NeutralState | null, config: NeutralGridConfig, rules: MarketRules, botId: string): NeutralState {
  const s = initialNeutralState(config, rules, botId);
  if (!previous) return s;
  const base = neutralIdsUsed(previous);
  for (const line of s.lines) line.generation = base + 1;
  return s;
}

/** The stop-loss begins (the runner records StopLossStarted first): no order rests any more, the close follows. */
export function beginNeutralStopLoss(state: NeutralState, price: number, level: number): NeutralState {
  if (state.stopLoss || state.position === 0) return state;
  const s = cloneNeutral(state);
  s.stopLoss = { side: s.position > 0 ? 'long' : 'short', level, price, seq: neutralIdsUsed(s) + 1, result: 0 };
  return s;
}

/** The market close of a stop-loss under way: what is left of the position, at the amount step; null when nothing is. */
export function neutralStopLossOrder(rules: Pick<MarketRules, 'amountStep'>, state: NeutralState): { clientOrderId: string; side: 'buy' | 'sell'; amount: number; seq: number } | null {
  const sl = state.stopLoss;
  if (!sl) return null;
  const amount = floorToStep(Math.abs(state.position), rules.amountStep);
  if (amount <= 0) return null;
  return { clientOrderId: stopLossOrderId(state.botId, sl.seq), side: state.position > 0 ? 'sell' : 'buy', amount, seq: sl.seq };
}

/** A stop-loss begun and finished (nothing left to close): the reason the bot stops with; null otherwise. */
export function neutralStopLossDone(rules: Pick<MarketRules, 'amountStep'>, state: NeutralState, quote = 'USDT'): string | null {
  const sl = state.stopLoss;
  if (!sl || floorToStep(Math.abs(state.position), rules.amountStep) > 0) return null;
  const what = sl.side === 'long' ? 'the long position was sold at market' : 'the short position was bought back at market';
  if (sl.result === 0) return `Stop-loss triggered at ${sl.price} (stop level ${sl.level}): the grid's own orders had already closed the position, nothing was left to close`;
  return `Stop-loss triggered at ${sl.price} (stop level ${sl.level}): ${what}, ${sl.result < 0 ? `loss ${roundMoney(-sl.result)}` : `profit ${roundMoney(sl.result)}`} ${quote}`;
}

function validFill(fill: Fill): boolean {
  return typeof fill.fillId === 'string' && fill.fillId.length > 0 && typeof fill.clientOrderId === 'string' && Number.isFinite(fill.price) && fill.price > 0 && Number.isFinite(fill.amount) && fill.amount > 0 && Number.isFinite(fill.fee);
}

/** Puts the cursor on `to` and gives every other line the order its place asks for (a new generation when it changes). */
function moveCursor(s: NeutralState, to: number): void {
  s.cursor = to;
  for (const line of s.lines) {
    const want: 'buy' | 'sell' | null = line.index < to ? 'buy' : line.index > to ? 'sell' : null;
    if (line.side === want && line.filled === 0) continue;
    if (line.side === want && line.filled > 0 && subClean(s.size, line.filled) > 0) continue; // partly filled, same side: keeps resting
    if (line.side !== null && subClean(s.size, line.filled) > 0) {
      // an order still (partly) resting whose line now wants another order or none: retired, its late fills still count
      s.retired[buyOrderId(s.botId, line.generation, line.index)] = { side: line.side, filled: line.filled, line: line.index };
    }
    // a new order gets the line's next generation; the cursor keeps the generation of the order it had
    if (want !== null) line.generation += 1;
    line.side = want;
    line.filled = 0;
  }
}

/**
 * Books `amount` at `price` of `side` on `line` into the lots and the position; returns what opened, closed
 * and the profit. A closing fill is matched first with the lot opened one line away (its pair: a sell on L
 * closes the long bought on L−1, a buy on L the short sold on L+1), then with the latest lots (LIFO).
 */
function book(s: NeutralState, side: 'buy' | 'sell', line: number, price: number, amount: number, fee: number): { opened: number; closed: number; profit: number } {
  const closing: NeutralLot['side'] = side === 'buy' ? 'short' : 'long';
  const pairLine = side === 'sell' ? line - 1 : line + 1;
  let rest = amount;
  let closed = 0;
  let profit = 0;
  while (rest > 0 && s.lots.length > 0 && s.lots[s.lots.length - 1].side === closing) {
    const paired = s.lots.findIndex((l) => l.line === pairLine);
    const at = paired >= 0 ? paired : s.lots.length - 1;
    const lot = s.lots[at];
    const take = Math.min(rest, lot.amount);
    const whole = subClean(lot.amount, take) <= 0;
    const feeShare = whole ? lot.fee : lot.fee * (take / lot.amount);
    profit += (closing === 'long' ? price - lot.price : lot.price - price) * take - feeShare;
    if (whole) {
      s.lots.splice(at, 1);
      s.pairsCompleted += 1;
    } else {
      lot.amount = subClean(lot.amount, take);
      lot.fee = lot.fee - feeShare;
    }
    closed = addClean(closed, take);
    rest = subClean(rest, take);
  }
  const opened = rest > 0 ? rest : 0;
  if (opened > 0) s.lots.push({ side: side === 'buy' ? 'long' : 'short', line, price, amount: opened, fee: fee * (opened / amount) });
  const closeFee = opened > 0 ? fee * (closed / amount) : fee;
  if (closed > 0) profit -= closeFee;
  s.position = side === 'buy' ? addClean(s.position, amount) : subClean(s.position, amount);
  return { opened, closed, profit: closed > 0 ? roundMoney(profit) : 0 };
}

function applyNeutral(s: NeutralState, fill: Fill, effects: NeutralFillEffect[]): boolean {
  const ignored = (reason: Extract<NeutralFillEffect, { type: 'FillIgnored' }>['reason']): boolean => {
    effects.push({ type: 'FillIgnored', fillId: fill.fillId, clientOrderId: fill.clientOrderId, reason });
    return false;
  };
  if (!validFill(fill)) return ignored('invalid-fill');
  const id = parseClientOrderId(fill.clientOrderId);
  if (!id || id.hash !== botHash(s.botId)) return ignored('not-this-bot');
  if (id.kind === 'stop-loss' && s.stopLoss && id.cycle === s.stopLoss.seq) {
    // the stop-loss close: it books against the lots (latest first), the cursor stays
    const side = s.stopLoss.side === 'long' ? 'sell' : 'buy';
    const { opened, closed, profit } = book(s, side, -2, fill.price, fill.amount, fill.fee);
    s.profit = roundMoney(s.profit + profit);
    s.feesPaid = roundMoney(s.feesPaid + fill.fee);
    s.stopLoss.result = roundMoney(s.stopLoss.result + profit);
    effects.push({ type: 'NeutralFilled', fillId: fill.fillId, clientOrderId: fill.clientOrderId, side, line: -1, price: fill.price, amount: fill.amount, fee: fill.fee, opened, closed, profit, complete: false, position: s.position, stopLoss: true });
    return true;
  }
  if (id.kind !== 'buy' || id.rearm !== 0) return ignored('unknown-order');
  const line = s.lines[id.level];
  if (!line) return ignored('unknown-order');
  const retired = s.retired[fill.clientOrderId];
  let side: 'buy' | 'sell';
  let complete = false;
  if (retired) {
    side = retired.side;
    retired.filled = addClean(retired.filled, fill.amount);
    complete = subClean(s.size, retired.filled) <= 0;
    if (complete) delete s.retired[fill.clientOrderId];
  } else if (id.cycle === line.generation && line.side !== null) {
    side = line.side;
    line.filled = addClean(line.filled, fill.amount);
    complete = subClean(s.size, line.filled) <= 0;
  } else {
    return ignored('unknown-order');
  }
  const { opened, closed, profit } = book(s, side, id.level, fill.price, fill.amount, fill.fee);
  s.profit = roundMoney(s.profit + profit);
  s.feesPaid = roundMoney(s.feesPaid + fill.fee);
  if (complete) {
    // the filled order's line becomes the cursor: its answer goes on the old cursor's side, one line away
    const to = Math.max(0, Math.min(2 * s.orders, side === 'buy' ? s.cursor - 1 : s.cursor + 1));
    moveCursor(s, to);
  }
  effects.push({ type: 'NeutralFilled', fillId: fill.fillId, clientOrderId: fill.clientOrderId, side, line: id.level, price: fill.price, amount: fill.amount, fee: fill.fee, opened, closed, profit, complete, position: s.position });
  return true;
}

/** Applies a fill and says what it did. Idempotent by fillId (a repeat returns the same state). */
export function processNeutralFill(state: NeutralState, fill: Fill): { state: NeutralState; effects: NeutralFillEffect[] } {
  if (state.processedFillIds.includes(fill.fillId)) {
    return { state, effects: [{ type: 'FillIgnored', fillId: fill.fillId, clientOrderId: fill.clientOrderId, reason: 'duplicate' }] };
  }
  const draft = cloneNeutral(state);
  const effects: NeutralFillEffect[] = [];
  if (!applyNeutral(draft, fill, effects)) return { state, effects };
  draft.processedFillIds.push(fill.fillId);
  return { state: draft, effects };
}

/**
 * A market close of the position outside the grid's orders (issue 40: a stop that sells the position, the
 * venue's liquidation): booked against the lots, latest first, as the stop-loss's close is; the cursor and
 * the lines stay. What it realised (quote, fees included) and the grid after it.
 */
export function neutralClose(state: NeutralState, fill: { side: 'buy' | 'sell'; price: number; amount: number; fee: number }): { state: NeutralState; profit: number } {
  const s = cloneNeutral(state);
  const { closed, profit } = book(s, fill.side, -2, fill.price, fill.amount, fill.fee);
  return { state: s, profit: closed > 0 ? profit : roundMoney(-fill.fee) };
}

/** Applies fills in order (`fills.reduce(applyNeutralFill, initial)`). */
export function applyNeutralFills(state: NeutralState, fills: Iterable<Fill>): NeutralState {
  // One draft and one set of fill ids for the whole replay: a fill at a time (a copy and a search of every
  // id so far) made a bot's resume quadratic in its history.
  const draft = cloneNeutral(state);
  const seen = new Set(state.processedFillIds);
  const effects: NeutralFillEffect[] = [];
  let changed = false;
  for (const f of fills) {
    if (seen.has(f.fillId)) continue;
    effects.length = 0;
    if (!applyNeutral(draft, f, effects)) continue; // (an ignored fill changes nothing: applyNeutral refuses before it writes)
    draft.processedFillIds.push(f.fillId);
    seen.add(f.fillId);
    changed = true;
  }
  return changed ? draft : state;
}

// ---- Orders ----

/**
 * The exact set of orders that should rest now: a buy on every line below the cursor and a sell on every
 * line above it (a partly filled one for what is left), the closing ones reduce-only (see the header).
 * Sorted nearest the cursor first.
 */
export function neutralDesiredOrders(rules: Pick<MarketRules, 'amountStep'>, state: NeutralState): NeutralDesiredOrder[] {
  if (state.stopLoss) return []; // a stop-loss under way: every order of the grid is cancelled
  const n = state.orders;
  const out: NeutralDesiredOrder[] = [];
  for (const line of state.lines) {
    if (line.side === null) continue;
    const amount = floorToStep(subClean(state.size, line.filled), rules.amountStep);
    if (amount <= 0) continue;
    out.push({
      clientOrderId: buyOrderId(state.botId, line.generation, line.index),
      side: line.side,
      type: 'limit',
      price: line.price,
      amount,
      reduceOnly: line.side === 'sell' ? line.index <= n : line.index >= n,
      line: line.index,
      generation: line.generation,
    });
  }
  return out.sort((a, b) => Math.abs(a.line - state.cursor) - Math.abs(b.line - state.cursor) || a.line - b.line);
}

// ---- Worst cases: liquidation and stop-loss ----

export interface NeutralLiquidation {
  /** Liquidation price of the long N×size (all buys filled), 0 when none. */
  long: number;
  /** Liquidation price of the short N×size (all sells filled). */
  short: number;
  /** Why the grid must not start (a side whose position would be liquidated before its last order fills), or null. */
  problem: string | null;
}

/**
 * The liquidation prices of the grid's two worst cases on isolated margin (liquidation.ts, Binance's
 * USDⓈ-M formula and its source there): the buys below R all filled (a long of N×size at their average,
 * the margin Σ price·size ÷ leverage), and the sells above R all filled (the short mirror). Checked rung
 * by rung as in the long and short ladders: a side is refused when the position of its first k orders
 * would be liquidated before order k+1 fills.
 */
export function neutralLiquidation(config: NeutralGridConfig, rules: MarketRules, tiers: readonly MaintenanceTier[]): NeutralLiquidation {
  const n = config.numOfOrders;
  const prices = neutralLinePrices(config, rules);
  const size = floorToStep(config.orderSize, rules.amountStep);
  const side = (dir: 'long' | 'short'): { price: number; problem: string | null } => {
    let amount = 0;
    let cost = 0;
    let liq = 0;
    for (let k = 1; k <= n; k++) {
      const price = dir === 'long' ? prices[n - k] : prices[n + k];
      if (amount > 0 && (dir === 'long' ? liq >= price : liq > 0 && liq <= price)) {
        return {
          price: liq,
          problem: `At leverage ${config.leverage} the ${dir} position of the ${k - 1} ${dir === 'long' ? 'buys below' : 'sells above'} the reference would be liquidated at ${liq}, before the ${dir === 'long' ? 'buy' : 'sell'} ${k} of ${n} at ${price} fills: lower the leverage or narrow the grid`,
        };
      }
      amount += size;
      cost += size * price;
      liq = liquidationPrice(dir, amount, cost / amount, cost / config.leverage, tiers);
    }
    return { price: liq, problem: null };
  };
  const long = side('long');
  const short = side('short');
  return { long: long.price, short: short.price, problem: long.problem ?? short.problem };
}

/** The stop-loss a price sets off, or null: below the lower stop with a long position, above the upper with a short. */
export function neutralStopLoss(config: Pick<NeutralGridConfig, 'stopLossPrice' | 'stopLossPriceAbove'>, state: NeutralState, price: number): { side: 'long' | 'short'; level: number; close: 'buy' | 'sell'; amount: number } | null {
  if (state.position > 0 && config.stopLossPrice !== undefined && price <= config.stopLossPrice) {
    return { side: 'long', level: config.stopLossPrice, close: 'sell', amount: state.position };
  }
  if (state.position < 0 && config.stopLossPriceAbove !== undefined && price >= config.stopLossPriceAbove) {
    return { side: 'short', level: config.stopLossPriceAbove, close: 'buy', amount: -state.position };
  }
  return null;
}
