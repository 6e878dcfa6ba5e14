/** The trading context's Nest entry (`@gridrocket/trading/nest`): modules, the runner service, the chart. */
export * from './trading.module';
export * from './runner/grid-runner.service';
export * from './chart/chart.module';
export * from './money/money.module';
// Not Nest itself, but it wires the bots context's Nest command handlers without Nest.
export * from './runner/direct-commands';
