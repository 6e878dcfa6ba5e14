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
import type { BotEvent, FillEventData } from './bot.events';

export type TradingEvent = Extract<
  BotEvent,
  { type: 'OrderPlaced' | 'TakeProfitPlaced' | 'OrderCancelled' | 'OrderFilled' | 'TakeProfitFilled' | 'ProfitRealized' | 'CycleCompleted' }
>;

/** A fill the bot recorded, as the grid engine replays it. */
export type RecordedFill = Pick<FillEventData, 'clientOrderId' | 'fillId' | 'price' | 'amount' | 'fee' | 'at'> & {
  /** Base amount the account received net of a fee paid in the base coin (a buy); absent: `amount`. */
  netAmount?: number;
};

/**
 * What the bot's stream says about its trading. `seen` is append-only and shared along one fold
 * (copying it per event would make a fold quadratic): read a state only at the head of its fold.
 */
export interface TradingLedger {
  /** Keys of the facts already recorded, all runs. */
  readonly seen: Set<string>;
  /** Current run: client order ids placed and neither cancelled nor fully filled (id → amount left). */
  readonly unclosed: Map<string, number>;
  /** Fills of the bot's book (all runs since the last flat stop), in stream order: the engine's input. */
  readonly fills: RecordedFill[];
  /** Exchange time (ms) of the latest recorded fill of the run, -1 when none. */
  lastFillAt: number;
  /** Exchange time (ms) of the run's first recorded placement, -1 when none. */
  firstPlacedAt: number;
}

export const emptyLedger = (): TradingLedger => ({ seen: new Set(), unclosed: new Map(), fills: [], lastFillAt: -1, firstPlacedAt: -1 });

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
  }
}

export const TRADING_TYPES = new Set<string>(['OrderPlaced', 'TakeProfitPlaced', 'OrderCancelled', 'OrderFilled', 'TakeProfitFilled', 'ProfitRealized', 'CycleCompleted']);

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

/** Folds a trading event into the ledger (mutates `seen`, see TradingLedger). */
export function evolveTrading(ledger: TradingLedger, run: number, e: TradingEvent): TradingLedger {
  ledger.seen.add(tradingFactKey(e));
  switch (e.type) {
    case 'OrderPlaced':
    case 'TakeProfitPlaced':
      if (e.data.run === run) {
        ledger.unclosed.set(e.data.clientOrderId, e.data.amount);
        if (ledger.firstPlacedAt < 0) ledger.firstPlacedAt = e.data.at;
      }
      return ledger;
    case 'OrderCancelled':
      ledger.unclosed.delete(e.data.clientOrderId);
      return ledger;
    case 'OrderFilled':
    case 'TakeProfitFilled': {
      const d = e.data;
      const left = ledger.unclosed.get(d.clientOrderId);
      if (left !== undefined) {
        if (left - d.amount <= 1e-12) ledger.unclosed.delete(d.clientOrderId);
        else ledger.unclosed.set(d.clientOrderId, left - d.amount);
      }
      if (d.run === run) {
        ledger.fills.push({ clientOrderId: d.clientOrderId, fillId: d.fillId, price: d.price, amount: d.amount, fee: d.fee, at: d.at, ...(d.netAmount !== undefined ? { netAmount: d.netAmount } : {}) });
        if (d.at > ledger.lastFillAt) ledger.lastFillAt = d.at;
      }
      return ledger;
    }
    default:
      return ledger;
  }
}

/** A new run begins: the run's own lists start empty, the known keys stay. */
export function ledgerForRun(ledger: TradingLedger): TradingLedger {
  return { seen: ledger.seen, unclosed: new Map(), fills: [], lastFillAt: -1, firstPlacedAt: -1 };
}
