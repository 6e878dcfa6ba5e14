/**
 * The infinity grid (issue 32, docs/infinity.md), spot only: a separate pure state machine next to the
 * ladder engine (grid.engine.ts), with the same shape of interface: an initial state, fills applied one
 * by one (idempotent by fill id), and the exact set of orders that should rest now (reconciled by client
 * order id, so it may be repeated after any crash).
 *
 *  - a reference price `last`: the price of the last COMPLETED trade (the initial buy, or a step);
 *  - one sell rests one step above it, `last × (1 + stepPercent %)` rounded UP to the price step, for
 *    `quoteValue ÷ price` coin (never more than is held), and one buy one step below,
 *    `last × (1 − stepPercent %)` rounded DOWN, for `quoteValue ÷ price` coin; amounts rounded down;
 *  - no buy is placed below `lowerPrice` (the bot stops buying; its sells go on); there is no upper bound;
 *  - when one of the two fills completely, `last` becomes its price and both orders are replaced by the
 *    next pair (new ids: `gr-<h>-<seq>-ib` / `-is`, `seq` counting the steps), the other one cancelled;
 *    a partial fill keeps both orders working;
 *  - the start (our choice, as Pionex's and HTX's infinity grids hold coin from the start: their FAQs say
 *    the bot keeps the value of the coins it holds constant, https://www.htx.com/support/24910736340516
 *    and https://medium.com/pionex/faq-for-infinity-grids-bot-on-pionex-8306c3e932f1): a limit buy of
 *    `initialQuote ÷ entryPrice` coin at `entryPrice` (`gr-<h>-1-ini`); no step order rests until it has
 *    filled, then `last` is its fill price. With `initialQuote` 0 the bot starts without coin at
 *    `last = entryPrice` (its first sell waits for a buy).
 * Profit: the average-cost method, as the ladder engine: a sell realises `sold × price − sold × average
 * cost` less its share of the buy fees and its own fee; buys change the average, sells do not.
 * A fill of an order already replaced (its cancel raced the fill) is still the bot's: it changes the
 * position and profit, not the reference. A buy holds the net amount the account received (`netAmount`:
 * the fee taken in the coin on Binance spot). No I/O, no clock, no randomness.
 */
import { botHash, clientOrderIdPrefix } from '../../grid/client-order-id';
import { addClean, ceilToStep, cleanNumber, floorToStep, roundMoney, subClean } from '../../grid/decimal';
import type { Fill, MarketRules } from '../../grid/grid.types';
import { meetsOrderMinimums } from '../../grid/risk';

export interface InfinityConfig {
  style: 'infinity';
  botType: 'Spot';
  /** The start: the initial buy's limit price, and the first reference price. */
  entryPrice: number;
  /** One step, in percent of the reference price (e.g. 1 = 1 %). */
  stepPercent: number;
  /** The quote value (USDT) of coin sold on each step up and bought on each step down. */
  quoteValue: number;
  /** No buy below this price. */
  lowerPrice: number;
  /** Quote spent on coin at the start (0: none). */
  initialQuote: number;
}

export type InfinitySide = 'buy' | 'sell';
export type InfinityRole = 'initial' | 'step-buy' | 'step-sell';

/** An order of the current step, with what of it has filled. */
export interface InfinityOrderState {
  role: InfinityRole;
  price: number;
  amount: number;
  filled: number;
}

export interface InfinityState {
  schema: 1;
  style: 'infinity';
  botId: string;
  /** The step whose orders rest now (1: the start). */
  seq: number;
  /** Price of the last completed trade; null while the initial buy waits. */
  last: number | null;
  /** The orders of step `seq` (the initial buy alone at the start). */
  orders: InfinityOrderState[];
  /** Held coin (net of coin fees), its cost at the buy prices, the average, buy fees not yet charged. */
  position: { amount: number; cost: number; averageEntry: number; buyFees: number };
  /** Realised profit after fees (quote, 1e-8). */
  profit: number;
  feesPaid: number;
  /** Completed steps up (sells) and down (buys). */
  stepsUp: number;
  stepsDown: number;
  processedFillIds: string[];
}

