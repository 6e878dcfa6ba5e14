/** The neutral grid's pure entry (`@gridrocket/trading/styles/neutral`): its engine, for the backtest's walks, the dashboard and the tests. */
export * from './neutral.engine';
