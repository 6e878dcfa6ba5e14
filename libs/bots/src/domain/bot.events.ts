import type { BotType, ExchangeName } from '@gridrocket/shared';
import type { BotDirection, BotStyleName, StyleConfigFields } from '../styles/registry.types';

/** A bot's settings as BotCreated persists them: the ladder's, and the styles' own (StyleConfigFields, each in its style's folder). */
export interface BotConfig extends StyleConfigFields {
  exchange: ExchangeName;
  symbol: string;
  numOfOrders: number;
  orderSize: number;
  interval: number;
  entryPrice: number;
  takeProfit: number;
  leverage: number; // 1 for spot
  /** Issue 40 (futures only): the margin mode set on the venue before the bot's first order; absent = isolated. */
  marginMode?: 'isolated' | 'cross';
  // Beyond the spec (issue 14, docs/risk.md): optional; absent = the spec's bot.
  spacing?: 'absolute' | 'percent';
  sizeScale?: number;
  stopLossPercent?: number;
  stopLossPrice?: number;
  trailingDeviation?: number;
  reanchor?: 'fixed' | 'follow';
  reanchorLimit?: number;
  /** Issue 32 (libs/trading grid/trail-down.ts): a long grid trails down, never below this price. */
  trailDownLimit?: number;
  /**
   * Issue 32 (libs/trading grid/direction.ts): 'short' on futures only; absent or 'long': the spec's long grid;
   * 'neutral' (futures only, libs/trading styles/neutral/neutral.engine.ts): buys below and sells above the entry as reference.
   * Its stop-loss above (`stopLossPriceAbove`) is its own field (styles/neutral/neutral.fields.ts).
   */
  direction?: BotDirection;
  /**
   * Issue 32 (docs/infinity.md, libs/trading styles/infinity/infinity.engine.ts): 'infinity' is a spot infinity grid,
   * traded by its own engine with its four fields (styles/infinity/infinity.fields.ts); absent: a ladder (long, short or neutral).
   * An infinity bot keeps the ladder's fields, so every reader of a bot (list, view, the spec's GET, the
   * ledger) reads it unchanged: `entryPrice` is its start, `leverage` 1, and `numOfOrders`, `orderSize`,
   * `interval` and `takeProfit` are 0 (it has no ladder: no rungs, no take-profit of its own).
   * Issue 42: or a plug-in style's name (libs/shared style-plugins.ts), run by that style.
   */
  style?: BotStyleName;
  /** Issue 40: the name its owner gave it (bot-name.rules.ts: trimmed, at most 60 characters, no control characters). */
  name?: string;
  /**
   * Issue 40, the investment-based form: the total USDT its orders lock (futures: margin) that sized its
   * `orderSize` (an infinity grid's `quoteValue`) at the market's steps and minimums (bot-investment.rules.ts).
   * Absent: the order size was given as such.
   */
  investment?: number;
}

/**
 * An edit's settings (the EditBot command, BotEdited): a key left out keeps the bot's (a neutral grid's
 * take profit, issue 40), null removes an optional one (the risk settings, the name, the investment).
 */
export type BotConfigEdit = Omit<BotConfig, 'symbol' | 'leverage' | 'takeProfit' | 'name' | 'investment'> & {
  leverage?: number;
  takeProfit?: number;
  name?: string | null;
  investment?: number | null;
};


/** The optional settings of issue 14 (docs/risk.md). */
export const RISK_FIELDS = ['spacing', 'sizeScale', 'stopLossPercent', 'stopLossPrice', 'trailingDeviation', 'reanchor', 'reanchorLimit', 'trailDownLimit', 'stopLossPriceAbove'] as const;
export type RiskSettings = Pick<BotConfig, (typeof RISK_FIELDS)[number]>;

