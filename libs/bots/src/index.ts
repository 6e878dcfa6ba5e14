/** The bots context without Nest: domain, commands, the bot list projection, history formats. Nest wiring: ./nest.ts. */
export * from './bot-list.projection';
export * from './application/bot.commands';
export * from './domain/bot.decider';
export * from './domain/bot.events';
export * from './domain/bot.view';
export * from './domain/bot-trading';
export * from './domain/bot.rules';
// the grid styles (issue 42): their registry, which lets callers reach a style's parts, and their shape
export * from './styles/registry';
export * from './styles/bot-style';
export * from './history/history.format';
export * from './history/bot-state-at';
export * from './signals/signal.events';
export * from './signals/signal.rules';
export * from './signals/signal-log.decider';
export * from './signals/signal-settings.decider';
export * from './signals/signal-settings.rules';
export * from './domain/bot-range.rules';
export * from './templates/bot-template.decider';
export * from './templates/bot-template-list.projection';
export * from './templates/bot-template.rules';
export { gridHalves } from './domain/bot-market.rules';
export * from './domain/bot-futures.rules';
export * from './history/audit-bots.projection';
