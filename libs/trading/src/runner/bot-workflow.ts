/**
 * The runner's decisions as a pure workflow: from the bot's state (lifecycle, engine, what rests on
 * the exchange) and a fact from the exchange (fills, a balance, a stop, an error), the actions to take:
 * place, cancel, record (history facts for the bot decider), report (lifecycle). No I/O, no clock:
 * BotTask and GridRunner execute the actions and own the exchange calls, timers and ownership.
 * Specified given/when/then in bot-workflow.spec.ts.
 */
import type { RunnerReport } from '@gridrocket/bots';
import type { RunBook, TradingEvent } from '@gridrocket/bots';
import type { BotConfig } from '@gridrocket/bots';
import { restartBook } from '../grid/book';
import type { Fill as ExchangeFill, Order } from '@gridrocket/exchanges';
import { applyFills, initialState, processFill, rearmOrder, reconcile, stalledReason, stateDirection } from '../grid/grid.engine';
import { entrySide, exitSide } from '../grid/direction';
import { activeOrders, beginStopLoss, reanchorBook } from '../grid/risk';
import { trailDownBook } from '../grid/trail-down';
import { roundMoney } from '../grid/decimal';
import type { DesiredOrder, ExchangeOrderRef, Fill, GridConfig, GridState, MarketRules } from '../grid/grid.types';

export type RunnerAction =
  | { type: 'place'; order: DesiredOrder }
  | { type: 'cancel'; clientOrderId: string }
  | { type: 'record'; facts: TradingEvent[] }
  | { type: 'report'; report: RunnerReport }
  /** Desired orders the exchange reports closed: fetch their fills before anything else (never re-place). */
  | { type: 'await-fills'; orders: DesiredOrder[] }
  /** A transient problem: try the same again later (back-off). */
  | { type: 'retry'; reason: string }
  /** Stop with closePosition: close what the bot holds at market (futures: reduce-only; spot: a market sell). */
  | { type: 'close-position'; amount: number };

export interface WorkflowState {
  botId: string;
  run: number;
  config: GridConfig;
  rules: MarketRules;
  engine: GridState;
  /** The bot's orders open on the exchange (by client order id). */
  open: ExchangeOrderRef[];
  /** The bot's orders the exchange reported closed (filled or cancelled): never placed again. */
  closed: ReadonlyMap<string, ExchangeOrderRef>;
  /** BotStarted was recorded (a failure is then BotFailed, else BotStartFailed). */
  started: boolean;
  /** The quote asset the buys are paid in (USDT for futures margin). */
  quote: string;
  /** Where the bot trades, for messages: 'Binance spot'. */
  venue: string;
  /** The venue's maker fee as a fraction, when known (issue 10 finding 5). */
  makerFee?: number;
  /** The base asset (a fee paid in it reduces what a buy leaves in the account). */
  base?: string;
}

export type ExchangeFact =
  | { type: 'FillsSeen'; fills: ExchangeFill[] }
  | { type: 'OrdersSeen' }
  | { type: 'BalanceSeen'; available: number }
  | { type: 'StopRequested'; cancelAllOrders: boolean; closePosition: boolean; ownOpen: ExchangeOrderRef[] }
  | { type: 'ExchangeFailed'; message: string; retryable: boolean };

export interface Decision {
  state: WorkflowState;
  actions: RunnerAction[];
}

/** A conservative fee when the venue's rate is unknown: 0.1 %, the highest maker rate of the four venues' base tiers. */
export const DEFAULT_FEE_RATE = 0.001;

/** The base amount a fill leaves in the account: a buy whose fee was paid in the base coin leaves less. */
export function netAmount(fill: ExchangeFill, base?: string): number {
  if (fill.side !== 'buy' || !fill.feeCost || !fill.feeAsset || !base || fill.feeAsset.toUpperCase() !== base.toUpperCase()) return fill.amount;
  return Math.max(0, fill.amount - fill.feeCost);
}

export function toEngineFill(f: ExchangeFill, base?: string): Fill {
  const net = netAmount(f, base);
  return { clientOrderId: f.clientOrderId, fillId: f.fillId, price: f.price, amount: f.amount, fee: f.fee, ...(net !== f.amount ? { netAmount: net } : {}) };
}

