import { ConflictError, NotFoundError, type Decider } from '@gridrocket/shared';
import type { BacktestEvent, BacktestRequest } from './backtest.events';

export interface BacktestState {
  status: 'none' | 'running' | 'done' | 'failed' | 'cancelled' | 'interrupted';
  userId: string | null;
  kind: 'single' | 'sweep' | null;
  request: BacktestRequest | null;
}

export type BacktestCommand =
  | { type: 'RequestBacktest'; data: Extract<BacktestEvent, { type: 'BacktestRequested' }>['data'] }
  | { type: 'CompleteBacktest'; data: Extract<BacktestEvent, { type: 'BacktestCompleted' }>['data'] }
  | { type: 'FailBacktest'; data: { backtestId: string; reason: string } }
  /** The owner's cancel: `userId` must be the owner's (another user's backtest is not found). */
  | { type: 'CancelBacktest'; data: { backtestId: string; userId: string } }
  | { type: 'InterruptBacktest'; data: { backtestId: string } };

export const BACKTEST_NOT_FOUND = 'Backtest not found';
export const BACKTEST_FINISHED = 'The backtest has already finished';

const initial: BacktestState = { status: 'none', userId: null, kind: null, request: null };

export function decideBacktest(command: BacktestCommand, state: BacktestState): BacktestEvent[] {
  switch (command.type) {
    case 'RequestBacktest':
      if (state.status !== 'none') throw new ConflictError('A backtest with this id already exists');
      return [{ type: 'BacktestRequested', data: command.data }];
    case 'CompleteBacktest':
      if (state.status === 'none') throw new NotFoundError(BACKTEST_NOT_FOUND);
      if (state.status !== 'running') return []; // already finished: a re-run after a restart changes nothing
      return [{ type: 'BacktestCompleted', data: command.data }];
    case 'FailBacktest':
      if (state.status === 'none') throw new NotFoundError(BACKTEST_NOT_FOUND);
      if (state.status !== 'running') return [];
      return [{ type: 'BacktestFailed', data: command.data }];
    case 'CancelBacktest':
      if (state.status === 'none' || state.userId !== command.data.userId) throw new NotFoundError(BACKTEST_NOT_FOUND);
      if (state.status !== 'running') throw new ConflictError(BACKTEST_FINISHED);
      return [{ type: 'BacktestCancelled', data: { backtestId: command.data.backtestId } }];
    case 'InterruptBacktest':
      if (state.status === 'none') throw new NotFoundError(BACKTEST_NOT_FOUND);
      if (state.status !== 'running') return [];
      return [{ type: 'BacktestInterrupted', data: command.data }];
  }
}

export function evolveBacktest(state: BacktestState, event: BacktestEvent): BacktestState {
  switch (event.type) {
    case 'BacktestRequested':
      return { status: 'running', userId: event.data.userId, kind: event.data.kind, request: event.data.request };
    case 'BacktestCompleted':
      return { ...state, status: 'done' };
    case 'BacktestFailed':
      return { ...state, status: 'failed' };
    case 'BacktestCancelled':
      return { ...state, status: 'cancelled' };
    case 'BacktestInterrupted':
      return { ...state, status: 'interrupted' };
    default:
      return state;
  }
}

export const backtestDecider: Decider<BacktestCommand, BacktestEvent, BacktestState> = {
  initialState: initial,
  decide: decideBacktest,
  evolve: evolveBacktest,
};
