/** Issue 32: a backtest of a short futures grid trades the short grid (the direction of the body reaches the engine). */
import { ValidationError } from '@gridrocket/shared';
import { parseBacktestRequest } from './backtest.input';

const NOW = Date.UTC(2026, 0, 1);
const body = { exchange: 'Binance', symbol: 'LTCUSDT', botType: 'Futures', numOfOrders: 3, orderSize: 0.5, interval: 2, entryPrice: 92, takeProfit: 2, leverage: 5 };

describe('a backtest request with a direction', () => {
  it('short futures: the grid config carries direction short; without one it is long (nothing carried)', () => {
    expect(parseBacktestRequest({ ...body, direction: 'short' }, NOW, 'paper').config.direction).toBe('short');
    expect(parseBacktestRequest(body, NOW, 'paper').config).not.toHaveProperty('direction');
  });

  it('short spot: refused on the direction field', () => {
    let errors: unknown = null;
    try {
      parseBacktestRequest({ ...body, botType: 'Spot', leverage: 1, direction: 'short' }, NOW, 'paper');
    } catch (e) {
      errors = e instanceof ValidationError ? e.errors : e;
    }
    expect(errors).toEqual([{ field: 'direction', message: 'direction short applies to futures bots only: a spot bot buys its ladder (long)' }]);
  });

  it('neutral futures: refused on the direction field (its backtest is not a job of this route yet), never run as a long grid', () => {
    let errors: unknown = null;
    try {
      parseBacktestRequest({ ...body, direction: 'neutral' }, NOW, 'paper');
    } catch (e) {
      errors = e instanceof ValidationError ? e.errors : e;
    }
    expect(errors).toEqual([{ field: 'direction', message: 'Backtests of a neutral grid are not available yet: backtest its long and short halves' }]);
  });
});
