/** The backtest context's Nest wiring: module, service (runs backtests, pushes progress), controller. */
export * from './backtest.module';
export * from './application/backtest.service';
export * from './backtests.controller';
