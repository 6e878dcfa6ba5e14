import { AlertKind, KEY_REJECTED_PATTERN, WATCHDOG_EVENT_TYPES } from './alert.kinds';

/** The bot an event belongs to, as the alert needs it (from the bot's own stream, never from the event). */
export interface AlertBot {
  botId: string;
  userId: string;
  symbol: string;
  exchange: string;
  /** > 0: the bot sells by trailing take-profit. */
  trailingDeviation?: number;
}

/** The event as the alert needs it: type, data and when it happened. */
export interface AlertSourceEvent {
  id: string;
  type: string;
  data: unknown;
  occurredAt: string;
}

/** One alert: the message a channel sends. It never carries a secret: only the bot's public facts and the event's words. */
export interface Alert {
  kind: AlertKind;
  /** The event that caused it (deliveries are keyed by it: at most one per event and channel). */
  eventId: string;
  eventType: string;
  botId: string;
  userId: string;
  symbol: string;
  exchange: string;
  occurredAt: string;
  title: string;
  text: string;
  details: Record<string, number | string>;
}

/** The bot events that can become alerts: the subscription's filter. */
export const ALERTING_EVENT_TYPES = [
  'CycleCompleted',
  'BotFailed',
  'BotStartFailed',
  WATCHDOG_EVENT_TYPES.drift,
  WATCHDOG_EVENT_TYPES.notTrading,
  'BotKeyRejected',
  'VenueRateLimited',
];

const money = (n: unknown) => (typeof n === 'number' && Number.isFinite(n) ? String(Math.round(n * 100) / 100) : '?');

/**
 * Removes anything that looks like a credential from a text taken from an event (belt and braces), and
 * client order ids (`gr-<h>-<cycle>-b|tp|sl<n>`, a replaced buy `…-b<n>r<k>`, libs/trading client-order-id.ts): the runner's reasons name
 * the order by its id ("The buy order gr-… at 59000 was cancelled…"), which tells a trader nothing.
 */
export function scrub(text: string): string {
  return text
    .replace(/ ?\bgr-[0-9a-z]{8}-\d+-(?:b\d+(?:r\d+)?|tp\d+|sl\d+)\b/g, '') // a client order id: the price beside it names the order
    .replace(/\b\d{6,12}:[A-Za-z0-9_-]{30,}\b/g, '[redacted]') // a Telegram bot token
    .replace(/\b[A-Za-z0-9+/_-]{40,}\b/g, '[redacted]') // long keys and secrets
    .slice(0, 500);
}

function sentenceOf(data: unknown): string {
  const d = (data ?? {}) as Record<string, unknown>;
  const s = d.summary ?? d.reason ?? d.message;
  return typeof s === 'string' ? scrub(s) : '';
}

/** The watchdog's drift (`BotDriftDetected {kind, expected, actual, action}`, docs/watchdog.md) in words: no order ids. */
const DRIFT_TEXT: Record<string, string> = {
  'missed-fill': 'a fill the bot had missed',
  'order-missing': 'an order missing on the exchange',
  'unknown-order': 'an order on the exchange the bot does not know',
  'balance-short': 'less on the exchange than the bot holds',
  'position-differs': 'a position that differs from the bot\'s',
};
function driftSentence(data: unknown): string {
  const d = (data ?? {}) as Record<string, unknown>;
  if (typeof d.summary === 'string') return scrub(d.summary);
  const what = DRIFT_TEXT[String(d.kind)] ?? 'a difference';
  const numbers = typeof d.expected === 'string' && typeof d.actual === 'string' ? ` (expected ${d.expected}, the exchange has ${d.actual})` : '';
  const done = d.action === 'repaired' ? (d.replacedBy ? 'It was placed again.' : 'It was repaired.') : d.action === 'flagged' ? 'It was not changed: check the bot.' : '';
  return scrub(`Found ${what}${numbers}. ${done}`.trim());
}
/** `BotNotTrading {reason: code, detail: sentence}`: the sentence. */
function notTradingSentence(data: unknown): string {
  const d = (data ?? {}) as Record<string, unknown>;
  const s = d.summary ?? d.detail ?? d.reason;
  return typeof s === 'string' ? scrub(s) : '';
}

