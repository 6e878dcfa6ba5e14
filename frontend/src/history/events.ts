// Over 400 lines: the history's one vocabulary, a label and a line of words for every event type (by role, issue 40), reads best in one table.
/**
 * A bot's event history as GET /api/bots/{id}/history returns it, and the words the History view
 * uses for it: a label per event type (unknown types get a generic one), a one-line summary of
 * the data, who did it, and when.
 */
import type { Answer, Schemas } from '../api/contract';
import type { Bot } from '../api/types';
import { compact, percent } from '../bots/format';
import { pairLabel } from '../bots/pairs';
import { quoteOf } from '../shims/shared';
import { directionOf, wordsOf, type Direction } from '../styles/registry';

/** One event of GET /api/bots/{id}/history (the document's HistoryEvent). */
export type HistoryEvent = Schemas['HistoryEvent'];
export type HistoryMetadata = HistoryEvent['metadata'];

/** The bot as the list shows it (lowercase fields), folded up to a moment: the same shape as a listed bot. */
export type HistoryView = Bot;

/** GET /api/bots/{id}/state: the bot as it was at a time. */
export type StateAt = Answer<'/api/bots/{id}/state', 'get'>;

export type Tone = 'info' | 'ok' | 'warn' | 'fail' | 'trade' | 'profit';

const KNOWN: Record<string, { label: string; tone: Tone }> = {
  BotCreated: { label: 'Bot created', tone: 'info' },
  BotEdited: { label: 'Settings edited', tone: 'info' },
  BotStartRequested: { label: 'Start requested', tone: 'warn' },
  BotStarted: { label: 'Bot started', tone: 'ok' },
  BotResumed: { label: 'Bot resumed', tone: 'ok' },
  BotStartFailed: { label: 'Start failed', tone: 'fail' },
  BotStopRequested: { label: 'Stop requested', tone: 'warn' },
  BotStopped: { label: 'Bot stopped', tone: 'info' },
  BotFailed: { label: 'Bot failed', tone: 'fail' },
  BotDeleted: { label: 'Bot deleted', tone: 'fail' },
  ProfitRealized: { label: 'Profit realized', tone: 'profit' },
  OrderPlaced: { label: 'Buy order placed', tone: 'trade' },
  OrderFilled: { label: 'Buy order filled', tone: 'trade' },
  OrderCancelled: { label: 'Order cancelled', tone: 'trade' },
  TakeProfitPlaced: { label: 'Take-profit order placed', tone: 'trade' },
  TakeProfitFilled: { label: 'Take profit filled', tone: 'profit' },
  CycleCompleted: { label: 'Cycle completed', tone: 'profit' },
  StopLossStarted: { label: 'Stop-loss reached', tone: 'warn' },
  StopLossTriggered: { label: 'Stop-loss sold', tone: 'warn' },
  // issue 40: a fill of the market close of a stop with "close the position"
  PositionClosed: { label: 'Position sold at market', tone: 'trade' },
  GridReanchored: { label: 'Grid re-anchored', tone: 'ok' },
  // The watchdog (issue 29, docs/watchdog.md)
  BotDriftDetected: { label: 'Exchange differs', tone: 'warn' },
  BotNotTrading: { label: 'Not trading', tone: 'fail' },
  BotCheckRequested: { label: 'Check requested', tone: 'info' },
  // The venue's streams (issue 39)
  VenueStreamDown: { label: 'Live updates down', tone: 'fail' },
  VenueStreamRestored: { label: 'Live updates back', tone: 'ok' },
  VenueRateLimited: { label: "Paused by the venue's rate limit", tone: 'fail' },
  VenueRateLimitLifted: { label: 'Rate-limit pause over', tone: 'ok' },
  // Futures risk (issue 40, docs/risk.md)
  PositionLiquidated: { label: 'Liquidated by the exchange', tone: 'fail' },
  LiquidationNear: { label: 'Near liquidation', tone: 'fail' },
  BotChecked: { label: 'Checked', tone: 'ok' },
  // Signed signals (issue 32, docs/signals.md)
  SignalReceived: { label: 'Signal received', tone: 'info' },
  SignalHandled: { label: 'Signal handled', tone: 'ok' },
  SignalRefused: { label: 'Signal refused', tone: 'fail' },
};

