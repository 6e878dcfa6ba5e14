import { ConflictError, Decider, NotFoundError, ValidationError } from '@gridrocket/shared';
import type { BotType } from '@gridrocket/shared';
import { BotConfig, BotConfigEdit, BotEvent, BotEventType } from './bot.events';
import { gridHalves, ladderCostOf, ladderPreview } from './bot-market.rules';
import { TradingEvent, TradingLedger, beginRun, decideTrading, emptyLedger, evolveTrading, isTradingEvent, noteLifecycle, unclosedAfter } from './bot-trading';
import { botStyleOf } from '../styles/registry';

export type BotStatus = 'stopped' | 'starting' | 'running' | 'stopping';

/** A bot that exists and is not deleted. */
export interface LiveBot {
  kind: 'live';
  botId: string;
  userId: string;
  botType: BotType;
  config: BotConfig;
  status: BotStatus;
  pid: number;
  /** Lifetime realised profit (the sum of every ProfitRealized amount, all runs). */
  profit: number;
  lastError: string | null;
  cancelAllOrders: boolean;
  closePosition: boolean;
  /** Number of events folded: the revision the next event gets. */
  version: number;
  /** Revision of the BotStartRequested of the current (or last) run; -1 before the first start. */
  run: number;
  /** What the runner recorded (see bot-trading.ts). */
  trading: TradingLedger;
  /**
   * Issue 29 (Found 6): set once the bot stopped (or failed) with this many of its orders still open on
   * the exchange, no longer managed; cleared by the next start. Absent when none.
   */
  ordersLeftOpen?: number;
  /** Issue 29: when the owner last asked for a watchdog check ("Check now"), wall-clock ms; absent before. */
  checkRequestedAt?: number;
  /** The account's venue stream is down for this run (issue 39): since when, why, and how often fills are polled meanwhile. */
  streamDown?: { since: number; reason: string; pollMs: number };
  /** Issue 39: the venue's rate limit pauses every call to it until `until` (its answer: `status`). */
  rateLimited?: { until: number; status: number; since: number };
  /** The request time of the last check the runner reported done (BotChecked): one report per request. */
  checkedFor?: number;
  /**
   * Issue 40: this stop sells the held position on behalf of a start ("sell it first"): once stopped, the
   * bot starts again. Absent otherwise; cleared by the stop's end and by a plain stop asked meanwhile.
   */
  startAfterStop?: true;
}

export type BotState =
  | { kind: 'absent' }
  | { kind: 'deleted'; botId: string; userId: string; version: number }
  | LiveBot;

/** What the runner reports of a bot's lifecycle. */
export type LifecycleReport =
  | { type: 'MarkStarted'; botId: string; pid: number }
  | { type: 'MarkResumed'; botId: string; pid: number }
  | { type: 'MarkStartFailed'; botId: string; reason: string }
  | { type: 'MarkStopped'; botId: string }
  | { type: 'MarkFailed'; botId: string; reason: string }
  /** The check asked for at `requestedAt` ran and found `found` differences (issue 29). */
  | { type: 'MarkChecked'; botId: string; requestedAt: number; found: number; at: number };

export type RunnerCommand =
  | LifecycleReport
  /**
   * The runner's observations of `run` on the exchange (bot-trading.ts), and optionally the lifecycle
   * report they end with (a start's placements and BotStarted, a stop's cancels and BotStopped): both
   * decided together, so they go in ONE append (issue 16).
   */
  | { type: 'RecordTrading'; botId: string; run: number; facts: TradingEvent[]; report?: LifecycleReport };

export type BotCommand =
  | { type: 'CreateBot'; botId: string; userId: string; botType: BotType; config: BotConfig }
  | { type: 'EditBot'; botId: string; userId: string; config: BotConfigEdit }
  /**
   * `confirmPosition`: the owner saw what the bot holds and what the new ladder adds (issue 29).
   * `sellPositionFirst` (issue 40, a signal's standing choice): a bot that holds a position has its orders
   * cancelled and the position closed at market, then starts afresh (a stop with `thenStart`).
   */
  | { type: 'StartBot'; botId: string; userId: string; confirmPosition?: boolean; sellPositionFirst?: boolean }
  | { type: 'StopBot'; botId: string; userId: string; cancelAllOrders: boolean; closePosition?: boolean }
  | { type: 'DeleteBot'; botId: string; userId: string }
  /** "Check now" (issue 29): `at` is the request's wall-clock time (ms), given so deciding stays pure. */
  | { type: 'CheckBot'; botId: string; userId: string; at: number }
  // The runner's commands (no user check: the runner acts for the system).
  | RunnerCommand;