export interface InfinityOrder {
  clientOrderId: string;
  role: InfinityRole;
  side: InfinitySide;
  type: 'limit';
  price: number;
  /** What should rest now (for a partly filled order: what is left). */
  amount: number;
  seq: number;
}

export type InfinityEffect =
  | { type: 'FillIgnored'; fillId: string; clientOrderId: string; reason: 'duplicate' | 'not-this-bot' | 'unknown-order' | 'invalid-fill' }
  | { type: 'InfinityBought' | 'InfinitySold'; fillId: string; clientOrderId: string; role: InfinityRole; seq: number; price: number; amount: number; fee: number; profit: number; late: boolean }
  | { type: 'InfinityStepped'; from: number | null; to: number; seq: number; direction: 'up' | 'down' | 'start' };

const ROLE_CODE: Record<InfinityRole, string> = { initial: 'ini', 'step-buy': 'ib', 'step-sell': 'is' };
const ID_PATTERN = /^gr-([0-9a-z]{8})-([1-9]\d*)-(ini|ib|is)$/;

export function infinityOrderId(botId: string, seq: number, role: InfinityRole): string {
  if (!Number.isSafeInteger(seq) || seq < 1) throw new RangeError(`seq must be a whole number ≥ 1, got ${seq}`);
  return `${clientOrderIdPrefix(botId)}${seq}-${ROLE_CODE[role]}`;
}

export function parseInfinityOrderId(id: string): { hash: string; seq: number; role: InfinityRole } | null {
  const m = ID_PATTERN.exec(id);
  if (!m) return null;
  const role = (Object.keys(ROLE_CODE) as InfinityRole[]).find((r) => ROLE_CODE[r] === m[3])!;
  return { hash: m[1], seq: Number(m[2]), role };
}

const positive = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x) && x > 0;
const fmt = (x: number) => String(Number(x.toPrecision(12)));

/** Why an infinity config cannot trade on a market, or null. */
export function infinityProblem(c: InfinityConfig, rules: MarketRules): string | null {
  if (c.botType !== 'Spot') return 'An infinity grid trades spot only';
  if (!positive(c.entryPrice)) return `Entry price must be a number greater than 0 (got ${String(c.entryPrice)})`;
  if (!(positive(c.stepPercent) && c.stepPercent < 50)) return `The step must be a percentage greater than 0 and below 50 (got ${String(c.stepPercent)})`;
  if (!positive(c.quoteValue)) return `The value per step must be greater than 0 (got ${String(c.quoteValue)})`;
  if (!(positive(c.lowerPrice) && c.lowerPrice < c.entryPrice)) return `The lower price must be greater than 0 and below the entry price ${fmt(c.entryPrice)} (got ${String(c.lowerPrice)})`;
  if (!(typeof c.initialQuote === 'number' && Number.isFinite(c.initialQuote) && c.initialQuote >= 0)) return `The initial buy must be 0 or more (got ${String(c.initialQuote)})`;
  const entry = floorToStep(c.entryPrice, rules.priceStep);
  if (entry <= 0) return `Entry price ${fmt(c.entryPrice)} rounds down to 0 at the market's price step of ${fmt(rules.priceStep)}`;
  const up = ceilToStep(entry * (1 + c.stepPercent / 100), rules.priceStep);
  const down = floorToStep(entry * (1 - c.stepPercent / 100), rules.priceStep);
  if (entry * (c.stepPercent / 100) < rules.priceStep) return `A step of ${fmt(c.stepPercent)} % of ${fmt(entry)} is smaller than the market's price step of ${fmt(rules.priceStep)}`;
  for (const price of [up, down]) {
    const amount = floorToStep(c.quoteValue / price, rules.amountStep);
    if (amount <= 0 || roundMoney(amount * price) < rules.minNotional || (rules.minAmount !== undefined && amount < rules.minAmount)) {
      return `A step of ${fmt(c.quoteValue)} USDT at ${fmt(price)} (${fmt(amount)} coin) is below the market's minimum order (value ${fmt(rules.minNotional)}${rules.minAmount !== undefined ? `, amount ${fmt(rules.minAmount)}` : ''})`;
    }
  }
  if (c.initialQuote > 0) {
    const amount = floorToStep(c.initialQuote / entry, rules.amountStep);
    if (amount <= 0 || roundMoney(amount * entry) < rules.minNotional || (rules.minAmount !== undefined && amount < rules.minAmount)) {
      return `The initial buy of ${fmt(c.initialQuote)} USDT at ${fmt(entry)} is below the market's minimum order value of ${fmt(rules.minNotional)}`;
    }
  }
  return null;
}