/** Why a signal was refused (docs/signals.md), in words. */
const SIGNAL_REFUSAL_TEXT: Record<string, string> = {
  malformed: 'malformed',
  'bad-signature': 'the signature or secret does not match',
  stale: 'its timestamp is too old or too far ahead',
  replay: 'its id was used before (a replay)',
};

function signalRefusedText(d: Data): string {
  const why = SIGNAL_REFUSAL_TEXT[String(d.reason ?? '')] ?? 'refused';
  const id = typeof d.signalId === 'string' && d.signalId ? ` · id ${d.signalId}` : '';
  const more = typeof d.suppressed === 'number' && d.suppressed > 0 ? ` · and ${d.suppressed} more refused before, not listed one by one` : '';
  return `${why} (${String(d.status ?? '')})${id}${more}`;
}

function signalHandledText(d: Data): string {
  const what = d.action === 'stop' ? 'stop' : 'start';
  if (d.outcome === 'requested') {
    // issue 40: what a start did with the position the bot held (the owner's standing choice)
    if (d.position === 'sold-first') return `${what} requested: its position is sold at market first, then it starts afresh`;
    if (d.position === 'kept') return `${what} requested, with the position it holds`;
    return `${what} requested`;
  }
  if (d.outcome === 'unchanged') return `${what}: the bot was already ${what === 'start' ? 'running' : 'stopped'}`;
  const held = d.refusal === 'position-held' ? ' · the bot holds a position and its signal settings say to refuse' : '';
  return `${what} refused (${String(d.status ?? '')}): ${typeof d.reason === 'string' ? d.reason : 'no reason given'}${held}`;
}

const DRIFT_TEXT: Record<string, string> = {
  'missed-fill': 'a fill the bot had missed',
  'order-missing': 'an order of the bot is not on the exchange',
  'unknown-order': 'an order under the bot’s name that it did not place',
  'balance-short': 'the exchange holds less than the bot',
  'position-differs': 'the exchange’s position is smaller than the bot’s',
};
const REPAIRED_TEXT: Record<string, string> = {
  'missed-fill': 'applied',
  'order-missing': 'placed',
};
const NOT_TRADING_TEXT: Record<string, string> = {
  'no-resting-order': 'no order rests on the exchange',
  'venue-refusals': 'the exchange keeps refusing',
  'price-outside-ladder': 'the price has left the ladder',
};

function driftText(d: Data): string {
  const kind = String(d.kind ?? '');
  const what = DRIFT_TEXT[kind] ?? 'the exchange differs from the bot';
  const done = d.action === 'repaired' ? `repaired: ${d.replacedBy ? 'placed again' : (REPAIRED_TEXT[kind] ?? 'done')}` : 'shown only: nothing was changed';
  return `${what} · expected ${String(d.expected ?? '—')}, the exchange has ${String(d.actual ?? '—')} · ${done}`;
}

/** 'SomethingHappened' → 'Something happened'. */
export function humanize(type: string): string {
  const words = String(type)
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .trim()
    .split(/\s+/);
  if (!words[0]) return 'Event';
  return [words[0][0].toUpperCase() + words[0].slice(1), ...words.slice(1).map((w) => (/^[A-Z0-9]+$/.test(w) ? w : w.toLowerCase()))].join(' ');
}

export function eventLabel(type: string): string {
  return KNOWN[type]?.label ?? humanize(type);
}

/** What the bot's orders are: its direction and currency, from its settings (BotCreated / BotEdited data so far). */
export interface BotWords {
  direction: Direction;
  currency: string;
}

/** The words of the bot whose settings are `config` (absent: the spec's long bot in USDT). */
export function botWords(config: Data | null | undefined): BotWords {
  const symbol = typeof config?.symbol === 'string' ? config.symbol : '';
  return { direction: directionOf({ direction: typeof config?.direction === 'string' ? config.direction : undefined }), currency: quoteOf(symbol) ?? 'USDT' };
}