/** The history facts of fills (in exchange order) and the engine after them. */
export function decideFills(s: WorkflowState, fills: ExchangeFill[]): Decision {
  const facts: TradingEvent[] = [];
  let engine = s.engine;
  const { botId, run } = s;
  for (const f of fills) {
    const r = processFill(engine, toEngineFill(f, s.base));
    engine = r.state;
    const net = netAmount(f, s.base);
    const kind = { ...(net !== f.amount ? { netAmount: net } : {}), ...(f.feeAsset ? { feeAsset: f.feeAsset, feeCost: f.feeCost } : {}) };
    for (const e of r.effects) {
      if (e.type === 'BuyFilled') {
        facts.push({ type: 'OrderFilled', data: { botId, run, fillId: f.fillId, clientOrderId: f.clientOrderId, side: entrySide(stateDirection(engine)), price: e.price, amount: e.amount, fee: e.fee, ...kind, cycle: e.cycle, level: e.level, late: e.late, at: f.timestamp } });
      } else if (e.type === 'TakeProfitFilled') {
        facts.push({ type: 'TakeProfitFilled', data: { botId, run, fillId: f.fillId, clientOrderId: f.clientOrderId, side: exitSide(stateDirection(engine)), price: e.price, amount: e.amount, fee: e.fee, ...kind, cycle: e.cycle, tpSeq: e.tpSeq, profit: e.profit, at: f.timestamp } });
        // totalProfit is decided by the bot decider (the bot's lifetime total).
        facts.push({ type: 'ProfitRealized', data: { botId, amount: e.profit, totalProfit: 0, cycle: e.cycle, run, fillId: f.fillId } });
      } else if (e.type === 'StopLossFilled') {
        const level = engine.stopLoss?.level ?? 0;
        facts.push({ type: 'StopLossTriggered', data: { botId, run, fillId: f.fillId, clientOrderId: f.clientOrderId, side: exitSide(stateDirection(engine)), price: e.price, amount: e.amount, fee: e.fee, ...kind, cycle: e.cycle, loss: roundMoney(-e.profit), level, at: f.timestamp } });
        facts.push({ type: 'ProfitRealized', data: { botId, amount: e.profit, totalProfit: 0, cycle: e.cycle, run, fillId: f.fillId } });
      } else if (e.type === 'CycleCompleted') {
        facts.push({ type: 'CycleCompleted', data: { botId, run, cycle: e.cycle, profit: e.profit, nextCycle: e.nextCycle } });
      }
    }
  }
  if (engine === s.engine) return { state: s, actions: [] };
  // Record first: the engine moves on (and orders change) only once its fills are in the history.
  return { state: { ...s, engine }, actions: [{ type: 'record', facts }] };
}

/** What the exchange should hold: cancel first (spot: the old take-profit holds the coins), then place. */
export function decideConverge(s: WorkflowState): RunnerAction[] {
  const plan = reconcile(activeOrders(s.config, s.rules, s.engine), s.open, { botId: s.engine.botId, closed: s.closed });
  if (plan.awaitingFills.length > 0) return [{ type: 'await-fills', orders: plan.awaitingFills.map((a) => a.desired) }];
  const actions: RunnerAction[] = [
    ...plan.toCancel.map((o) => ({ type: 'cancel' as const, clientOrderId: o.clientOrderId })),
    ...plan.toPlace.map((order) => ({ type: 'place' as const, order })),
  ];
  if (actions.length === 0 && !s.engine.stopLoss) {
    const stalled = stalledReason(s.config, s.rules, s.engine);
    if (stalled) return failure(s, stalled);
  }
  return actions;
}

/** The quote the buys still to place need (spec section 5's cost) plus their maker fees. */
export function fundsNeeded(s: WorkflowState): { need: number; fees: number } {
  const plan = reconcile(activeOrders(s.config, s.rules, s.engine), s.open, { botId: s.engine.botId, closed: s.closed });
  const rate = s.makerFee ?? DEFAULT_FEE_RATE;
  let cost = 0;
  let fees = 0;
  for (const d of plan.toPlace) {
    if (d.role !== 'buy') continue; // the ladder's rungs (short: sells, whose margin is the same Σ price·amount ÷ leverage)
    cost += (d.price * d.amount) / s.config.leverage;
    fees += d.price * d.amount * rate;
  }
  return { need: roundMoney(cost + fees), fees: roundMoney(fees) };
}

/** The failure of the bot: its orders are cancelled (no orphans), then the lifecycle says why. */
function failure(s: WorkflowState, reason: string): RunnerAction[] {
  return [
    ...s.open.map((o) => ({ type: 'cancel' as const, clientOrderId: o.clientOrderId })),
    { type: 'report', report: s.started ? { type: 'MarkFailed', reason } : { type: 'MarkStartFailed', reason } },
  ];
}

export function decide(s: WorkflowState, fact: ExchangeFact): Decision {
  switch (fact.type) {
    case 'FillsSeen':
      return decideFills(s, fact.fills);
    case 'OrdersSeen':
      return { state: s, actions: decideConverge(s) };
    case 'BalanceSeen': {
      const { need, fees } = fundsNeeded(s);
      if (need <= 0 || fact.available >= need) return { state: s, actions: decideConverge(s) };
      const reason = `Insufficient balance: the grid needs ${need} ${s.quote} but only ${roundMoney(fact.available)} ${s.quote} is available on ${s.venue} (the orders ${roundMoney(need - fees)} ${s.quote} plus ${fees} ${s.quote} of fees)`;
      return { state: s, actions: [{ type: 'report', report: { type: 'MarkStartFailed', reason } }] };
    }
    case 'StopRequested': {
      const actions: RunnerAction[] = fact.cancelAllOrders ? fact.ownOpen.map((o) => ({ type: 'cancel' as const, clientOrderId: o.clientOrderId })) : [];
      const held = s.engine.position.amount;
      if (fact.closePosition && held > 0) actions.push({ type: 'close-position', amount: held });
      actions.push({ type: 'report', report: { type: 'MarkStopped' } });
      return { state: s, actions };
    }
    case 'ExchangeFailed':
      if (fact.retryable) return { state: s, actions: [{ type: 'retry', reason: fact.message }] };
      return { state: s, actions: failure(s, fact.message) };
  }
}

