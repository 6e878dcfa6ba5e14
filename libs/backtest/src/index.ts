/** The backtest context: the grid engine over candles, sweeps, candle sources, API. */
export * from './domain/candle';
export * from './domain/backtest.engine';
export * from './domain/sweep';
export * from './domain/synthetic-candles';
export * from './sweep/sweep.pool';
