/**
 * What a trader can hear about and where (issue 29). Pure: shared with the dashboard
 * (`@gridrocket/alerts/domain/alert.kinds`), so the settings page and the server list the same kinds.
 */
export const ALERT_KINDS = ['cycle', 'stopLoss', 'trailingTakeProfit', 'botFailed', 'drift', 'notTrading', 'keyRejected', 'signalRefused', 'liquidationNear'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** The words the dashboard shows for each kind. */
export const ALERT_KIND_LABELS: Record<AlertKind, string> = {
  cycle: 'Cycle completed (take-profit filled)',
  stopLoss: 'Stop-loss triggered',
  trailingTakeProfit: 'Trailing take-profit sold',
  botFailed: 'Bot failed or stopped by an error',
  drift: 'Drift: the bot differs from the exchange',
  notTrading: 'Running but not trading',
  keyRejected: 'API key rejected by the exchange',
  signalRefused: 'Signal refused (a start or stop signal the bot did not carry out)',
  liquidationNear: 'Futures: the price near the liquidation price, or the position liquidated',
};

export const ALERT_CHANNELS = ['email', 'webhook', 'telegram'] as const;
export type AlertChannel = (typeof ALERT_CHANNELS)[number];
export const ALERT_CHANNEL_LABELS: Record<AlertChannel, string> = { email: 'E-mail', webhook: 'Webhook', telegram: 'Telegram' };

/** What a delivery log entry is about: one of the kinds, or a test the owner sent ("Send a test", issue 40). */
export type AlertSubject = AlertKind | 'test';

/**
 * The watchdog's event types (another part of issue 29): appended to the bot's own stream
 * (`bot-<id>`), they become `drift` and `notTrading` alerts. Their `data` should carry `botId` and a
 * human sentence in `summary` (or `reason`/`message`); anything else is ignored by the alerts.
 */
export const WATCHDOG_EVENT_TYPES = { drift: 'BotDriftDetected', notTrading: 'BotNotTrading' } as const;

/** A key the exchange refused: the words of the exchanges context's BadApiKeyError (libs/exchanges/src/exchange.errors.ts). */
export const KEY_REJECTED_PATTERN = /rejected the (bot's )?API key|invalid api[- ]?key|api key (is )?(invalid|rejected|expired)/i;
