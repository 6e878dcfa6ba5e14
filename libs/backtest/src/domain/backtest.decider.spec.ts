import { ConflictError, NotFoundError } from '@gridrocket/shared';
import { deciderSpec } from '@gridrocket/shared/testing/decider-spec';
import { backtestDecider } from './backtest.decider';
import type { BacktestEvent, BacktestRequest } from './backtest.events';

const request: BacktestRequest = {
  exchange: 'Binance', market: 'spot', symbol: 'SOLUSDT', timeframe: '1m', from: 0, to: 60_000, source: 'paper',
  config: { botType: 'Spot', numOfOrders: 3, orderSize: 1, interval: 1, entryPrice: 140, takeProfit: 1, leverage: 1 },
};
const requested: BacktestEvent = { type: 'BacktestRequested', data: { backtestId: 'b1', userId: 'u1', kind: 'single', request } };
const terms = { rules: { priceStep: 0.01, amountStep: 0.001, minNotional: 5 }, feeBps: 10, feeSource: 'paper' };
const completed: BacktestEvent = { type: 'BacktestCompleted', data: { backtestId: 'b1', terms, candles: 1 } };

describe('backtest decider', () => {
  const spec = deciderSpec(backtestDecider);
  it('requests a backtest once', () => {
    spec.given().when({ type: 'RequestBacktest', data: requested.data }).then(requested);
    spec.given(requested).when({ type: 'RequestBacktest', data: requested.data }).thenThrows(ConflictError, /already exists/);
  });
  it('completes or fails a running backtest once; a second finish changes nothing', () => {
    spec.given(requested).when({ type: 'CompleteBacktest', data: completed.data }).then(completed);
    spec.given(requested, completed).when({ type: 'CompleteBacktest', data: completed.data }).then();
    spec.given(requested, completed).when({ type: 'FailBacktest', data: { backtestId: 'b1', reason: 'x' } }).then();
    spec.given(requested).when({ type: 'FailBacktest', data: { backtestId: 'b1', reason: 'No candles' } }).then({ type: 'BacktestFailed', data: { backtestId: 'b1', reason: 'No candles' } });
  });
  it('cannot finish what was never requested', () => {
    spec.given().when({ type: 'CompleteBacktest', data: completed.data }).thenThrows(NotFoundError, /not found/);
  });
});

describe('backtest decider: cancel and interrupt (issue 28)', () => {
  const spec = deciderSpec(backtestDecider);
  const cancel = { type: 'CancelBacktest' as const, data: { backtestId: 'b1', userId: 'u1' } };
  it('the owner cancels a running backtest once; a finished one is a conflict; another user\'s is not found', () => {
    spec.given(requested).when(cancel).then({ type: 'BacktestCancelled', data: { backtestId: 'b1' } });
    spec.given(requested, completed).when(cancel).thenThrows(ConflictError, /already finished/);
    spec.given(requested, { type: 'BacktestCancelled', data: { backtestId: 'b1' } }).when(cancel).thenThrows(ConflictError, /already finished/);
    spec.given(requested).when({ type: 'CancelBacktest', data: { backtestId: 'b1', userId: 'u2' } }).thenThrows(NotFoundError, /not found/);
    spec.given().when(cancel).thenThrows(NotFoundError, /not found/);
  });
  it('a cancelled backtest completes no more; a running one found at start-up is interrupted once', () => {
    spec.given(requested, { type: 'BacktestCancelled', data: { backtestId: 'b1' } }).when({ type: 'CompleteBacktest', data: completed.data }).then();
    spec.given(requested).when({ type: 'InterruptBacktest', data: { backtestId: 'b1' } }).then({ type: 'BacktestInterrupted', data: { backtestId: 'b1' } });
    spec.given(requested, completed).when({ type: 'InterruptBacktest', data: { backtestId: 'b1' } }).then();
  });
});
