import type { RecordedEvent } from '@gridrocket/event-store';
import type { Projection } from '@gridrocket/read-store';
import { BACKTEST_STREAM_PREFIX, type BacktestEvent, type BacktestHistory, type BacktestRequest, type BacktestTerms, type SweepPoint } from './domain/backtest.events';
import type { StyledBacktestResult } from './domain/styles';

/** A user's backtests and sweeps with their results (the read model the dashboard and the CLI read). */
export interface BacktestDoc {
  id: string;
  userid: string;
  kind: 'single' | 'sweep';
  status: 'running' | 'done' | 'failed' | 'cancelled' | 'interrupted';
  request: BacktestRequest;
  createdat: string;
  finishedat: string | null;
  error: string | null;
  terms: BacktestTerms | null;
  candles: number | null;
  /** Issue 40: where the candles came from (null until done, and on backtests done before issue 40). */
  history: BacktestHistory | null;
  result: Omit<StyledBacktestResult, 'fillLog'> | null;
  sweep: { points: SweepPoint[]; best: SweepPoint | null } | null;
}

export const BACKTEST_COLLECTION = 'backtests';

export const backtestListProjection: Projection<BacktestDoc> = {
  name: 'backtest-list',
  collection: BACKTEST_COLLECTION,
  indexes: ['userid'],
  filter: { streamPrefixes: [BACKTEST_STREAM_PREFIX] },
  docId: (event: RecordedEvent) => event.streamId.slice(BACKTEST_STREAM_PREFIX.length),
  reduce(doc, event) {
    const e = { type: event.type, data: event.data } as BacktestEvent;
    switch (e.type) {
      case 'BacktestRequested':
        return {
          id: e.data.backtestId,
          userid: e.data.userId,
          kind: e.data.kind,
          status: 'running',
          request: e.data.request,
          createdat: event.metadata.occurredAt,
          finishedat: null,
          error: null,
          terms: null,
          candles: null,
          history: null,
          result: null,
          sweep: null,
        };
      case 'BacktestCompleted':
        if (!doc) return undefined;
        return { ...doc, status: 'done', finishedat: event.metadata.occurredAt, terms: e.data.terms, candles: e.data.candles, history: e.data.history ?? null, result: e.data.result ?? null, sweep: e.data.sweep ?? null };
      case 'BacktestFailed':
        if (!doc) return undefined;
        return { ...doc, status: 'failed', finishedat: event.metadata.occurredAt, error: e.data.reason };
      case 'BacktestCancelled':
        if (!doc) return undefined;
        return { ...doc, status: 'cancelled', finishedat: event.metadata.occurredAt, error: 'Cancelled' };
      case 'BacktestInterrupted':
        if (!doc) return undefined;
        return { ...doc, status: 'interrupted', finishedat: event.metadata.occurredAt, error: 'The server stopped while this backtest ran; run it again' };
      default:
        return undefined;
    }
  },
};