/**
 * An event's label by role (issue 40, point 4): a short's opening orders are sells ("Sell order placed"),
 * its take-profit and stop-loss buy back; a neutral grid's closing orders are its engine's answers.
 */
export function eventLabelOf(e: Pick<HistoryEvent, 'type' | 'data'>, words: BotWords = botWords(null)): string {
  const d = (e.data && typeof e.data === 'object' ? e.data : {}) as Data;
  const sell = d.side === 'sell';
  switch (e.type) {
    case 'OrderPlaced':
      return sell ? 'Sell order placed' : 'Buy order placed';
    case 'OrderFilled':
      return sell ? 'Sell order filled' : 'Buy order filled';
    case 'TakeProfitPlaced':
      return wordsOf(words.direction).history.placed;
    case 'TakeProfitFilled':
      return wordsOf(words.direction).history.filled;
    case 'StopLossTriggered':
      return d.side === 'buy' ? 'Stop-loss bought back' : 'Stop-loss sold';
    case 'PositionClosed':
      return d.side === 'buy' ? 'Position bought back at market' : 'Position sold at market';
    default:
      return eventLabel(e.type);
  }
}

/** Each event's label by role, the bot's settings followed along the history. */
export function labelAll(events: HistoryEvent[]): string[] {
  let config: Data | null = null;
  return events.map((e) => {
    if ((e.type === 'BotCreated' || e.type === 'BotEdited') && e.data && typeof e.data === 'object') config = { ...(config ?? {}), ...(e.data as Data) };
    return eventLabelOf(e, botWords(config));
  });
}

export function eventTone(type: string): Tone {
  return KNOWN[type]?.tone ?? 'info';
}

export function isKnownType(type: string): boolean {
  return type in KNOWN;
}

/** When the event happened: metadata.occurredAt, else when the store wrote it. */
export function eventTime(e: Pick<HistoryEvent, 'metadata' | 'created'>): string {
  const at = e.metadata?.occurredAt;
  if (typeof at === 'string' && Number.isFinite(Date.parse(at))) return at;
  return e.created;
}

const TIME = new Intl.DateTimeFormat('en-GB', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  fractionalSecondDigits: 3,
  hour12: false,
});

/** '22 Nov 2026, 07:14:16.782' in the browser's time zone. */
export function formatTime(iso: string): string {
  const t = Date.parse(iso);
  return Number.isFinite(t) ? TIME.format(new Date(t)) : String(iso);
}

/** Who did it, from the viewer's point of view. */
export function who(userId: unknown, me: string | undefined): { text: string; title: string } {
  const id = typeof userId === 'string' ? userId : '';
  if (!id) return { text: 'system', title: 'No user recorded' };
  if (me && id === me) return { text: 'you', title: id };
  if (id === 'runner') return { text: 'bot runner', title: 'The server process that trades for the bot' };
  if (id === 'system') return { text: 'system', title: id };
  if (id === 'anonymous') return { text: 'unknown sender', title: 'A signal that proved nothing (docs/signals.md)' };
  return { text: id.length > 12 ? `user ${id.slice(0, 8)}…` : `user ${id}`, title: id };
}

type Data = Record<string, unknown>;

const CONFIG_FIELDS: Array<[string, string, (v: unknown) => string]> = [
  ['exchange', 'exchange', (v) => String(v)],
  ['numOfOrders', 'grid size', (v) => compact(v as number)],
  ['orderSize', 'order size', (v) => compact(v as number)],
  ['interval', 'interval', (v) => compact(v as number)],
  ['entryPrice', 'entry price', (v) => compact(v as number)],
  ['takeProfit', 'take profit', (v) => percent(v as number)],
  ['leverage', 'leverage', (v) => `${compact(v as number)}x`],
  // issue 40: the name and the investment (null: removed)
  ['name', 'name', (v) => (v === null || v === undefined ? 'none' : `“${String(v)}”`)],
  ['investment', 'investment', (v) => (v === null || v === undefined ? 'none' : `${compact(v as number)} USDT`)],
];

