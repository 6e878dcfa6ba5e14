import { quoteOf } from '@gridrocket/shared';
import { AlertChannel, ALERT_CHANNEL_LABELS, AlertSubject, KEY_REJECTED_PATTERN, WATCHDOG_EVENT_TYPES } from './alert.kinds';

/** The bot an event belongs to, as the alert needs it (from the bot's own stream, never from the event). */
export interface AlertBot {
  botId: string;
  userId: string;
  symbol: string;
  exchange: string;
  /** 'Spot' or 'Futures': the market the bot trades (absent: spot). */
  botType?: string;
  /** The name its owner gave it, when it has one (issue 40: three BTCUSDT bots must be told apart). */
  name?: string | null;
  /** The address of the bot's page in the dashboard (`<PUBLIC_URL>/bots/<id>`). */
  url?: string;
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
  kind: AlertSubject;
  /** The event that caused it (deliveries are keyed by it: at most one per event and channel). */
  eventId: string;
  eventType: string;
  botId: string;
  userId: string;
  symbol: string;
  exchange: string;
  /** The bot's name, or null when it has none. */
  botName: string | null;
  /** How the messages name the bot: its name in quotes, or "bot" and the first 8 characters of its id. */
  botLabel: string;
  /** 'spot' or 'futures'. */
  market: string;
  /** The currency every amount of the alert is in (the pair's quote): 'USDT', 'USDC'; null when none. */
  currency: string | null;
  /** Where the message leads: the bot's page (a test: the alert settings); null when the address is unknown. */
  url: string | null;
  occurredAt: string;
  title: string;
  text: string;
  details: Record<string, number | string>;
}

/** A bot's name as the messages show it: trimmed, at most 60 characters, no line breaks. */
export function cleanBotName(name: unknown): string | null {
  if (typeof name !== 'string') return null;
  const n = name.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 60);
  return n ? n : null;
}

/**
 * How every message names a bot (issue 40): `"Night grid" (BTCUSDT, Binance spot)`, or, without a name,
 * `bot 1a2b3c4d (BTCUSDT, Binance futures)`: three BTCUSDT bots are told apart, and each says where it trades.
 */
export function botWords(bot: AlertBot): { name: string | null; label: string; market: string; where: string; full: string } {
  const name = cleanBotName(bot.name);
  const label = name ? `"${name}"` : `bot ${bot.botId.slice(0, 8)}`;
  const market = bot.botType === 'Futures' ? 'futures' : 'spot';
  const where = `${bot.symbol}, ${bot.exchange} ${market}`;
  return { name, label, market, where, full: `${label} (${where})` };
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
  // issue 40: a signal the bot did not carry out (a refused request, or a start or stop the bot refused)
  'SignalRefused',
  'SignalHandled',
  // issue 40: a futures position near its liquidation price, or liquidated by the venue
  'LiquidationNear',
  'PositionLiquidated',
];

/** An amount of money with its currency ("6.02 USDT"). */
const money = (n: unknown, currency: string | null) => `${typeof n === 'number' && Number.isFinite(n) ? String(Math.round(n * 100) / 100) : '?'}${currency ? ` ${currency}` : ''}`;

