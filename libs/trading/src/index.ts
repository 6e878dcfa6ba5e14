/** The trading context without Nest: the pure grid engine and the runner. Nest wiring: ./nest.ts. */
export * from './grid';
export * from './runner/grid-runner';
export * from './runner/runner-health';
export * from './runner/runner-report';
export * from './runner/bot-task';
export * from './runner/bot-workflow';
export * from './runner/token-bucket';
export { buildBotSummary, type BotSummary, type SummaryEvent } from './chart/bot-summary';
export * from './money/money';
export * from './money/bot-money.projection';
// issue 42: the grid styles (their interface, the runner's registry) and the exchange steps a style's runner steps share
export * from './styles/grid-style';
export { styleFor, gridStyles, fallbackStyle } from './styles/registry';
export { marketClose, requireBalance, recordCloseFills, belowVenueMinimum } from './runner/close-steps';
