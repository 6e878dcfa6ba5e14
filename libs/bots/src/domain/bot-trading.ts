/**
 * The bot-trading part of the bot decider: what the grid runner observed on the exchange (orders
 * placed and cancelled, fills, take-profits, profit, completed cycles) becomes history only through
 * `decideTrading`, against the bot's current run and status. Pure: no I/O, no framework.
 *
 * Idempotence lives here: every fact has a key (a fill id, a client order id, a cycle of a run), the
 * bot's state knows the keys already recorded, and a fact whose key is known is dropped. So a retry,
 * or a replay after a crash between the exchange action and the append, records nothing twice.
 */
import { ConflictError } from '@gridrocket/shared';
import type { BotType } from '@gridrocket/shared';
import type { BotConfig, BotEvent, FillEventData } from './bot.events';

export type TradingEvent = Extract<
  BotEvent,
  { type: 'OrderPlaced' | 'TakeProfitPlaced' | 'OrderCancelled' | 'OrderFilled' | 'TakeProfitFilled' | 'ProfitRealized' | 'CycleCompleted' | 'StopLossStarted' | 'StopLossTriggered' | 'GridReanchored' | 'BotDriftDetected' | 'BotNotTrading' | 'VenueStreamDown' | 'VenueStreamRestored' | 'VenueRateLimited' | 'VenueRateLimitLifted' | 'PositionLiquidated' | 'LiquidationNear' | 'PositionClosed' }
>;

/** A risk step of a run (issue 14), placed among its fills: after the first `afterFills` of them. */
export type RunMark =
  | { type: 'stop-loss'; afterFills: number; cycle: number; price: number; level: number }
  | { type: 'reanchor'; afterFills: number; from: number; to: number; cycle: number; trailDown?: true }
  /** An order cancelled outside GridRocket, replaced under a new id (issue 29, docs/watchdog.md). */
  | { type: 'rearm'; afterFills: number; clientOrderId: string };

/** A fill the bot recorded, as the grid engine replays it. */
export type RecordedFill = Pick<FillEventData, 'clientOrderId' | 'fillId' | 'price' | 'amount' | 'fee' | 'at'> & {
  /** Base amount the account received net of a fee paid in the base coin (a buy); absent: `amount`. */
  netAmount?: number;
};

/** One run of the bot as the grid engine replays it (see libs/trading/src/grid/book.ts). */
export interface RunBook {
  run: number;
  /** The run restarts the book (its first run, or after a cancel-all stop, a failure or an edit). */
  restart: boolean;
  /** The previous stop closed the position at market: the restart carries nothing. */
  dropPosition: boolean;
  config: BotConfig;
  botType: BotType;
  /** Fills recorded in this run, in stream order. */
  fills: RecordedFill[];
  /** Stop-losses begun, re-anchors (issue 14) and replaced orders (issue 29) of this run, in stream order among its fills. */
  marks?: RunMark[];
}

/**
 * What the bot's stream says about its trading, all runs. `seen` and the lists are append-only and
 * shared along one fold (copying them per event would make a fold quadratic): read a state only at
 * the head of its fold.
 */
export interface TradingLedger {
  /** Keys of the facts already recorded, all runs. */
  readonly seen: Set<string>;
  /** Client order ids placed and neither cancelled nor fully filled (id → amount left), all runs. */
  readonly unclosed: Map<string, number>;
  /** The bot's runs, oldest first: the engine's input. */
  readonly runs: RunBook[];
  /** Exchange time (ms) of the latest recorded fill, -1 when none. */
  lastFillAt: number;
  /** Exchange time (ms) of the first recorded placement, -1 when none. */
  firstPlacedAt: number;
  /** The next run restarts the book (set by a cancel-all stop, a failure, an edit). */
  restartNext: boolean;
  dropNext: boolean;
  /**
   * The base amount the bot holds (its buys' net amounts less its sells, all runs; what a stop that
   * closed the position at market left is not carried) and what it cost: what a start with a position
   * must confirm (issue 29).
   */
  held: number;
  heldCost: number;
}