export type BotEvent =
  | { type: 'BotCreated'; data: { botId: string; userId: string; botType: BotType } & BotConfig }
  | { type: 'BotEdited'; data: { botId: string; leverage: number } & Omit<BotConfigEdit, 'leverage'> }
  /**
   * `afterClose` (issue 40): this start follows a stop that cancelled the bot's orders and closed its
   * position at market because a start asked for it ("sell it first", a signal's choice); the runner adds it.
   */
  | { type: 'BotStartRequested'; data: { botId: string; afterClose?: true } }
  | { type: 'BotStarted'; data: { botId: string; pid: number } }
  /** A runner process took over a running bot (restart, hand-over): the read model's pid is never stale. */
  | { type: 'BotResumed'; data: { botId: string; pid: number } }
  | { type: 'BotStartFailed'; data: { botId: string; reason: string } }
  /**
   * `closePosition` (beyond the spec, futures): close the bot's position at market after the cancels.
   * `thenStart` (issue 40): the stop is the first half of a start that sells the held position first: once
   * it has stopped, the bot starts again (BotStartRequested `afterClose`, in the same append as BotStopped).
   */
  | { type: 'BotStopRequested'; data: { botId: string; cancelAllOrders: boolean; closePosition?: boolean; thenStart?: true } }
  /**
   * `ordersLeftOpen` (issue 29, present when above 0): how many of the bot's orders stay open on the
   * exchange, no longer managed (a stop without cancel-all, a failure).
   */
  | { type: 'BotStopped'; data: { botId: string; pid: -1; ordersLeftOpen?: number } }
  | { type: 'BotFailed'; data: { botId: string; reason: string; ordersLeftOpen?: number } }
  | { type: 'BotDeleted'; data: { botId: string } }
  /**
   * The owner asked for a watchdog check now ("Check now", issue 29, docs/watchdog.md): the runner that
   * owns the bot reacts with a check; what it finds is recorded as BotDriftDetected / BotNotTrading.
   * `at`: wall-clock time of the request (ms).
   */
  | { type: 'BotCheckRequested'; data: { botId: string; at: number } }
  /**
   * The runner ran the check asked for at `requestedAt` (issue 29): `found` is how many differences it
   * found, a lasting one too (recorded once per run, as BotDriftDetected / BotNotTrading, new ones before
   * this event); 0: the bot and the venue agree. `at`: when the check ended (ms).
   */
  | { type: 'BotChecked'; data: { botId: string; requestedAt: number; found: number; at: number } }
  // Written by the grid runner; the lifecycle only keeps the running profit.
  // `totalProfit` is the bot's lifetime profit after this amount (older events: the run's); `fillId`
  // is the take-profit fill that realised it (absent in older events).
  | { type: 'ProfitRealized'; data: { botId: string; amount: number; totalProfit: number; cycle: number; run?: number; fillId?: string } }
  // Order history written by the grid runner (evolveBot ignores them). `run` is the revision of the
  // BotStartRequested that began the run; client order ids are unique per run.
  | { type: 'OrderPlaced'; data: OrderEventData & { role: 'buy'; level: number } }
  | { type: 'TakeProfitPlaced'; data: OrderEventData & { role: 'take-profit'; tpSeq: number } }
  | { type: 'OrderCancelled'; data: { botId: string; run: number; clientOrderId: string; filled: number; at: number } }
  | { type: 'OrderFilled'; data: FillEventData & { level: number; late: boolean } }
  | { type: 'TakeProfitFilled'; data: FillEventData & { tpSeq: number; profit: number } }
  | { type: 'CycleCompleted'; data: { botId: string; run: number; cycle: number; profit: number; nextCycle: number } }
  // Risk controls (issue 14, docs/risk.md), written by the grid runner through the decider.
  /** The price reached the stop-loss: recorded BEFORE anything is cancelled or sold, so a restart finishes it. */
  | { type: 'StopLossStarted'; data: { botId: string; run: number; cycle: number; price: number; level: number } }
  /** A fill of the stop-loss market sell, with its loss (quote, fees included; > 0 is a loss). */
  | { type: 'StopLossTriggered'; data: FillEventData & { loss: number; level: number } }
  /**
   * Issue 40: a fill of the market close of a stop with `closePosition` (the trader's "stop and sell", a
   * signal's "sell it first"), under its fixed client order id (`…-<cycle>-close`): what it sold or bought
   * back, its fee, and what it realised (`profit`, quote, fees included; < 0 a loss), on the engine's rules
   * (libs/trading grid/position-close.ts). A ProfitRealized of the same fill follows it.
   */
  | { type: 'PositionClosed'; data: FillEventData & { profit: number } }
  /**
   * A `follow` grid re-anchored its ladder at the market (`cycle`: the new ladder's cycle); with
   * `trailDown` (issue 32, trail-down.ts) the grid trailed down, keeping its position and take-profit.
   */
  | { type: 'GridReanchored'; data: { botId: string; run: number; from: number; to: number; cycle: number; trailDown?: true } }
  // The watchdog (issue 29, docs/watchdog.md): the bot compared with the venue, written by the runner through the decider.
  /** The venue differs from what the bot expects: what differed (`kind`, on `subject`), and what was done. */
  | { type: 'BotDriftDetected'; data: DriftEventData }
  /** The bot runs but does not trade (no resting order where one should be, repeated refusals, price away from the ladder). */
  | { type: 'BotNotTrading'; data: { botId: string; run: number; reason: NotTradingReason; detail: string; at: number } }
  // The venue's streams (issue 39): written by the runner through the decider when the account's user-data stream changes.
  /** The account's venue stream is down (`reason`): the bot's fills are polled every `pollMs` until it is back. */
  | { type: 'VenueStreamDown'; data: { botId: string; run: number; reason: string; pollMs: number; at: number } }
  /** The account's venue stream is back after `downMs`; what it missed meanwhile was polled. */
  | { type: 'VenueStreamRestored'; data: { botId: string; run: number; downMs: number; at: number } }
  /**
   * The venue refused the install's calls for too much weight (`status` 429) or banned its address (418):
   * every call to it waits until `until` (its Retry-After), from every runner; the bot resumes by itself.
   */
  | { type: 'VenueRateLimited'; data: { botId: string; run: number; venue: string; status: number; until: number; at: number } }
  /** The venue's rate-limit pause that ended at `until` is over: the bot's calls go again. */
  | { type: 'VenueRateLimitLifted'; data: { botId: string; run: number; until: number; at: number } }
  // Futures risk (issue 40 point 3, docs/risk.md), written by the runner through the decider.
  /**
   * The venue liquidated the futures position of the bot's symbol (a fill of the venue's own liquidation
   * order, Binance `autoclose-…`): what it closed, at which price, what it realised (< 0: the margin lost).
   * The bot's open orders were cancelled by the venue; the bot stops with the reason (BotFailed) and its
   * next start restarts the book with nothing carried. `profit` (issue 40, absent in older events): what the
   * bot realised, on what its position cost (fees included), as the figures count it; a ProfitRealized of it
   * follows. `realized` is the venue's own figure (on its entry price, without the opening fees).
   */
  | { type: 'PositionLiquidated'; data: { botId: string; run: number; fillId: string; clientOrderId: string; side: 'buy' | 'sell'; price: number; amount: number; realized: number; profit?: number; at: number } }
  /**
   * The price came within `warnPercent` % of the position's liquidation price (`distancePercent` away):
   * once per run and position until the distance is back above twice the threshold (docs/risk.md).
   */
  | { type: 'LiquidationNear'; data: { botId: string; run: number; price: number; liquidation: number; side: 'long' | 'short'; amount: number; distancePercent: number; warnPercent: number; at: number } };