/** The pair of orders one step either side of `last`, for what is held. */
export function stepOrders(c: InfinityConfig, rules: MarketRules, last: number, held: number): InfinityOrderState[] {
  const out: InfinityOrderState[] = [];
  const sellPrice = ceilToStep(last * (1 + c.stepPercent / 100), rules.priceStep);
  const sellAmount = Math.min(floorToStep(c.quoteValue / sellPrice, rules.amountStep), floorToStep(held, rules.amountStep));
  if (meetsOrderMinimums(rules, sellAmount, sellPrice)) out.push({ role: 'step-sell', price: sellPrice, amount: sellAmount, filled: 0 });
  const buyPrice = floorToStep(last * (1 - c.stepPercent / 100), rules.priceStep);
  const buyAmount = floorToStep(c.quoteValue / buyPrice, rules.amountStep);
  if (buyPrice >= c.lowerPrice && meetsOrderMinimums(rules, buyAmount, buyPrice)) out.push({ role: 'step-buy', price: buyPrice, amount: buyAmount, filled: 0 });
  return out;
}

/** A bot that has just started: the initial buy (or, without one, the first pair of steps around the entry). */
export function infinityInitialState(c: InfinityConfig, rules: MarketRules, botId: string): InfinityState {
  if (!botId) throw new Error('A grid needs a bot id');
  const problem = infinityProblem(c, rules);
  if (problem) throw new Error(`Invalid infinity grid: ${problem}`);
  const entry = floorToStep(c.entryPrice, rules.priceStep);
  const base: InfinityState = {
    schema: 1, style: 'infinity', botId, seq: 1, last: null, orders: [],
    position: { amount: 0, cost: 0, averageEntry: 0, buyFees: 0 }, profit: 0, feesPaid: 0, stepsUp: 0, stepsDown: 0, processedFillIds: [],
  };
  if (c.initialQuote > 0) return { ...base, orders: [{ role: 'initial', price: entry, amount: floorToStep(c.initialQuote / entry, rules.amountStep), filled: 0 }] };
  return { ...base, last: entry, orders: stepOrders(c, rules, entry, 0) };
}

function validFill(f: Fill): boolean {
  return typeof f.fillId === 'string' && f.fillId.length > 0 && typeof f.clientOrderId === 'string' && positive(f.price) && positive(f.amount) && Number.isFinite(f.fee)
    && (f.netAmount === undefined || (Number.isFinite(f.netAmount) && f.netAmount >= 0));
}