/** Why a signal request was refused (`SignalRefused.reason`, docs/signals.md), in words. */
const SIGNAL_REFUSAL_WORDS: Record<string, string> = {
  malformed: 'it was not a well-formed signal',
  'bad-signature': 'its signature or secret does not match the bot\'s secret',
  stale: "its timestamp is more than 300 seconds from the server's clock",
  replay: 'its id was used before (a replay)',
};

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
 *   `notTrading`: the bot runs but no call goes to the venue until the pause ends; the text says until when;
 * - `SignalRefused` (a request to the bot's signal webhook refused: malformed, not authentic, stale, a
 *   replay; at most 5 recorded per bot a minute) and `SignalHandled` with outcome `refused` (the start or stop
 *   itself refused: a held position the owner's choice refuses, no key …) → `signalRefused` (issue 40).
 * Every message names the bot (its name, else "bot" and the start of its id), its pair, exchange and
 * market, gives each amount with the pair's quote currency, and carries the bot page's address.
 */
export function alertOf(event: AlertSourceEvent, bot: AlertBot): Alert | null {
  const data = (event.data ?? {}) as Record<string, unknown>;
  const w = botWords(bot);
  const currency = quoteOf(bot.symbol);
  const base = {
    eventId: event.id, eventType: event.type, botId: bot.botId, userId: bot.userId, symbol: bot.symbol, exchange: bot.exchange,
    botName: w.name, botLabel: w.label, market: w.market, currency, url: bot.url ?? null, occurredAt: event.occurredAt,
  };
  const on = w.full;
  switch (event.type) {
    case 'CycleCompleted': {
      const trailing = (bot.trailingDeviation ?? 0) > 0;
      const details = { cycle: Number(data.cycle), profit: Number(data.profit) };
      return trailing
        ? { ...base, kind: 'trailingTakeProfit', title: `Trailing take-profit sold: ${on}`, text: `The trailing take-profit of your ${on} sold cycle ${details.cycle}: profit ${money(data.profit, currency)}.`, details }
        : { ...base, kind: 'cycle', title: `Cycle completed: ${on}`, text: `Your ${on} completed cycle ${details.cycle}: profit ${money(data.profit, currency)}.`, details };
    }
    case 'BotFailed':
    case 'BotStartFailed': {
      const reason = sentenceOf(data);
      if (/^Stop-loss triggered/.test(reason)) return { ...base, kind: 'stopLoss', title: `Stop-loss triggered: ${on}`, text: `Your ${on} stopped: ${reason}`, details: {} };
      if (KEY_REJECTED_PATTERN.test(reason)) return { ...base, kind: 'keyRejected', title: `API key rejected: ${on}`, text: `The exchange rejected the API key of your ${on}: ${reason}`, details: {} };
      const what = event.type === 'BotStartFailed' ? 'could not start' : 'stopped with an error';
      return { ...base, kind: 'botFailed', title: `Bot ${what}: ${on}`, text: `Your ${on} ${what}: ${reason || 'no reason given'}`, details: {} };
    }
    case 'BotKeyRejected':
      return { ...base, kind: 'keyRejected', title: `API key rejected: ${on}`, text: `The exchange rejected the API key of your ${on}. ${sentenceOf(data)}`.trim(), details: {} };
    case WATCHDOG_EVENT_TYPES.drift:
      return { ...base, kind: 'drift', title: `Drift: ${on}`, text: `Your ${on} differs from the exchange. ${driftSentence(data)}`.trim(), details: {} };
    case WATCHDOG_EVENT_TYPES.notTrading:
      return { ...base, kind: 'notTrading', title: `Not trading: ${on}`, text: `Your ${on} is running but not trading. ${notTradingSentence(data)}`.trim(), details: {} };
    case 'VenueRateLimited': {
      const until = Number(data.until);
      const status = Number(data.status);
      const when = Number.isFinite(until) ? new Date(until).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC') : 'its Retry-After';
      const why = status === 418 ? `${bot.exchange} banned the server's address for too many requests (418)` : `${bot.exchange} refused the server's requests for too much weight (429)`;
      return { ...base, kind: 'notTrading', title: `Paused by the venue's rate limit: ${on}`, text: `Your ${on} is paused by the venue's rate limit: ${why}. It resumes by itself at ${when}.`, details: { until, status } };
    }
    case 'SignalHandled': {
      // only a start or stop the bot refused (a held position, no key, still stopping …) is an alert
      if (data.outcome !== 'refused') return null;
      const action = data.action === 'stop' ? 'stop' : 'start';
      const status = Number(data.status);
      const reason = sentenceOf(data) || 'no reason given';
      const held = data.refusal === 'position-held'
        ? ' Its signal settings say to refuse a start while it holds a position: to let signals start it, choose "start with the position" or "sell it first" under Signals on the bot\'s page.'
        : '';
      return {
        ...base, kind: 'signalRefused', title: `Signal refused: ${on}`,
        text: `A ${action} signal for your ${on} was refused (${status}): ${reason}${held}`,
        details: { action, status, ...(typeof data.signalId === 'string' ? { signalId: scrub(data.signalId).slice(0, 100) } : {}) },
      };
    }
    case 'SignalRefused': {
      const status = Number(data.status);
      const why = SIGNAL_REFUSAL_WORDS[String(data.reason)] ?? 'it was refused';
      const message = typeof data.message === 'string' && data.message ? ` (${scrub(data.message).slice(0, 200)})` : '';
      const more = typeof data.suppressed === 'number' && data.suppressed > 0 ? ` ${data.suppressed} more were refused before it in the same minute.` : '';
      return {
        ...base, kind: 'signalRefused', title: `Signal refused: ${on}`,
        text: `A request to the signal webhook of your ${on} was refused (${status}): ${why}${message}.${more}`,
        details: { status, reason: String(data.reason) },
      };
    }
    case 'LiquidationNear': {
      const details = { price: Number(data.price), liquidation: Number(data.liquidation), distancePercent: Number(data.distancePercent) };
      return {
        ...base, kind: 'liquidationNear', title: `Near liquidation: ${on}`,
        text: `The price of your ${on} is ${details.distancePercent} % from the liquidation price of its ${data.side === 'short' ? 'short' : 'long'} position: ${details.price} now, liquidation at ${details.liquidation} ${currency ?? ''}`.trim() + '. Add margin, lower the position or stop the bot with a close.',
        details,
      };
    }
    case 'PositionLiquidated': {
      const details = { price: Number(data.price), amount: Number(data.amount), realized: Number(data.realized) };
      // what the bot realised on its position's cost (issue 40: its profit and figures count it), else the venue's
      const realised = typeof data.profit === 'number' ? data.profit : data.realized;
      return {
        ...base, kind: 'liquidationNear', title: `Liquidated: ${on}`,
        text: `${bot.exchange} liquidated the position of your ${on}: ${details.amount} closed at ${details.price}, realised ${money(realised, currency)}. The bot stopped.`,
        details,
      };
    }
    default:
      return null;
  }
}

/**
 * The message of "Send a test" (issue 40): what a channel shows when the owner asks for a test, with a
 * link to the alert settings. `id`: a fresh id (the delivery is keyed by it).
 */
export function testAlert(userId: string, channel: AlertChannel, id: string, at: string, publicUrl: string | null): Alert {
  return {
    kind: 'test', eventId: id, eventType: 'AlertTest', botId: '', userId, symbol: '', exchange: '', botName: null, botLabel: '', market: '',
    currency: null, url: publicUrl ? `${publicUrl}/alerts` : null, occurredAt: at,
    title: `Test alert (${ALERT_CHANNEL_LABELS[channel]})`,
    text: `This is a test from GridRocket: alerts on this channel (${ALERT_CHANNEL_LABELS[channel]}) reach you. Real alerts name the bot, its pair, exchange and market, give each amount with its currency, and link to the bot's page.`,
    details: {},
  };
}