export const initialBotState: BotState = { kind: 'absent' };

export const BOT_NOT_FOUND = 'Bot not found';
export const BOT_BUSY_EDIT = 'The bot is running: stop it before editing it.';
export const BOT_BUSY_DELETE = 'The bot is running: stop it before deleting it.';
/** A start of a bot that holds a position, not confirmed: 409 with what it holds. */
export class PositionHeldError extends ConflictError {}

export const BOT_NOT_RUNNING_CHECK = 'The bot is not running: only a running bot can be checked against the exchange.';
/**
 * "Check now" is rate-limited per bot: a request within this time of the last recorded one records
 * nothing (the check it asked for is pending or just done) and is answered like the first.
 */
export const CHECK_WINDOW_MS = 30_000;

export const BOT_STOPPING = 'The bot is still stopping: start it again once it has stopped.';

/** What a bot holds (base amount, and what it cost in the quote currency): none after a stop that closed it. */
export function heldPosition(bot: LiveBot): { amount: number; cost: number } {
  const t = bot.trading;
  return t.dropNext ? { amount: 0, cost: 0 } : { amount: t.held, cost: t.heldCost };
}

const fmtAmount = (x: number) => String(Number(x.toPrecision(10)));
const fmtMoney = (x: number) => x.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** 'BTCUSDT' (the product's form) or 'BTC/USDT' → BTC and USDT, for the texts. */
function symbolParts(symbol: string): { base: string; quote: string } {
  const [pair] = symbol.split(':');
  if (pair.includes('/')) {
    const [base, quote] = pair.split('/');
    return { base, quote };
  }
  const quote = ['USDT', 'USDC'].find((q) => pair.length > q.length && pair.toUpperCase().endsWith(q));
  return quote ? { base: pair.slice(0, -quote.length), quote } : { base: pair, quote: '' };
}

/**
 * The refusal of a start of a bot that holds a position, unless confirmed (HTTP 409): what it holds and
 * what the new ladder adds, so a restart never stacks a ladder silently (issue 29, Found 2).
 */
export function positionStartMessage(bot: LiveBot): string {
  const held = heldPosition(bot);
  const { base, quote } = symbolParts(bot.config.symbol);
  const holds = `The bot holds ${fmtAmount(held.amount)} ${base} (bought for ${fmtMoney(held.cost)} ${quote}). `;
  const confirm = `Confirm the start to go on (confirmPosition=true).`;
  // issue 32: a style's own start (an infinity grid has no ladder: styles/<style>/, BotStyle.heldStartText)
  const styled = botStyleOf({ style: bot.config.style })?.heldStartText;
  if (styled) return holds + styled(bot.config, quote, fmtMoney) + confirm;
  // a ladder, a neutral grid both halves (issue 32): its buys and its sells
  const adds = gridHalves(bot.config).reduce((t, half) => t + ladderPreview(half, 1000).reduce((s, r) => s + r.size, 0), 0);
  const cost = gridHalves(bot.config).reduce((t, half) => t + ladderCostOf(half), 0);
  return (
    (bot.config.direction === 'short'
      ? `The bot is short ${fmtAmount(held.amount)} ${base} (sold for ${fmtMoney(held.cost)} ${quote}). Starting it places its ladder again: ` +
        `up to ${fmtAmount(adds)} ${base} more sold short, ${fmtMoney(cost)} ${quote} of margin. `
      : holds + `Starting it places its ladder again: up to ${fmtAmount(adds)} ${base} more for ${fmtMoney(cost)} ${quote}. `) +
    confirm
  );
}

/** The user's own live bot, or 404 (another user's bot is indistinguishable from a missing one). */
function owned(state: BotState, userId: string): LiveBot {
  if (state.kind !== 'live' || state.userId !== userId) throw new NotFoundError(BOT_NOT_FOUND);
  return state;
}

export function decideBot(command: BotCommand, state: BotState): BotEvent[] {
  const botId = command.botId;
  switch (command.type) {
    case 'CreateBot':
      if (state.kind !== 'absent') throw new ConflictError('A bot with this id already exists');
      return [{ type: 'BotCreated', data: { botId, userId: command.userId, botType: command.botType, ...command.config } }];
    case 'EditBot': {
      const bot = owned(state, command.userId);
      if (bot.status !== 'stopped') throw new ConflictError(BOT_BUSY_EDIT);
      // issue 32: a style may refuse edits (an infinity bot's settings are its own: BotStyle.editRefusal)
      const refused = botStyleOf({ style: bot.config.style })?.editRefusal;
      if (refused) throw new ValidationError([{ field: 'style', message: refused }]);
      if (bot.botType === 'Spot' && command.config.leverage !== undefined && command.config.leverage !== 1) {
        throw new ValidationError([{ field: 'leverage', message: 'leverage applies to futures bots only' }]);
      }
      // issue 32: a bot's position is of its direction; turning it while it holds one would net on the venue
      const turned = (command.config as { direction?: string | null }).direction;
      const nowShort = bot.config.direction === 'short';
      const now = bot.config.direction ?? 'long';
      const next = turned === null || turned === '' ? 'long' : turned;
      if (turned !== undefined && next !== now && heldPosition(bot).amount > 0) {
        const word = nowShort ? 'short' : (botStyleOf({ direction: now })?.positionWord ?? 'long');
        throw new ValidationError([{ field: 'direction', message: `direction cannot change while the bot holds a ${word} position: stop it with "close position" first` }]);
      }
      if (bot.botType === 'Spot' && (command.config as { direction?: string | null }).direction === 'short') {
        throw new ValidationError([{ field: 'direction', message: 'direction short applies to futures bots only: a spot bot buys its ladder (long)' }]);
      }
      // a style named by a direction may trade one bot type only (the neutral grid futures: BotStyle.onlyBotType)
      const only = botStyleOf({ direction: turned })?.onlyBotType;
      if (only && only.botType !== bot.botType) throw new ValidationError([{ field: 'direction', message: only.message }]);
      return [{ type: 'BotEdited', data: { botId, ...command.config, leverage: bot.botType === 'Futures' ? (command.config.leverage ?? bot.config.leverage) : 1 } }];
    }
    case 'StartBot': {
      const bot = owned(state, command.userId);
      if (bot.status === 'starting' || bot.status === 'running') return [];
      if (bot.status === 'stopping') throw new ConflictError(BOT_STOPPING);
      if (heldPosition(bot).amount > 0 && command.sellPositionFirst === true) {
        // the stop that sells it (cancel-all first: a take-profit holds the coins), then the start (decideEnd)
        return [{ type: 'BotStopRequested', data: { botId, cancelAllOrders: true, closePosition: true, thenStart: true } }];
      }
      if (heldPosition(bot).amount > 0 && command.confirmPosition !== true) throw new PositionHeldError(positionStartMessage(bot));
      return [{ type: 'BotStartRequested', data: { botId } }];
    }
    case 'StopBot': {
      const bot = owned(state, command.userId);
      // a stop asked while a "sell it first" stop runs: it still sells, but no start follows
      if (bot.status === 'stopping' && bot.startAfterStop) return [{ type: 'BotStopRequested', data: { botId, cancelAllOrders: true, closePosition: true } }];
      if (bot.status === 'stopping' || bot.status === 'stopped') return [];
      // futures: close the position reduce-only; spot: sell what the bot holds at market (issue 29)
      const close = command.closePosition === true;
      return [{ type: 'BotStopRequested', data: { botId, cancelAllOrders: command.cancelAllOrders, ...(close ? { closePosition: true } : {}) } }];
    }
    case 'CheckBot': {
      const bot = owned(state, command.userId);
      if (bot.status !== 'running') throw new ConflictError(BOT_NOT_RUNNING_CHECK);
      const last = bot.checkRequestedAt;
      if (last !== undefined && command.at >= last && command.at - last < CHECK_WINDOW_MS) return [];
      return [{ type: 'BotCheckRequested', data: { botId, at: command.at } }];
    }
    case 'DeleteBot': {
      const bot = owned(state, command.userId);
      if (bot.status !== 'stopped') throw new ConflictError(BOT_BUSY_DELETE);
      return [{ type: 'BotDeleted', data: { botId } }];
    }
    case 'MarkStarted':
      if (state.kind !== 'live' || state.status !== 'starting') return [];
      return [{ type: 'BotStarted', data: { botId, pid: command.pid } }];
    case 'MarkResumed':
      if (state.kind !== 'live' || state.status !== 'running' || state.pid === command.pid) return [];
      return [{ type: 'BotResumed', data: { botId, pid: command.pid } }];
    case 'MarkStartFailed':
      if (state.kind !== 'live' || state.status !== 'starting') return [];
      return [{ type: 'BotStartFailed', data: { botId, reason: command.reason } }];
    case 'MarkChecked':
      if (state.kind !== 'live' || state.checkRequestedAt !== command.requestedAt || state.checkedFor === command.requestedAt) return [];
      return [{ type: 'BotChecked', data: { botId, requestedAt: command.requestedAt, found: command.found, at: command.at } }];
    case 'MarkStopped':
    case 'MarkFailed':
      return decideEnd(command, state, state.kind === 'live' ? unclosedAfter(state.trading, []) : 0);
    case 'RecordTrading': {
      if (state.kind !== 'live') throw new NotFoundError(BOT_NOT_FOUND);
      const facts = decideTrading(state, command.run, command.facts);
      if (!command.report) return facts;
      if (command.report.botId !== botId) throw new ConflictError('A lifecycle report of another bot');
      // The report is decided on the state the facts lead to, as if they had been appended first.
      const after = foldFacts(state, facts);
      const report = command.report;
      if (report.type === 'MarkStopped' || report.type === 'MarkFailed') return [...facts, ...decideEnd(report, after, unclosedAfter(state.trading, facts))];
      return [...facts, ...decideBot(report, after)];
    }
  }
}

/** A stop's or failure's event, saying how many of the bot's orders stay open unmanaged (issue 29). */
function decideEnd(command: Extract<LifecycleReport, { type: 'MarkStopped' | 'MarkFailed' }>, state: BotState, leftOpen: number): BotEvent[] {
  const open = leftOpen > 0 ? { ordersLeftOpen: leftOpen } : {};
  if (command.type === 'MarkStopped') {
    if (state.kind !== 'live' || state.status !== 'stopping') return [];
    const stopped: BotEvent = { type: 'BotStopped', data: { botId: command.botId, pid: -1, ...open } };
    // issue 40: the stop sold the position for a start: the start, in the same append
    return state.startAfterStop ? [stopped, { type: 'BotStartRequested', data: { botId: command.botId, afterClose: true } }] : [stopped];
  }
  if (state.kind !== 'live' || state.status === 'stopped') return [];
  return [{ type: 'BotFailed', data: { botId: command.botId, reason: command.reason, ...open } }];
}

/**
 * The bot after its trading facts, for the decision of the report that comes with them. Its ledger is
 * left out of the fold (a fresh one takes the facts): evolve adds to a ledger in place (TradingLedger),
 * and `state` may be a fold held in memory, which deciding must not change. No lifecycle report reads
 * the ledger; they read the status and pid, which the same evolve computes here.
 */
function foldFacts(state: LiveBot, facts: readonly BotEvent[]): BotState {
  return facts.reduce<BotState>((s, e) => evolveBot(s, e), { ...state, trading: emptyLedger() });
}

export function evolveBot(state: BotState, event: BotEvent): BotState {
  if (state.kind === 'absent') {
    if (event.type !== 'BotCreated') return state;
    const { botId, userId, botType, ...config } = event.data;
    return {
      kind: 'live', botId, userId, botType, config, status: 'stopped', pid: -1, profit: 0, lastError: null,
      cancelAllOrders: false, closePosition: false, version: 1, run: -1, trading: emptyLedger(),
    };
  }
  if (state.kind === 'deleted') return { ...state, version: state.version + 1 };
  const s: LiveBot = { ...state, version: state.version + 1 };
  noteLifecycle(s.trading, event);
  // issue 40: "start after this stop" lives from its stop request to the stop's end; the key is removed, not
  // set undefined, so the bot list's document has it only then (its in-place fold never sees it)
  if (s.startAfterStop !== undefined && (event.type === 'BotStartRequested' || event.type === 'BotStopRequested' || event.type === 'BotStopped' || event.type === 'BotFailed')) delete s.startAfterStop;
  switch (event.type) {
    case 'BotEdited': {
      const { botId: _id, ...config } = event.data;
      const merged = { ...s.config, ...config } as Record<string, unknown>;
      for (const key of Object.keys(merged)) if (merged[key] === null) delete merged[key]; // an optional setting turned off (issue 14)
      return { ...s, config: merged as unknown as typeof s.config };
    }
    case 'BotStartRequested':
      return { ...s, status: 'starting', lastError: null, run: state.version, trading: beginRun(s.trading, state.version, s.config, s.botType), ordersLeftOpen: undefined, streamDown: undefined, rateLimited: undefined };
    case 'BotStarted':
      return { ...s, status: 'running', pid: event.data.pid };
    case 'BotResumed':
      return { ...s, pid: event.data.pid };
    case 'BotStartFailed':
      return { ...s, status: 'stopped', pid: -1, lastError: event.data.reason };
    case 'BotStopRequested':
      return { ...s, status: 'stopping', cancelAllOrders: event.data.cancelAllOrders, closePosition: event.data.closePosition === true, ...(event.data.thenStart === true ? { startAfterStop: true as const } : {}) };
    case 'BotStopped':
      return { ...s, status: 'stopped', pid: -1, ordersLeftOpen: event.data.ordersLeftOpen, streamDown: undefined, rateLimited: undefined };
    case 'BotFailed':
      return { ...s, status: 'stopped', pid: -1, lastError: event.data.reason, ordersLeftOpen: event.data.ordersLeftOpen, streamDown: undefined, rateLimited: undefined };
    case 'VenueStreamDown':
      evolveTrading(s.trading, event);
      return { ...s, streamDown: { since: event.data.at, reason: event.data.reason, pollMs: event.data.pollMs } };
    case 'VenueStreamRestored':
      evolveTrading(s.trading, event);
      return { ...s, streamDown: undefined };
    case 'VenueRateLimited':
      evolveTrading(s.trading, event);
      if (s.rateLimited && s.rateLimited.until >= event.data.until) return s;
      return { ...s, rateLimited: { until: event.data.until, status: event.data.status, since: s.rateLimited?.since ?? event.data.at } };
    case 'VenueRateLimitLifted':
      evolveTrading(s.trading, event);
      return s.rateLimited && s.rateLimited.until <= event.data.until ? { ...s, rateLimited: undefined } : s;
    case 'BotCheckRequested':
      return { ...s, checkRequestedAt: event.data.at };
    case 'BotChecked':
      return { ...s, checkedFor: event.data.requestedAt };
    case 'BotDeleted':
      return { kind: 'deleted', botId: s.botId, userId: s.userId, version: s.version };
    case 'ProfitRealized':
      evolveTrading(s.trading, event);
      return { ...s, profit: Math.round((s.profit + event.data.amount) * 1e8) / 1e8 };
    default:
      if (isTradingEvent(event)) evolveTrading(s.trading, event);
      return s; // future types do not change the lifecycle
  }
}

/** The lifecycle events that may follow a state: what an auditor's check of a stream uses. */
export function allowedNext(state: BotState): BotEventType[] {
  if (state.kind === 'absent') return ['BotCreated'];
  if (state.kind === 'deleted') return [];
  switch (state.status) {
    case 'stopped':
      return ['BotEdited', 'BotStartRequested', 'BotDeleted'];
    case 'starting':
      return ['BotStarted', 'BotStartFailed', 'BotStopRequested', 'BotFailed'];
    case 'running':
      return ['BotStopRequested', 'BotFailed', 'ProfitRealized', 'BotResumed'];
    case 'stopping':
      // a plain stop asked while a "sell it first" stop runs (issue 40) is a second BotStopRequested
      return state.startAfterStop ? ['BotStopped', 'BotFailed', 'ProfitRealized', 'BotStopRequested'] : ['BotStopped', 'BotFailed', 'ProfitRealized'];
  }
}

export const botDecider: Decider<BotCommand, BotEvent, BotState> = {
  initialState: initialBotState,
  decide: decideBot,
  evolve: evolveBot,
};
