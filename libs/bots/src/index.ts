export * from './bots.module';
export * from './bot-list.projection';
export * from './application/bot.commands';
export * from './application/bot-command.runner';
export * from './domain/bot.decider';
export * from './domain/bot.events';
export * from './domain/bot.view';
export * from './domain/bot.rules';
