/** The trading context without Nest: the pure grid engine and the runner. Nest wiring: ./nest.ts. */
export * from './grid';
export * from './runner/grid-runner';
export * from './runner/bot-task';
export * from './runner/bot-workflow';
export * from './runner/token-bucket';
export { buildBotSummary, type BotSummary, type SummaryEvent } from './chart/bot-summary';
export * from './money/money';
export * from './money/bot-money.projection';