function configText(d: Data): string {
  const type = d.botType === 'Futures' ? 'futures' : 'spot';
  const pair = typeof d.symbol === 'string' && d.symbol.length > 4 ? pairLabel(d.symbol) : String(d.symbol ?? '');
  const parts = [
    `${String(d.exchange ?? '')} ${type} ${pair}`.trim(),
    `${compact(d.numOfOrders as number)} orders × ${compact(d.orderSize as number)} from ${compact(d.entryPrice as number)}`,
    `interval ${compact(d.interval as number)}`,
    `take profit ${percent(d.takeProfit as number)}`,
  ];
  if (d.botType === 'Futures' && d.leverage !== undefined) parts.push(`leverage ${compact(d.leverage as number)}x`);
  if (typeof d.investment === 'number') parts.push(`investment ${compact(d.investment)} USDT`);
  if (typeof d.name === 'string' && d.name) parts.unshift(`“${d.name}”`);
  return parts.join(' · ');
}

function editText(d: Data, before: Data | null): string {
  const changes: string[] = [];
  for (const [key, name, show] of CONFIG_FIELDS) {
    if (!(key in d)) continue;
    // (a name or investment may be new, or removed: null, issue 40)
    const optional = key === 'name' || key === 'investment';
    if (before && (key in before || optional)) {
      if ((before[key] ?? null) !== (d[key] ?? null)) changes.push(`${name} ${show(before[key])} → ${show(d[key])}`);
    } else if (!before) changes.push(`${name} ${show(d[key])}`);
  }
  if (changes.length) return changes.join(' · ');
  return before ? 'no setting changed' : '';
}

function side(d: Data): string {
  return d.side === 'sell' ? 'sell' : 'buy';
}

function genericText(data: unknown): string {
  if (data === null || data === undefined) return '';
  if (typeof data !== 'object') return String(data);
  const entries = Object.entries(data as Data).filter(([k]) => k !== 'botId');
  const text = entries.map(([k, v]) => `${k}: ${typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`).join(' · ');
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
}

/** An order as placed, for the lines about it later: "buy 0.01 @ 94,000 · rung 1", "take-profit sell 0.03 @ 95,411.19" (a neutral grid's: "answer buy …", "… · line 3"). */
function placedText(type: string, d: Data, words: BotWords = botWords(null)): string {
  const what = `${side(d)} ${compact(d.amount as number)} @ ${compact(d.price as number)}`;
  if (type === 'TakeProfitPlaced') return `${wordsOf(words.direction).history.noun} ${what}`;
  return `${what}${typeof d.level === 'number' ? ` · ${wordsOf(words.direction).history.level} ${d.level + 1}` : ''}`;
}

/** An amount of money with its sign and currency: "+1.2 USDT", "−0.35 USDC"; `plus` false: no sign on a gain. */
function signedMoney(n: unknown, currency: string, plus = true): string {
  const v = Number(n);
  if (!Number.isFinite(v)) return `— ${currency}`;
  return `${v > 0 && plus ? '+' : v < 0 ? '−' : ''}${compact(Math.abs(v))} ${currency}`;
}

/**
 * The cancelled order in words (issue 29, finding 9: the raw client order id reached the history): the
 * order as the bot placed it when the history holds its placement, else which kind of order it was.
 */
function cancelledText(d: Data, placed: Map<string, string> | null): string {
  const id = typeof d.clientOrderId === 'string' ? d.clientOrderId : '';
  const known = id ? placed?.get(id) : undefined;
  const what = known ?? (typeof d.side === 'string' && typeof d.price === 'number' ? `${side(d)} ${compact(d.amount as number)} @ ${compact(d.price)}` : 'an order of the bot');
  return `${what}${d.filled ? ` · ${compact(d.filled as number)} had filled` : ''}`;
}

/**
 * One line about what happened. `before` is the bot's settings before this event (for edits); `placed`:
 * the orders placed before it, by client order id, in words (for cancels).
 */
