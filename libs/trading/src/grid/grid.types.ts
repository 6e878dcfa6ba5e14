/** Types of the pure grid engine. Everything here is plain data: JSON-serialisable, no classes. */
import type { Direction } from './direction';
export type { Direction } from './direction';

export type BotType = 'Spot' | 'Futures';

/** A bot's grid parameters (spec section 3). */
export interface GridConfig {
  botType: BotType;
  /** How many buy orders the ladder has (a whole number ≥ 1). */
  numOfOrders: number;
  /** Size of each buy, in base units (e.g. BTC). */
  orderSize: number;
  /** Price distance between successive buys, in quote (USDT). */
  interval: number;
  /** Price of the first (highest) buy. */
  entryPrice: number;
  /** Take profit as a percentage above the average entry: 1.5 means +1.5 %. */
  takeProfit: number;
  /** 1 for spot. */
  leverage: number;
  // ---- Beyond the spec (issue 14, grid/risk.ts, docs/risk.md): all optional; absent = the spec's bot. ----
  /** 'absolute' (the spec's: `interval` in quote) or 'percent' (each rung `interval` % below the previous). */
  spacing?: Spacing;
  /** Each rung's size is the previous one's times this factor (≥ 1; 1 = the spec's equal sizes). */
  sizeScale?: number;
  /** Stop-loss as a percentage below the average entry (e.g. 5 = −5 %). */
  stopLossPercent?: number;
  /** Stop-loss as a price (used when no percentage is set). */
  stopLossPrice?: number;
  /** Trailing take-profit: sell when the price falls back this many % from its peak above the take-profit level. */
  trailingDeviation?: number;
  /** 'fixed' (the spec's) or 'follow': re-anchor the ladder at the market when flat and the price rose. */
  reanchor?: Reanchor;
  /** With 'follow': never re-anchor above this price (short: below it). */
  reanchorLimit?: number;
  /**
   * Issue 32 (trail-down.ts): trail the long grid down, never below this price. Every rung filled and
   * the price more than one interval below the lowest: the ladder re-anchors at the market, the
   * position and its take-profit are kept (nothing is sold). Absent: the ladder never moves down.
   */
  trailDownLimit?: number;
  /**
   * Issue 32 (direction.ts): 'long' (absent: the spec's bot) or 'short' (futures only): a ladder of sells
   * at and above the entry, the take-profit a reduce-only buy below the average, the stop-loss above it.
   * In the short grid every "below"/"above" of the fields above is mirrored.
   */
  direction?: Direction;
}

export type Spacing = 'absolute' | 'percent';
export type Reanchor = 'fixed' | 'follow';

/** The market's trading rules (ccxt: market.precision / market.limits). */
export interface MarketRules {
  /** Tick size: every price is a multiple of it. */
  priceStep: number;
  /** Lot size: every amount is a multiple of it. */
  amountStep: number;
  /** Minimum order value price × amount, in quote. 0 when the market has none. */
  minNotional: number;
  /** Minimum order amount in base, when the market has one. */
  minAmount?: number;
}

/** One rung of the ladder: a limit buy (short: a sell). `index` is i in `entryPrice − i·interval` (short: `+`) (0-based). */
export interface LadderLevel {
  index: number;
  price: number;
  amount: number;
}

export type GridValidation =
  | { ok: true; ladder: LadderLevel[]; cost: number }
  | { ok: false; reason: string };

/** A (possibly partial) execution reported by the exchange. `fee` is in quote currency. */
export interface Fill {
  clientOrderId: string;
  /** The exchange's trade id; a fill with an id already applied changes nothing. */
  fillId: string;
  price: number;
  amount: number;
  fee: number;
  /**
   * Buys: the base amount the account received when the venue took the fee out of the coin bought
   * (Binance spot); absent when the fee was paid in another asset. The position holds this, and
   * `fee` (its quote value) is still charged to the cycle's profit.
   */
  netAmount?: number;
}

export type LevelStatus = 'open' | 'partial' | 'filled';

/** A level's buy order: which cycle it was placed in (part of its client order id) and how much filled. */
export interface LevelState {
  index: number;
  price: number;
  amount: number;
  /** The cycle whose number is in this level's current buy id (a level not filled in a cycle keeps its order). */
  armedCycle: number;
  filled: number;
  status: LevelStatus;
  /**
   * How many times this level's buy of `armedCycle` was replaced after the venue reported it
   * cancelled outside GridRocket (the `r<k>` of its id; absent: 0). Back to 0 when re-armed in a new cycle.
   */
  rearm?: number;
}

/** The open position of the current cycle (average-cost method: a sale keeps the average entry). */
export interface PositionState {
  /** Base amount held by the bot in this cycle. */
  amount: number;
  /** Quote cost of that amount at the buy prices (fees excluded). */
  cost: number;
  /** Weighted average buy price of the open amount; 0 when flat. Changes only on buys. */
  averageEntry: number;
  /** Buy fees (quote) not yet charged against a sale. */
  buyFees: number;
}