/** The history fact of a placement (the exchange's answer gives its id and time). */
export function placedFact(botId: string, run: number, d: DesiredOrder, order: Pick<Order, 'exchangeOrderId' | 'updatedAt'>): TradingEvent {
  const base = { botId, run, clientOrderId: d.clientOrderId, exchangeOrderId: order.exchangeOrderId, side: d.side, price: d.price, amount: d.amount, cycle: d.cycle, reduceOnly: d.reduceOnly, at: order.updatedAt };
  return d.role === 'buy'
    ? { type: 'OrderPlaced', data: { ...base, role: 'buy', level: d.level ?? 0 } }
    : { type: 'TakeProfitPlaced', data: { ...base, role: 'take-profit', tpSeq: d.tpSeq ?? 1 } };
}

/** The history fact of a cancel (`final`: the order as the exchange answered, null when it did not know it). */
export function cancelledFact(botId: string, run: number, clientOrderId: string, final: Pick<Order, 'filled' | 'updatedAt'> | null): TradingEvent {
  return { type: 'OrderCancelled', data: { botId, run, clientOrderId, filled: final?.filled ?? 0, at: final?.updatedAt ?? 0 } };
}

/** The bot's configuration as the engine takes it. */
export function toGridConfig(c: BotConfig, botType: 'Spot' | 'Futures'): GridConfig {
  return {
    botType,
    numOfOrders: c.numOfOrders,
    orderSize: c.orderSize,
    interval: c.interval,
    entryPrice: c.entryPrice,
    takeProfit: c.takeProfit,
    leverage: botType === 'Futures' ? c.leverage : 1,
    ...riskOf(c),
  };
}

/** The optional settings of issue 14 that are set (a bot without them is the spec's). */
function riskOf(c: BotConfig): Partial<GridConfig> {
  const out: Partial<GridConfig> = {};
  if (c.spacing !== undefined) out.spacing = c.spacing;
  if (c.sizeScale !== undefined) out.sizeScale = c.sizeScale;
  if (c.stopLossPercent !== undefined) out.stopLossPercent = c.stopLossPercent;
  if (c.stopLossPrice !== undefined) out.stopLossPrice = c.stopLossPrice;
  if (c.trailingDeviation !== undefined) out.trailingDeviation = c.trailingDeviation;
  if (c.reanchor !== undefined) out.reanchor = c.reanchor;
  if (c.reanchorLimit !== undefined) out.reanchorLimit = c.reanchorLimit;
  if (c.trailDownLimit !== undefined) out.trailDownLimit = c.trailDownLimit;
  if (c.direction === 'short') out.direction = 'short'; // issue 32 (absent or 'long': the spec's long grid)
  return out;
}

/**
 * The engine's state from the bot's history, all runs: each run continues the book, or restarts it
 * (grid/book.ts) with the configuration it started with, then applies the fills recorded in it.
 */
export function replayBook(runs: readonly RunBook[], rules: MarketRules, engineId: string): GridState {
  let engine: GridState | null = null;
  for (const r of runs) {
    const config = toGridConfig(r.config, r.botType);
    if (!engine) engine = initialState(config, rules, engineId);
    else if (r.restart) engine = restartBook(engine, config, rules, { dropPosition: r.dropPosition });
    const fills = r.fills.map((f) => ({ clientOrderId: f.clientOrderId, fillId: f.fillId, price: f.price, amount: f.amount, fee: f.fee, ...(f.netAmount !== undefined ? { netAmount: f.netAmount } : {}) }));
    // Risk steps (issue 14) happen among the run's fills: apply the fills before each, then the step.
    let done = 0;
    for (const mark of r.marks ?? []) {
      engine = applyFills(engine, fills.slice(done, mark.afterFills));
      done = Math.max(done, mark.afterFills);
      if (mark.type === 'stop-loss' && mark.cycle === engine.cycle) engine = beginStopLoss(engine, mark.price, mark.level);
      if (mark.type === 'reanchor' && mark.cycle === engine.cycle + 1) engine = mark.trailDown ? trailDownBook(engine, config, rules, mark.to) : reanchorBook(engine, config, rules, mark.to);
      if (mark.type === 'rearm') engine = rearmOrder(engine, mark.clientOrderId)?.state ?? engine;
    }
    engine = applyFills(engine, fills.slice(done));
  }
  if (!engine) throw new Error('A bot that never started has no grid');
  return engine;
}