/** What the watchdog found different between the bot and the venue (docs/watchdog.md has the rules). */
export type DriftKind = 'missed-fill' | 'order-missing' | 'unknown-order' | 'balance-short' | 'position-differs';
/** `repaired`: the safe rule was applied (a missed fill recorded and acted on); `flagged`: shown only, nothing changed. */
export type DriftAction = 'repaired' | 'flagged';
export type NotTradingReason = 'no-resting-order' | 'venue-refusals' | 'price-outside-ladder';

export interface DriftEventData {
  botId: string;
  run: number;
  kind: DriftKind;
  /** What the difference is about: a client order id, a fill id, an asset. */
  subject: string;
  /** What the bot expected, and what the venue has (short texts with the numbers). */
  expected: string;
  actual: string;
  action: DriftAction;
  /**
   * An order cancelled outside GridRocket that the bot replaced (kind `order-missing`, action
   * `repaired`): the new order's client order id. The grid's replay re-arms the order here, among the
   * run's fills (libs/trading grid.engine.ts rearmOrder, docs/watchdog.md).
   */
  replacedBy?: string;
  /** Wall-clock time of the check (ms). */
  at: number;
}

export interface OrderEventData {
  botId: string;
  run: number;
  clientOrderId: string;
  exchangeOrderId: string;
  side: 'buy' | 'sell';
  price: number;
  amount: number;
  cycle: number;
  reduceOnly: boolean;
  /** Exchange time of the placement (ms). */
  at: number;
}

export interface FillEventData {
  botId: string;
  run: number;
  fillId: string;
  clientOrderId: string;
  side: 'buy' | 'sell';
  price: number;
  amount: number;
  /** Quote currency. */
  fee: number;
  /** Buys: the base amount received net of a fee paid in the base coin (absent: `amount`). */
  netAmount?: number;
  /** The asset the venue charged the fee in and how much of it, when the venue said. */
  feeAsset?: string;
  feeCost?: number;
  cycle: number;
  /** Exchange time of the fill (ms). */
  at: number;
}

/** The runner's trading events (not lifecycle). */
export const BOT_TRADING_EVENTS: BotEventType[] = [
  'OrderPlaced', 'TakeProfitPlaced', 'OrderCancelled', 'OrderFilled', 'TakeProfitFilled', 'ProfitRealized', 'CycleCompleted',
  'StopLossStarted', 'StopLossTriggered', 'GridReanchored', 'BotDriftDetected', 'BotNotTrading', 'VenueStreamDown', 'VenueStreamRestored',
  'VenueRateLimited', 'VenueRateLimitLifted', 'PositionLiquidated', 'LiquidationNear', 'PositionClosed',
];

export type BotEventType = BotEvent['type'];

export const BOT_LIFECYCLE_EVENTS: BotEventType[] = [
  'BotCreated', 'BotEdited', 'BotStartRequested', 'BotStarted', 'BotResumed', 'BotStartFailed',
  'BotStopRequested', 'BotStopped', 'BotFailed', 'BotDeleted',
];

export const botStream = (botId: string) => `bot-${botId}`;
