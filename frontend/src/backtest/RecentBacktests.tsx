/**
 * "Your recent backtests" under the panel: the five newest with their status (running with Cancel, done,
 * failed and why, cancelled, interrupted) and, issue 40, whether they ran on the simulated history.
 */
import type { BacktestListItem } from './backtestApi';
import { statusText } from './RunStatus';

/** When a backtest started: the time alone today, with the day before that. */
function clock(iso?: string): string {
  if (!iso) return '';
  const at = new Date(iso);
  const time = at.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  return at.toDateString() === new Date().toDateString() ? time : `${at.toLocaleDateString(undefined, { month: 'short', day: 'numeric' })} ${time}`;
}

export function RecentBacktests({ recent, error: listError, onCancel }: { recent: BacktestListItem[]; error: string | null; onCancel: (id: string) => void }) {
  if (!recent.length) return null;
  return (
    <div className="backtest__recent">
      <h4 className="backtest__recent-title">Your recent backtests</h4>
      <ul aria-label="Recent backtests">
        {recent.slice(0, 5).map((b) => (
          <li key={b.id} data-testid="recent-backtest" data-status={b.status}>
            <span className="backtest__recent-what">
              {b.kind === 'sweep' ? 'Sweep' : 'Backtest'}
              {b.request ? ` ${b.request.symbol}` : ''}
              {b.createdat ? `, ${clock(b.createdat)}` : ''}
              {b.history?.simulated ? ', simulated history' : ''}
            </span>
            <span className={`backtest__recent-status backtest__recent-status--${b.status}`}>{statusText(b.status, b.error)}</span>
            {b.status === 'running' ? (
              <button type="button" className="link link--small" onClick={() => onCancel(b.id)} aria-label={`Cancel the ${b.kind === 'sweep' ? 'sweep' : 'backtest'} started ${clock(b.createdat)}`}>
                Cancel
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      {listError ? (
        <p className="field__error" role="alert">
          {listError}
        </p>
      ) : null}
    </div>
  );
}
