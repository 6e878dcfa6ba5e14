/** The backtest context without Nest: the grid engine over candles, sweeps, candle sources, events. Nest wiring: ./nest.ts. */
export * from './domain/candle';
export * from './domain/backtest.engine';
export * from './domain/sweep';
export * from './domain/synthetic-candles';
export * from './sweep/sweep.pool';
export * from './domain/backtest.events';
export * from './domain/backtest.decider';
export * from './candles/candle-source.port';
export * from './candles/candle-cache';
export * from './candles/ccxt.candles';
export * from './candles/paper.candles';
export * from './candles/csv.candles';
export * from './candles/upload.candles';
export * from './backtest-list.projection';
export * from './application/backtest.input';
export * from './candles/upload-store';
export * from './jobs/thread-priority';