export const emptyLedger = (): TradingLedger => ({ seen: new Set(), unclosed: new Map(), runs: [], lastFillAt: -1, firstPlacedAt: -1, restartNext: true, dropNext: false, held: 0, heldCost: 0 });

/** The fills of every run, in stream order. */
export function allFills(ledger: TradingLedger): RecordedFill[] {
  return ledger.runs.flatMap((r) => r.fills);
}

/** The key that makes a fact unique in a bot's history. */
export function tradingFactKey(e: TradingEvent): string {
  switch (e.type) {
    case 'OrderPlaced':
    case 'TakeProfitPlaced':
      return `placed:${e.data.clientOrderId}`;
    case 'OrderCancelled':
      return `cancel:${e.data.clientOrderId}`;
    case 'OrderFilled':
    case 'TakeProfitFilled':
      return `fill:${e.data.fillId}`;
    case 'ProfitRealized':
      // Older events have no fill id: their cycle (per run) was the key.
      return e.data.fillId ? `profit:${e.data.fillId}` : `profit-cycle:${e.data.cycle}:${e.data.amount}`;
    case 'CycleCompleted':
      return `cycle:${e.data.run}:${e.data.cycle}`;
    case 'StopLossStarted':
      return `stoploss:${e.data.run}:${e.data.cycle}`;
    case 'StopLossTriggered':
    case 'PositionClosed':
      return `fill:${e.data.fillId}`;
    case 'GridReanchored':
      return `anchor:${e.data.run}:${e.data.cycle}`;
    // The watchdog (docs/watchdog.md): one event per difference and run, however many checks see it.
    case 'BotDriftDetected':
      return `drift:${e.data.run}:${e.data.kind}:${e.data.subject}`;
    case 'BotNotTrading':
      return `not-trading:${e.data.run}:${e.data.reason}`;
    case 'VenueStreamDown':
      return `stream-down:${e.data.run}:${e.data.at}`;
    case 'VenueStreamRestored':
      return `stream-up:${e.data.run}:${e.data.at}`;
    // one pause of the venue (its end time) per run, however many runners and answers report it
    case 'VenueRateLimited':
      return `rate-limited:${e.data.run}:${e.data.until}`;
    case 'VenueRateLimitLifted':
      return `rate-limit-lifted:${e.data.run}:${e.data.until}`;
    case 'PositionLiquidated':
      return `liquidated:${e.data.fillId}`;
    // (issue 40) one warning per run and price episode: the runner re-arms it when the price moves away
    case 'LiquidationNear':
      return `liquidation-near:${e.data.run}:${e.data.at}`;
  }
}

/** Whether the bot's history records the placement of `clientOrderId` (any run). */
export function placementRecorded(ledger: TradingLedger, clientOrderId: string): boolean {
  return ledger.seen.has(`placed:${clientOrderId}`);
}

export const TRADING_TYPES = new Set<string>(['OrderPlaced', 'TakeProfitPlaced', 'OrderCancelled', 'OrderFilled', 'TakeProfitFilled', 'ProfitRealized', 'CycleCompleted', 'StopLossStarted', 'StopLossTriggered', 'GridReanchored', 'BotDriftDetected', 'BotNotTrading', 'VenueStreamDown', 'VenueStreamRestored', 'VenueRateLimited', 'VenueRateLimitLifted', 'PositionLiquidated', 'LiquidationNear', 'PositionClosed']);

export function isTradingEvent(e: BotEvent): e is TradingEvent {
  return TRADING_TYPES.has(e.type);
}

const roundMoney = (x: number) => Math.round(x * 1e8) / 1e8;

export interface TradingView {
  botId: string;
  status: 'stopped' | 'starting' | 'running' | 'stopping';
  run: number;
  profit: number;
  trading: TradingLedger;
}