/** The take-profit sell that should exist in the current cycle. */
export interface TakeProfitState {
  /** n in `…-tp<n>`: counts take-profit (re)placements in the cycle, from 1. */
  seq: number;
  /** Amount when this take-profit was defined (the position then); partial fills reduce the position, not this. */
  amount: number;
  /** Replacements in a row of a take-profit cancelled outside GridRocket (absent: 0); a buy fill starts again. */
  rearms?: number;
}

export interface GridState {
  schema: 1;
  botId: string;
  /** Current cycle, from 1. A cycle ends when its position is fully sold. */
  cycle: number;
  /** The ladder frozen at start with each level's order status. */
  levels: LevelState[];
  position: PositionState;
  tp: TakeProfitState | null;
  /** Realised profit after fees, all cycles, rounded to 1e-8 (quote). */
  profit: number;
  /** Realised profit of the current cycle so far. */
  cycleProfit: number;
  /** All fees paid (quote), all cycles. */
  feesPaid: number;
  /** Number of completed cycles (= cycle − 1). */
  cyclesCompleted: number;
  /** Fill ids already applied, in order (idempotence). */
  processedFillIds: string[];
  /**
   * Issue 32: 'short' when the grid sells its ladder and buys back its position (absent: long). Kept in
   * the state because a fill is applied without the config; `position` then holds the base amount SOLD
   * short, `cost` the quote received, and a take-profit (a buy) realises `cost share − amount × price`.
   */
  direction?: 'short';
  /**
   * The market's amount step when the grid started: a position left below it after a take-profit
   * fill cannot be sold (the take-profit sells only whole steps), so the cycle completes. Absent in
   * states built before it existed (then only an exact zero completes a cycle).
   */
  amountStep?: number;
  /** The cycle whose position a restarted book carries (book.ts): its take-profit's fills sell it. */
  carriedCycle?: number;
  /** The ladder's current anchor when a `follow` grid re-anchored it (risk.ts); absent: the config's entry. */
  anchor?: number;
  /** A stop-loss under way (risk.ts): no order is desired, the position is sold at market. */
  stopLoss?: StopLossState;
}

/** A stop-loss begun in `cycle` (market at `price`, stop level `level`); `loss` adds up its fills' result. */
export interface StopLossState {
  cycle: number;
  price: number;
  level: number;
  /** Sum of the stop-loss fills' profit (negative: a loss), fees included. */
  result: number;
}

/** 'buy': a rung of the ladder (on a short grid a sell: the role names the rung, `side` the order side). */
export type OrderRole = 'buy' | 'take-profit';

/** An order that should be resting on the exchange now. */
export interface DesiredOrder {
  clientOrderId: string;
  role: OrderRole;
  side: 'buy' | 'sell';
  type: 'limit';
  price: number;
  /** The amount that should rest on the book now (for a partly filled order: what is left). */
  amount: number;
  /** True for a take-profit on futures. */
  reduceOnly: boolean;
  cycle: number;
  /** Ladder level (buys). */
  level?: number;
  /** Take-profit sequence (take-profits). */
  tpSeq?: number;
}

/** The minimum an exchange order must carry for reconciliation: its client order id. */
export interface ExchangeOrderRef {
  clientOrderId: string;
}

export interface Reconciliation<O extends ExchangeOrderRef> {
  /** Desired orders missing from the exchange: place them (after the cancels). */
  toPlace: DesiredOrder[];
  /** The bot's open orders that are not desired: cancel them first. */
  toCancel: O[];
  /** Desired orders already open on the exchange: keep them. */
  adopted: { desired: DesiredOrder; onExchange: O }[];
  /** Desired orders that the exchange reports closed: fetch and apply their fills, do not re-place. */
  awaitingFills: { desired: DesiredOrder; onExchange: ExchangeOrderRef }[];
  /** Open orders that are not this bot's (only when a botId scope is given): left alone. */
  foreign: O[];
}

/** What applying a fill did, for the runner to turn into history events. */
export type FillEffect =
  | { type: 'FillIgnored'; fillId: string; clientOrderId: string; reason: 'duplicate' | 'not-this-bot' | 'unknown-order' | 'closed-cycle' | 'invalid-fill' }
  | {
      type: 'BuyFilled';
      fillId: string;
      clientOrderId: string;
      cycle: number;
      level: number;
      price: number;
      amount: number;
      fee: number;
      /** The level's order is now completely filled. */
      levelFilled: boolean;
      /** The fill belongs to a level order already replaced (a late fill): it adds to the position only. */
      late: boolean;
    }
  | {
      type: 'TakeProfitFilled';
      fillId: string;
      clientOrderId: string;
      cycle: number;
      tpSeq: number;
      price: number;
      amount: number;
      fee: number;
      /** Profit realised by this fill after its share of buy fees and its own fee. */
      profit: number;
      /** Amount sold beyond the position (should never happen: reduce-only / balance). */
      oversold: number;
    }
  | {
      type: 'StopLossFilled';
      fillId: string;
      clientOrderId: string;
      cycle: number;
      price: number;
      amount: number;
      fee: number;
      /** Its result after its share of buy fees and its own fee (negative: a loss). */
      profit: number;
    }
  | { type: 'TakeProfitDefined'; cycle: number; tpSeq: number; amount: number }
  | { type: 'CycleCompleted'; cycle: number; profit: number; nextCycle: number };
