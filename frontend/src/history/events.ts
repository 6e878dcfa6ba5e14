/**
 * A bot's event history as GET /api/bots/{id}/history returns it, and the words the History view
 * uses for it: a label per event type (unknown types get a generic one), a one-line summary of
 * the data, who did it, and when.
 */
import type { Bot } from '../api/types';
import { compact, percent } from '../bots/format';
import { pairLabel } from '../bots/pairs';

export interface HistoryMetadata {
  userId?: string | null;
  correlationId?: string | null;
  causationId?: string | null;
  occurredAt?: string | null;
  schemaVersion?: number | null;
  [key: string]: unknown;
}

export interface HistoryEvent {
  id: string;
  revision: number;
  position: number;
  type: string;
  data: unknown;
  metadata: HistoryMetadata;
  created: string;
}

/** The bot as the list shows it (lowercase fields), folded up to a moment: the same shape as a listed bot. */
export type HistoryView = Bot;

export interface StateAt {
  botId: string;
  at: string;
  revision: number | null;
  position: number | null;
  eventsApplied: number;
  state: { exists?: boolean; deleted?: boolean; status?: string; [key: string]: unknown };
  view: HistoryView | null;
  next: string[];
}

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
  if (d.outcome === 'requested') return `${what} requested`;
  if (d.outcome === 'unchanged') return `${what}: the bot was already ${what === 'start' ? 'running' : 'stopped'}`;
  return `${what} refused (${String(d.status ?? '')}): ${typeof d.reason === 'string' ? d.reason : 'no reason given'}`;
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
  return parts.join(' · ');
}

function editText(d: Data, before: Data | null): string {
  const changes: string[] = [];
  for (const [key, name, show] of CONFIG_FIELDS) {
    if (!(key in d)) continue;
    if (before && key in before) {
      if (before[key] !== d[key]) changes.push(`${name} ${show(before[key])} → ${show(d[key])}`);
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

/** An order as placed, for the lines about it later: "buy 0.01 @ 94,000 · rung 1", "take-profit sell 0.03 @ 95,411.19". */
function placedText(type: string, d: Data): string {
  const what = `${side(d)} ${compact(d.amount as number)} @ ${compact(d.price as number)}`;
  if (type === 'TakeProfitPlaced') return `take-profit ${what}`;
  return `${what}${typeof d.level === 'number' ? ` · rung ${d.level + 1}` : ''}`;
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
  switch (e.type) {
    case 'BotCreated':
      return configText(d);
    case 'BotEdited':
      return editText(d, before);
    case 'BotStartRequested':
      return 'asked the runner to start the grid';
    case 'BotStarted':
      return d.pid !== undefined ? `running in process ${String(d.pid)}` : 'running';
    case 'BotResumed':
      return d.pid !== undefined ? `a runner took over: running in process ${String(d.pid)}` : 'a runner took over';
    case 'BotStartFailed':
    case 'BotFailed':
      return typeof d.reason === 'string' && d.reason ? d.reason : 'no reason given';
    case 'BotStopRequested':
      return (d.cancelAllOrders ? 'cancel all open orders' : 'keep open orders on the exchange') + (d.closePosition ? ' · close the position at market' : '');
    case 'BotStopped':
      return 'no longer trading';
    case 'BotDeleted':
      return 'removed from the list';
    case 'ProfitRealized':
      return `+${compact(d.amount as number)} USDT · total ${compact(d.totalProfit as number)} USDT${d.cycle !== undefined ? ` · cycle ${String(d.cycle)}` : ''}`;
    case 'OrderPlaced':
      return `${side(d)} ${compact(d.amount as number)} @ ${compact(d.price as number)}${typeof d.level === 'number' ? ` · rung ${d.level + 1}` : ''}`;
    case 'TakeProfitPlaced':
      return `${side(d)} ${compact(d.amount as number)} @ ${compact(d.price as number)}`;
    case 'OrderFilled':
      return `${side(d)} ${compact(d.amount as number)} @ ${compact(d.price as number)}${d.fee !== undefined ? ` · fee ${compact(d.fee as number)}` : ''}${d.late ? ' · late' : ''}`;
    case 'TakeProfitFilled':
      return `${side(d)} ${compact(d.amount as number)} @ ${compact(d.price as number)}${d.profit !== undefined ? ` · profit ${compact(d.profit as number)} USDT` : ''}`;
    case 'OrderCancelled':
      return cancelledText(d, placed);
    case 'CycleCompleted':
      return `cycle ${String(d.cycle ?? '')} · profit ${compact(d.profit as number)} USDT`;
    case 'StopLossStarted':
      return `price ${compact(d.price as number)} reached the stop level ${compact(d.level as number)}: cancelling the ladder, selling at market`;
    case 'StopLossTriggered':
      return `${side(d)} ${compact(d.amount as number)} @ ${compact(d.price as number)} · loss ${compact(d.loss as number)} USDT`;
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
    if ((e.type === 'OrderPlaced' || e.type === 'TakeProfitPlaced') && typeof d.clientOrderId === 'string') placed.set(d.clientOrderId, placedText(e.type, d));
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
