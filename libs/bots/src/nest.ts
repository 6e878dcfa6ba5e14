/** The bots context's Nest entry (`@gridrocket/bots/nest`): module, command handlers, guards. */
export * from './bots.module';
export * from './application/bot-command.runner';
export * from './application/record-trading.handler';
export * from './application/report-bot-lifecycle.handler';
export * from './history/history.module';
export * from './history/auditor.policy';
export * from './history/auditor.guard';
export * from './signals/signals.module';
export * from './signals/signal-raw-body';