export const STALE_RUN = 'The runner reported trading of a run that is not the bot\'s current one';

/**
 * The runner's facts of `run`, decided against the bot: refused when the bot is not in that run (or no
 * longer active); facts already recorded are dropped; a profit carries the bot's lifetime total.
 */
export function decideTrading(bot: TradingView, run: number, facts: TradingEvent[]): TradingEvent[] {
  if (bot.status === 'stopped' || run !== bot.run) {
    throw new ConflictError(`${STALE_RUN} (run ${run}, current ${bot.run}, ${bot.status})`);
  }
  const now = new Set<string>();
  const out: TradingEvent[] = [];
  let total = bot.profit;
  for (const fact of facts) {
    if (fact.data.botId !== bot.botId) throw new ConflictError('A trading fact of another bot');
    const key = tradingFactKey(fact);
    if (bot.trading.seen.has(key) || now.has(key)) continue;
    now.add(key);
    if (fact.type === 'ProfitRealized') {
      total = roundMoney(total + fact.data.amount);
      out.push({ type: 'ProfitRealized', data: { ...fact.data, totalProfit: total } });
    } else {
      out.push(fact);
    }
  }
  return out;
}

/**
 * How many of the bot's orders are still open on the exchange after `facts` (placed, neither cancelled
 * nor fully filled, all runs), the ledger left as it is: what a stop without cancel-all leaves
 * unmanaged (issue 29, Found 6).
 */
export function unclosedAfter(ledger: TradingLedger, facts: readonly { type: string; data: unknown }[]): number {
  const left = new Map(ledger.unclosed);
  for (const f of facts) {
    const d = f.data as { clientOrderId?: string; amount?: number };
    if (d.clientOrderId === undefined) continue;
    if (f.type === 'OrderPlaced' || f.type === 'TakeProfitPlaced') left.set(d.clientOrderId, d.amount ?? 0);
    else if (f.type === 'OrderCancelled') left.delete(d.clientOrderId);
    else if (f.type === 'OrderFilled' || f.type === 'TakeProfitFilled' || f.type === 'StopLossTriggered') {
      const before = left.get(d.clientOrderId);
      if (before === undefined) continue;
      if (before - (d.amount ?? 0) <= 1e-12) left.delete(d.clientOrderId);
      else left.set(d.clientOrderId, before - (d.amount ?? 0));
    }
  }
  return left.size;
}

