/** The infinity grid's pure entry (`@gridrocket/trading/styles/infinity`): its engine, for the backtest's walks, the dashboard and the tests. */
export * from './infinity.engine';