/** Applies one fill (idempotent by fill id) and says what it did. */
export function processInfinityFill(c: InfinityConfig, rules: MarketRules, state: InfinityState, fill: Fill): { state: InfinityState; effects: InfinityEffect[] } {
  const ignored = (reason: Extract<InfinityEffect, { type: 'FillIgnored' }>['reason']) => ({ state, effects: [{ type: 'FillIgnored' as const, fillId: fill.fillId, clientOrderId: fill.clientOrderId, reason }] });
  if (state.processedFillIds.includes(fill.fillId)) return ignored('duplicate');
  if (!validFill(fill)) return ignored('invalid-fill');
  const id = parseInfinityOrderId(fill.clientOrderId);
  if (!id || id.hash !== botHash(state.botId)) return ignored('not-this-bot');
  if (id.seq > state.seq) return ignored('unknown-order');
  const current = id.seq === state.seq ? state.orders.find((o) => o.role === id.role) : undefined;
  if (id.seq === state.seq && !current) return ignored('unknown-order');

  const draft: InfinityState = { ...state, orders: state.orders.map((o) => ({ ...o })), position: { ...state.position }, processedFillIds: [...state.processedFillIds, fill.fillId] };
  const pos = draft.position;
  const effects: InfinityEffect[] = [];
  const buy = id.role !== 'step-sell';
  let profit = 0;
  if (buy) {
    const held = fill.netAmount !== undefined && fill.netAmount <= fill.amount ? fill.netAmount : fill.amount;
    pos.cost = addClean(pos.cost, fill.price * held);
    pos.amount = addClean(pos.amount, held);
    pos.averageEntry = pos.amount > 0 ? cleanNumber(pos.cost / pos.amount) : 0;
    pos.buyFees = addClean(pos.buyFees, fill.fee);
  } else {
    const sold = Math.min(fill.amount, pos.amount);
    profit = -fill.fee;
    if (sold > 0) {
      const whole = subClean(pos.amount, sold) <= 0;
      const costShare = whole ? pos.cost : (pos.cost * sold) / pos.amount;
      const feeShare = whole ? pos.buyFees : (pos.buyFees * sold) / pos.amount;
      profit += sold * fill.price - costShare - feeShare;
      pos.amount = whole ? 0 : subClean(pos.amount, sold);
      pos.cost = whole ? 0 : subClean(pos.cost, costShare);
      pos.buyFees = whole ? 0 : subClean(pos.buyFees, feeShare);
      if (whole) pos.averageEntry = 0;
    }
    profit = roundMoney(profit);
    draft.profit = roundMoney(draft.profit + profit);
  }
  draft.feesPaid = roundMoney(draft.feesPaid + fill.fee);
  effects.push({ type: buy ? 'InfinityBought' : 'InfinitySold', fillId: fill.fillId, clientOrderId: fill.clientOrderId, role: id.role, seq: id.seq, price: fill.price, amount: fill.amount, fee: fill.fee, profit, late: !current });

  if (current) {
    const order = draft.orders.find((o) => o.role === id.role)!;
    order.filled = addClean(order.filled, fill.amount);
    if (subClean(order.amount, order.filled) <= 0) {
      // the order is complete: its price is the new reference, the next pair replaces both orders
      const from = draft.last;
      draft.last = fill.price;
      draft.seq += 1;
      draft.orders = stepOrders(c, rules, fill.price, pos.amount);
      if (id.role === 'step-sell') draft.stepsUp += 1;
      if (id.role === 'step-buy') draft.stepsDown += 1;
      effects.push({ type: 'InfinityStepped', from, to: fill.price, seq: draft.seq, direction: id.role === 'initial' ? 'start' : id.role === 'step-sell' ? 'up' : 'down' });
    }
  }
  return { state: draft, effects };
}

/**
 * Applies fills in order (as `fills.reduce` of processInfinityFill), in time linear in the history: the
 * fill ids are kept aside in a set while the fills apply (a fill at a time copied and searched every id so
 * far, which made a bot's resume quadratic in its history).
 */
export function applyInfinityFills(c: InfinityConfig, rules: MarketRules, state: InfinityState, fills: Iterable<Fill>): InfinityState {
  const ids = state.processedFillIds.slice();
  const seen = new Set(ids);
  let s: InfinityState = { ...state, processedFillIds: [] };
  let changed = false;
  for (const f of fills) {
    if (seen.has(f.fillId)) continue;
    const r = processInfinityFill(c, rules, s, f);
    if (r.state === s) continue; // ignored
    s = { ...r.state, processedFillIds: [] };
    ids.push(f.fillId);
    seen.add(f.fillId);
    changed = true;
  }
  return changed ? { ...s, processedFillIds: ids } : state;
}

/** The orders that should rest now: the initial buy alone, then the step sell (if anything to sell) and the step buy (if not below the lower price). */
export function infinityDesiredOrders(rules: MarketRules, state: InfinityState): InfinityOrder[] {
  const out: InfinityOrder[] = [];
  for (const o of state.orders) {
    const amount = floorToStep(subClean(o.amount, o.filled), rules.amountStep);
    if (amount <= 0) continue;
    out.push({ clientOrderId: infinityOrderId(state.botId, state.seq, o.role), role: o.role, side: o.role === 'step-sell' ? 'sell' : 'buy', type: 'limit', price: o.price, amount, seq: state.seq });
  }
  return out.sort((a, b) => (a.side === b.side ? 0 : a.side === 'sell' ? -1 : 1));
}

/** Unrealised result of what is held at `price`: value − cost − buy fees not yet charged. */
export function infinityUnrealised(state: InfinityState, price: number): number {
  return roundMoney(state.position.amount * price - state.position.cost - state.position.buyFees);
}