/** Folds a trading event into the ledger (mutates it, see TradingLedger). */
export function evolveTrading(ledger: TradingLedger, e: TradingEvent): TradingLedger {
  ledger.seen.add(tradingFactKey(e));
  switch (e.type) {
    case 'OrderPlaced':
    case 'TakeProfitPlaced':
      ledger.unclosed.set(e.data.clientOrderId, e.data.amount);
      if (ledger.firstPlacedAt < 0) ledger.firstPlacedAt = e.data.at;
      return ledger;
    case 'OrderCancelled':
      ledger.unclosed.delete(e.data.clientOrderId);
      return ledger;
    case 'StopLossStarted':
    case 'GridReanchored': {
      const book = ledger.runs.find((r) => r.run === e.data.run) ?? ledger.runs[ledger.runs.length - 1];
      if (!book) return ledger;
      const marks = (book.marks ??= []);
      const d = e.data;
      marks.push(
        e.type === 'StopLossStarted'
          ? { type: 'stop-loss', afterFills: book.fills.length, cycle: d.cycle, price: (d as { price: number }).price, level: (d as { level: number }).level }
          : { type: 'reanchor', afterFills: book.fills.length, cycle: d.cycle, from: (d as { from: number }).from, to: (d as { to: number }).to, ...((d as { trailDown?: true }).trailDown ? { trailDown: true as const } : {}) },
      );
      return ledger;
    }
    case 'PositionLiquidated':
      // the venue closed the position: nothing is held any more, and the next start carries nothing
      ledger.held = 0;
      ledger.heldCost = 0;
      ledger.restartNext = true;
      ledger.dropNext = true;
      if (e.data.at > ledger.lastFillAt) ledger.lastFillAt = e.data.at;
      return ledger;
    case 'PositionClosed':
      // the stop's market close (issue 40): what it sold is no longer held; not a fill of the grid's book
      // (the next start carries nothing: the stop's closePosition set dropNext)
      if (e.data.at > ledger.lastFillAt) ledger.lastFillAt = e.data.at;
      holdFill(ledger, e.data, false);
      return ledger;
    case 'BotDriftDetected': {
      if (!e.data.replacedBy) return ledger;
      const book = ledger.runs.find((r) => r.run === e.data.run) ?? ledger.runs[ledger.runs.length - 1];
      if (book) (book.marks ??= []).push({ type: 'rearm', afterFills: book.fills.length, clientOrderId: e.data.subject });
      return ledger;
    }
    case 'OrderFilled':
    case 'TakeProfitFilled':
    case 'StopLossTriggered': {
      const d = e.data;
      const left = ledger.unclosed.get(d.clientOrderId);
      if (left !== undefined) {
        if (left - d.amount <= 1e-12) ledger.unclosed.delete(d.clientOrderId);
        else ledger.unclosed.set(d.clientOrderId, left - d.amount);
      }
      const book = ledger.runs.find((r) => r.run === d.run) ?? ledger.runs[ledger.runs.length - 1];
      book?.fills.push({ clientOrderId: d.clientOrderId, fillId: d.fillId, price: d.price, amount: d.amount, fee: d.fee, at: d.at, ...(d.netAmount !== undefined ? { netAmount: d.netAmount } : {}) });
      if (d.at > ledger.lastFillAt) ledger.lastFillAt = d.at;
      holdFill(ledger, d, e.type === 'OrderFilled');
      return ledger;
    }
    default:
      return ledger;
  }
}

/**
 * The held amount and its cost after a fill: a rung's fill adds to it, a close (take-profit, stop-loss)
 * takes its share of the cost at the average. By role, not side (issue 32): a short grid's rungs are
 * sells, its position the amount sold short and its cost the quote received.
 */
function holdFill(ledger: TradingLedger, d: FillEventData, opens: boolean): void {
  if (opens) {
    ledger.held = roundAmount(ledger.held + (d.netAmount ?? d.amount));
    ledger.heldCost = roundMoney(ledger.heldCost + d.amount * d.price);
    return;
  }
  const before = ledger.held;
  ledger.held = roundAmount(Math.max(0, before - d.amount));
  ledger.heldCost = ledger.held <= 0 || before <= 0 ? 0 : roundMoney((ledger.heldCost * ledger.held) / before);
}

const roundAmount = (x: number) => Math.round(x * 1e12) / 1e12;

/** A new run begins (BotStartRequested at revision `run`): it continues the book or restarts it. */
export function beginRun(ledger: TradingLedger, run: number, config: BotConfig, botType: BotType): TradingLedger {
  ledger.runs.push({ run, restart: ledger.restartNext || ledger.runs.length === 0, dropPosition: ledger.dropNext, config, botType, fills: [] });
  if (ledger.dropNext) {
    ledger.held = 0;
    ledger.heldCost = 0;
  }
  ledger.restartNext = false;
  ledger.dropNext = false;
  return ledger;
}

/** Lifecycle events that decide whether the next run continues the book. */
export function noteLifecycle(ledger: TradingLedger, e: BotEvent): void {
  if (e.type === 'BotEdited' || e.type === 'BotFailed' || e.type === 'BotStartFailed') ledger.restartNext = true;
  if (e.type === 'BotStopRequested' && (e.data.cancelAllOrders || e.data.closePosition)) ledger.restartNext = true;
  if (e.type === 'BotStopRequested' && e.data.closePosition) ledger.dropNext = true;
}