export function describeEvent(e: Pick<HistoryEvent, 'type' | 'data'>, before: Data | null = null, placed: Map<string, string> | null = null): string {
  const d = (e.data && typeof e.data === 'object' ? e.data : {}) as Data;
  // by role and in the bot's currency (issue 40, points 4 and 5): the settings before this event say which
  const w = botWords(before);
  const cur = w.currency;
  switch (e.type) {
    case 'BotCreated':
      return configText(d);
    case 'BotEdited':
      return editText(d, before);
    case 'BotStartRequested':
      return d.afterClose ? 'asked the runner to start the grid afresh, its position sold' : 'asked the runner to start the grid';
    case 'BotStarted':
      return d.pid !== undefined ? `running in process ${String(d.pid)}` : 'running';
    case 'BotResumed':
      return d.pid !== undefined ? `a runner took over: running in process ${String(d.pid)}` : 'a runner took over';
    case 'BotStartFailed':
    case 'BotFailed':
      return typeof d.reason === 'string' && d.reason ? d.reason : 'no reason given';
    case 'BotStopRequested':
      return (d.cancelAllOrders ? 'cancel all open orders' : 'keep open orders on the exchange') + (d.closePosition ? ' · close the position at market' : '') + (d.thenStart ? ' · then start again (a start signal: “sell it first”)' : '');
    case 'BotStopped':
      return 'no longer trading';
    case 'BotDeleted':
      return 'removed from the list';
    case 'ProfitRealized':
      return `${signedMoney(d.amount, cur)} · total ${signedMoney(d.totalProfit, cur, false)}${d.cycle !== undefined ? ` · cycle ${String(d.cycle)}` : ''}`;
    case 'OrderPlaced':
      return `${side(d)} ${compact(d.amount as number)} @ ${compact(d.price as number)}${typeof d.level === 'number' ? ` · ${wordsOf(w.direction).history.level} ${d.level + 1}` : ''}`;
    case 'TakeProfitPlaced':
      return `${side(d)} ${compact(d.amount as number)} @ ${compact(d.price as number)}`;
    case 'OrderFilled':
      return `${side(d)} ${compact(d.amount as number)} @ ${compact(d.price as number)}${d.fee !== undefined ? ` · fee ${compact(d.fee as number)} ${cur}` : ''}${d.late ? ' · late' : ''}`;
    case 'TakeProfitFilled':
      return `${side(d)} ${compact(d.amount as number)} @ ${compact(d.price as number)}${d.fee !== undefined ? ` · fee ${compact(d.fee as number)} ${cur}` : ''}${d.profit !== undefined ? ` · profit ${signedMoney(d.profit, cur, false)}` : ''}`;
    case 'OrderCancelled':
      return cancelledText(d, placed);
    case 'CycleCompleted':
      return `cycle ${String(d.cycle ?? '')} · profit ${signedMoney(d.profit, cur, false)}`;
    case 'StopLossStarted':
      return `price ${compact(d.price as number)} reached the stop level ${compact(d.level as number)}: ${
        wordsOf(w.direction).stopping
      }`;
    case 'StopLossTriggered':
      return `${side(d)} ${compact(d.amount as number)} @ ${compact(d.price as number)}${d.fee !== undefined ? ` · fee ${compact(d.fee as number)} ${cur}` : ''} · loss ${compact(d.loss as number)} ${cur}`;
    case 'PositionClosed':
      return `${side(d)} ${compact(d.amount as number)} @ ${compact(d.price as number)}${d.fee !== undefined ? ` · fee ${compact(d.fee as number)} ${cur}` : ''} · ${Number(d.profit) < 0 ? 'loss' : 'profit'} ${signedMoney(Math.abs(Number(d.profit)), cur, false)} · the stop's close`;
    case 'BotDriftDetected':
      return driftText(d);
    case 'BotNotTrading':
      return `${NOT_TRADING_TEXT[String(d.reason ?? '')] ?? 'not trading'}${typeof d.detail === 'string' && d.detail ? `: ${d.detail}` : ''}`;
    case 'VenueStreamDown':
      return `the exchange's live updates for this account stopped${typeof d.reason === 'string' && d.reason ? ` (${d.reason})` : ''}: fills are checked every ${typeof d.pollMs === 'number' ? (d.pollMs >= 1000 ? `${Math.round(d.pollMs / 100) / 10} s` : `${d.pollMs} ms`) : 'few seconds'} until they are back`;
    case 'VenueStreamRestored':
      return `the exchange's live updates are back after ${typeof d.downMs === 'number' ? `${Math.max(1, Math.round(d.downMs / 1000))} s` : 'a pause'}; fills made meanwhile were checked`;
    case 'VenueRateLimited':
      return `${d.status === 418 ? "the exchange banned the server's address for too many requests (418)" : 'the exchange refused the server\'s requests for too much weight (429)'}: no call goes to it until ${typeof d.until === 'number' ? new Date(d.until).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' }) : 'its pause ends'}, then the bot resumes by itself`;
    case 'VenueRateLimitLifted':
      return "the exchange's rate-limit pause is over: the bot's calls go again";
    case 'PositionLiquidated': {
      // the bot's own realised P&L of it (issue 40: what its figures and profit count), else the venue's
      const r = typeof d.profit === 'number' ? d.profit : d.realized;
      return `the exchange closed the position: ${d.side === 'sell' ? 'sold' : 'bought back'} ${String(d.amount)} at ${String(d.price)}${typeof r === 'number' ? `, ${r < 0 ? 'lost' : 'realized'} ${Math.abs(r).toFixed(2)} ${cur}` : ''}`;
    }
    case 'LiquidationNear':
      return `the price ${String(d.price)} is ${typeof d.distancePercent === 'number' ? `${d.distancePercent.toFixed(1)} %` : 'close'} from the ${d.side === 'short' ? 'short' : 'long'} position's liquidation at ${String(d.liquidation)} (warned within ${String(d.warnPercent ?? 10)} %)`;
    case 'BotCheckRequested':
      return 'asked the runner to compare the bot with the exchange now (Check now)';
    case 'BotChecked':
      return d.found === 0 ? 'compared with the exchange: no differences' : `compared with the exchange: ${String(d.found)} ${d.found === 1 ? 'difference' : 'differences'} (each recorded once per run)`;
    case 'SignalReceived':
      return `${d.action === 'stop' ? 'stop' : 'start'} · id ${String(d.signalId ?? '')} · ${d.auth === 'body-secret' ? 'secret in the message' : 'signed'}`;
    case 'SignalHandled':
      return signalHandledText(d);
    case 'SignalRefused':
      return signalRefusedText(d);
    case 'GridReanchored':
      return `ladder moved ${d.trailDown ? 'down ' : ''}from ${compact(d.from as number)} to ${compact(d.to as number)} (cycle ${String(d.cycle ?? '')})${d.trailDown ? ', position and take-profit kept' : ''}`;
    default:
      return genericText(e.data);
  }
}

/** Each event with its summary; edits are compared with the settings before them. */
export function describeAll(events: HistoryEvent[]): string[] {
  let config: Data | null = null;
  const placed = new Map<string, string>();
  return events.map((e) => {
    const text = describeEvent(e, config, placed);
    if ((e.type === 'BotCreated' || e.type === 'BotEdited') && e.data && typeof e.data === 'object') {
      config = { ...(config ?? {}), ...(e.data as Data) };
    }
    const d = (e.data && typeof e.data === 'object' ? e.data : {}) as Data;
    if ((e.type === 'OrderPlaced' || e.type === 'TakeProfitPlaced') && typeof d.clientOrderId === 'string') placed.set(d.clientOrderId, placedText(e.type, d, botWords(config)));
    return text;
  });
}

/** Oldest first, in stream order (revision). */
export function ordered(raw: unknown): HistoryEvent[] {
  if (!Array.isArray(raw)) return [];
  return (raw as HistoryEvent[])
    .filter((e) => e && typeof e === 'object' && typeof e.type === 'string')
    .map((e) => ({ ...e, metadata: e.metadata && typeof e.metadata === 'object' ? e.metadata : {} }))
    .sort((a, b) => Number(a.revision) - Number(b.revision));
}
