/**
 * The alerts context without Nest (issue 29): kinds, the pure mapping of bot events to alerts, the
 * settings decider and rules, deliveries, the notification sinks. Nest wiring: ./nest.ts.
 *
 * For the watchdog: append `BotDriftDetected` / `BotNotTrading` (WATCHDOG_EVENT_TYPES) to the bot's
 * own stream `bot-<id>` with `data: { botId, summary }`; the dispatcher turns them into `drift` /
 * `notTrading` alerts for the bot's owner.
 */
export * from './domain/alert.kinds';
export * from './domain/alert-mapping';
export * from './domain/alert-settings.events';
export * from './domain/alert-settings.rules';
export * from './domain/alert-settings.decider';
export * from './domain/alert-delivery.decider';
export * from './domain/alert-rate';
export * from './alert-deliveries.projection';
export * from './delivery/notification-sink.port';
export * from './delivery/webhook.sink';
export * from './delivery/telegram.sink';
export * from './delivery/email.sink';
export * from './delivery/alert-secrets';
