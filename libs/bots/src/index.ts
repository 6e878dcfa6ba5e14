/** The bots context without Nest: domain, commands, the bot list projection, history formats. Nest wiring: ./nest.ts. */
export * from './bot-list.projection';
export * from './application/bot.commands';
export * from './domain/bot.decider';
export * from './domain/bot.events';
export * from './domain/bot.view';
export * from './domain/bot-trading';
export * from './domain/bot.rules';
export * from './history/history.format';
export * from './history/bot-state-at';
export * from './domain/bot-range.rules';
export * from './templates/bot-template.decider';
export * from './templates/bot-template-list.projection';
export * from './templates/bot-template.rules';
