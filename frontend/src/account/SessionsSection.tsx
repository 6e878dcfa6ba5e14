import { useState } from 'react';
import { LogOut, MonitorSmartphone } from 'lucide-react';
import { describeError } from '../api/http';
import { useAppDispatch } from '../store/hooks';
import { ui } from '../store/uiSlice';
import { type SessionView, useGetSessionsQuery, useSignOutOthersMutation, useSignOutSessionMutation } from './sessionsApi';
import './sessions.css';

/** "26 Nov 2026, 16:03" in the reader's locale; "unknown" for a session from before the list existed. */
export function formatWhen(iso: string | null): string {
  const t = iso ? Date.parse(iso) : NaN;
  if (!Number.isFinite(t)) return 'unknown';
  return new Date(t).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** "just now", "5 minutes ago", "3 hours ago", "2 days ago". */
export function ago(iso: string | null, now = Date.now()): string {
  const t = iso ? Date.parse(iso) : NaN;
  if (!Number.isFinite(t)) return 'unknown';
  const s = Math.max(0, Math.round((now - t) / 1000));
  if (s < 60) return 'just now';
  const [n, unit] = s < 3600 ? [Math.floor(s / 60), 'minute'] : s < 86_400 ? [Math.floor(s / 3600), 'hour'] : [Math.floor(s / 86_400), 'day'];
  return `${n} ${unit}${n === 1 ? '' : 's'} ago`;
}

/**
 * Issue 30: the browsers signed in to the account, this one marked, each other one with "Sign out", and
 * "Sign out everywhere else" (asked once more before it acts). Ending a session ends its live connection too.
 */
export function SessionsSection() {
  const dispatch = useAppDispatch();
  const { data: sessions, isLoading, isError, error, refetch } = useGetSessionsQuery();
  const [signOut, signingOut] = useSignOutSessionMutation();
  const [signOutOthers, signingOutOthers] = useSignOutOthersMutation();
  const [confirming, setConfirming] = useState(false);
  const others = (sessions ?? []).filter((s) => !s.current);

  const endOne = async (s: SessionView) => {
    const res = await signOut(s.id);
    if ('error' in res && res.error) {
      // 404: it had ended already (expired, signed out elsewhere): the refreshed list says so
      if ((res.error as { status?: number }).status === 404) void refetch();
      else dispatch(ui.toast('error', `Could not sign out ${s.browser}.`, describeError(res.error)));
      return;
    }
    dispatch(ui.toast('success', `Signed out ${s.browser}.`));
  };

  const endOthers = async () => {
    setConfirming(false);
    const res = await signOutOthers();
    if ('error' in res && res.error) {
      dispatch(ui.toast('error', 'Could not sign out the other sessions.', describeError(res.error)));
      return;
    }
    const n = res.data?.signedOut ?? 0;
    dispatch(ui.toast('success', n === 1 ? 'Signed out 1 other session.' : `Signed out ${n} other sessions.`));
  };

  return (
    <section className="card sessions" aria-labelledby="sessions-title">
      <div className="page__head">
        <div>
          <h2 id="sessions-title">Sessions</h2>
          <p className="muted">Browsers signed in to your account. Sign out any you do not recognise, then change your password.</p>
        </div>
      </div>
      {isLoading ? <p className="muted">Loading your sessions…</p> : null}
      {isError ? (
        <p className="notice" role="alert">
          Could not load your sessions. {describeError(error)}{' '}
          <button type="button" className="btn btn--ghost btn--small" onClick={() => void refetch()}>
            Try again
          </button>
        </p>
      ) : null}
      {sessions ? (
        <ul className="sessions__list" aria-label="Signed-in sessions">
          {sessions.map((s) => (
            <li key={s.id} className="sessions__item" aria-label={`${s.browser}${s.current ? ', this browser' : ''}`}>
              <MonitorSmartphone size={20} aria-hidden="true" className="sessions__icon" />
              <div className="sessions__text">
                <p className="sessions__browser">
                  {s.browser} {s.current ? <span className="badge badge--ok">This browser</span> : null}
                </p>
                <p className="muted sessions__meta">
                  <span>Signed in {formatWhen(s.createdAt)}</span>
                  <span>Last active {s.current ? 'now' : ago(s.lastSeenAt)}</span>
                  <span>{s.address ? `From ${s.address}` : 'Address unknown'}</span>
                </p>
              </div>
              {s.current ? null : (
                <button type="button" className="btn btn--ghost btn--small sessions__out" disabled={signingOut.isLoading} onClick={() => void endOne(s)} aria-label={`Sign out ${s.browser}, signed in ${formatWhen(s.createdAt)}`}>
                  <LogOut size={14} aria-hidden="true" /> Sign out
                </button>
              )}
            </li>
          ))}
        </ul>
      ) : null}
      {sessions ? (
        <div className="actions actions--start sessions__all">
          {others.length === 0 ? (
            <p className="muted">No other browser is signed in.</p>
          ) : confirming ? (
            <div className="sessions__confirm" role="group" aria-label="Confirm sign out everywhere else">
              <p>
                Sign out {others.length === 1 ? 'the other session' : `all ${others.length} other sessions`}? This browser stays signed in.
              </p>
              <div className="actions actions--start">
                <button type="button" className="btn btn--danger" onClick={() => void endOthers()} disabled={signingOutOthers.isLoading}>
                  Sign out {others.length === 1 ? '1 session' : `${others.length} sessions`}
                </button>
                <button type="button" className="btn btn--ghost" onClick={() => setConfirming(false)}>
                  Cancel
                </button>
              </div>
            </div>
          ) : (
            <button type="button" className="btn btn--ghost" onClick={() => setConfirming(true)}>
              <LogOut size={16} aria-hidden="true" /> Sign out everywhere else
            </button>
          )}
        </div>
      ) : null}
    </section>
  );
}