/**
 * Pure: which alert a bot event is, or null. The mapping (documented in the report of issue 29):
 * - `CycleCompleted` → `cycle`, or `trailingTakeProfit` for a bot with a trailing deviation > 0
 *   (its take-profit is the trailing market sell, booked as the cycle's take-profit fill);
 * - `BotFailed` whose reason starts "Stop-loss triggered" → `stopLoss` (the runner's summary, after the sell);
 * - `BotFailed` / `BotStartFailed` whose reason says the exchange rejected the key, or `BotKeyRejected` → `keyRejected`;
 * - any other `BotFailed` / `BotStartFailed` → `botFailed`;
 * - `BotDriftDetected` → `drift`, `BotNotTrading` → `notTrading` (the watchdog's events);
 * - `VenueRateLimited` (issue 39: the venue refused the install's calls, 429, or banned its address, 418) →
 *   `notTrading`: the bot runs but no call goes to the venue until the pause ends; the text says until when.
 */
export function alertOf(event: AlertSourceEvent, bot: AlertBot): Alert | null {
  const data = (event.data ?? {}) as Record<string, unknown>;
  const base = { eventId: event.id, eventType: event.type, botId: bot.botId, userId: bot.userId, symbol: bot.symbol, exchange: bot.exchange, occurredAt: event.occurredAt };
  const on = `${bot.symbol} on ${bot.exchange}`;
  switch (event.type) {
    case 'CycleCompleted': {
      const trailing = (bot.trailingDeviation ?? 0) > 0;
      const details = { cycle: Number(data.cycle), profit: Number(data.profit) };
      return trailing
        ? { ...base, kind: 'trailingTakeProfit', title: `Trailing take-profit sold: ${on}`, text: `The trailing take-profit of your ${on} bot sold cycle ${details.cycle}: profit ${money(data.profit)}.`, details }
        : { ...base, kind: 'cycle', title: `Cycle completed: ${on}`, text: `Your ${on} bot completed cycle ${details.cycle}: profit ${money(data.profit)}.`, details };
    }
    case 'BotFailed':
    case 'BotStartFailed': {
      const reason = sentenceOf(data);
      if (/^Stop-loss triggered/.test(reason)) return { ...base, kind: 'stopLoss', title: `Stop-loss triggered: ${on}`, text: `Your ${on} bot stopped: ${reason}`, details: {} };
      if (KEY_REJECTED_PATTERN.test(reason)) return { ...base, kind: 'keyRejected', title: `API key rejected: ${on}`, text: `The exchange rejected the API key of your ${on} bot: ${reason}`, details: {} };
      const what = event.type === 'BotStartFailed' ? 'could not start' : 'stopped with an error';
      return { ...base, kind: 'botFailed', title: `Bot ${what}: ${on}`, text: `Your ${on} bot ${what}: ${reason || 'no reason given'}`, details: {} };
    }
    case 'BotKeyRejected':
      return { ...base, kind: 'keyRejected', title: `API key rejected: ${on}`, text: `The exchange rejected the API key of your ${on} bot. ${sentenceOf(data)}`.trim(), details: {} };
    case WATCHDOG_EVENT_TYPES.drift:
      return { ...base, kind: 'drift', title: `Drift: ${on}`, text: `Your ${on} bot differs from the exchange. ${driftSentence(data)}`.trim(), details: {} };
    case WATCHDOG_EVENT_TYPES.notTrading:
      return { ...base, kind: 'notTrading', title: `Not trading: ${on}`, text: `Your ${on} bot is running but not trading. ${notTradingSentence(data)}`.trim(), details: {} };
    case 'VenueRateLimited': {
      const until = Number(data.until);
      const status = Number(data.status);
      const when = Number.isFinite(until) ? new Date(until).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC') : 'its Retry-After';
      const why = status === 418 ? `${bot.exchange} banned the server's address for too many requests (418)` : `${bot.exchange} refused the server's requests for too much weight (429)`;
      return { ...base, kind: 'notTrading', title: `Paused by the venue's rate limit: ${on}`, text: `Your ${on} bot is paused by the venue's rate limit: ${why}. It resumes by itself at ${when}.`, details: { until, status } };
    }
    default:
      return null;
  }
}
