/**
 * A backtest run in the panel (BacktestPanel.tsx): its states, its progress bar with Cancel, and how it
 * reads once it ends without a result (cancelled, interrupted, failed and why).
 */
import type { BacktestDoc, BacktestStatus, Progress } from './backtestApi';

export type Kind = 'single' | 'sweep';
export type RangeKey = 'interval' | 'numOfOrders' | 'takeProfit';

/**
 * `running`: `id` once the server took the request (cancellable from then on). `ended`: the backtest
 * finished without a result (cancelled, interrupted, failed: its status and the server's reason).
 * `failed`: the request itself was refused (`ranges`: a sweep's messages per range input).
 */
export type Run =
  | { state: 'idle' }
  | { state: 'running'; id: string | null; progress: Progress | null; cancelling?: boolean; cancelError?: string }
  | { state: 'done'; doc: BacktestDoc }
  | { state: 'ended'; status: Exclude<BacktestStatus, 'running' | 'done'>; error: string | null }
  | { state: 'failed'; message: string; ranges?: Partial<Record<RangeKey, string>> };

/** How a backtest's status reads, everywhere in the panel. */
export function statusText(status: BacktestStatus, error: string | null): string {
  switch (status) {
    case 'running':
      return 'Running';
    case 'done':
      return 'Done';
    case 'cancelled':
      return 'Cancelled';
    case 'interrupted':
      return 'Interrupted: the server restarted while it ran. Run it again.';
    case 'failed':
      return `Failed: ${error ?? 'no reason given'}`;
  }
}

/** What a run shows once it ends without a result, or was refused. */
export function RunEnd({ run }: { run: Run }) {
  if (run.state === 'ended') {
    const text = statusText(run.status, run.error);
    return run.status === 'cancelled' ? (
      <p className="backtest__status" role="status" data-status="cancelled">
        {text}
      </p>
    ) : (
      <p className="field__error" role="alert" data-status={run.status}>
        {text}
      </p>
    );
  }
  if (run.state === 'failed' && run.message) {
    return (
      <p className="field__error" role="alert">
        {run.message}
      </p>
    );
  }
  return null;
}

function ProgressBar({ progress }: { progress: Progress | null }) {
  const share = progress && progress.total ? progress.done / progress.total : 0;
  const label = progress?.phase === 'running' ? 'Backtesting' : progress ? 'Loading candles' : 'Waiting';
  return (
    <div className="backtest__progress" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(share * 100)}>
      <span>{label}…</span>
      <span className="backtest__bar">
        <span style={{ width: `${Math.round(share * 100)}%` }} />
      </span>
    </div>
  );
}

/** A run in progress: its bar, and Cancel once the server has its id. */
export function Running({ run, kind, onCancel }: { run: Extract<Run, { state: 'running' }>; kind: Kind; onCancel: () => void }) {
  return (
    <div className="backtest__running">
      <ProgressBar progress={run.progress} />
      {run.id ? (
        <button type="button" className="btn btn--ghost btn--small" disabled={run.cancelling} onClick={onCancel}>
          {run.cancelling ? 'Cancelling…' : kind === 'sweep' ? 'Cancel sweep' : 'Cancel backtest'}
        </button>
      ) : null}
      {run.cancelError ? (
        <p className="field__error" role="alert">
          {run.cancelError}
        </p>
      ) : null}
    </div>
  );
}
