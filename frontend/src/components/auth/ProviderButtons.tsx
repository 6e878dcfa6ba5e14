import type { ReactNode } from 'react';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { useGetConfigQuery } from '../../api/api';
import { CODE_STEP_PATH } from '../../api/twoFactor';
import { useAppDispatch } from '../../store/hooks';
import { ui } from '../../store/uiSlice';
import { useAuthActions } from './useAuthActions';

type Provider = 'google' | 'facebook';
const NAMES: Record<Provider, string> = { google: 'Google', facebook: 'Facebook' };

function GoogleMark() {
  return (
    <svg viewBox="0 0 48 48" width="18" height="18" aria-hidden="true">
      <path fill="#FFC107" d="M43.6 20.5H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.3-.1-2.4-.4-3.5z" />
      <path fill="#FF3D00" d="m6.3 14.7 6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z" />
      <path fill="#4CAF50" d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-7.9l-6.5 5C9.5 39.6 16.2 44 24 44z" />
      <path fill="#1976D2" d="M43.6 20.5H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.3-.1-2.4-.4-3.5z" />
    </svg>
  );
}

function FacebookMark() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
      <path fill="#fff" d="M13.5 21v-7.5h2.5l.4-3h-2.9V8.6c0-.9.3-1.5 1.5-1.5h1.5V4.4c-.3 0-1.2-.1-2.2-.1-2.2 0-3.7 1.3-3.7 3.8v2.4H8v3h2.6V21h2.9z" />
    </svg>
  );
}

/**
 * Google and Facebook sign-in through a popup at /api/auth/{provider}; the popup posts
 * {type: 'gridrocket:auth', ok, error?} to us (our own origin only) and closes.
 */
/** The configured sign-in providers, with `before` and `after` around them; nothing without one. */
/**
 * The sign-in forms' provider buttons: "Login via" as a heading of that level above them, an "or" divider
 * below (the dialog's and the sign-in page's, one shape).
 */
export function LoginViaProviders({ heading: Heading }: { heading: 'h2' | 'h3' }) {
  return (
    <ProviderButtons
      before={<Heading className="subhead">Login via</Heading>}
      after={
        <div className="divider" role="separator">
          <span>or</span>
        </div>
      }
    />
  );
}

export function ProviderButtons({ before, after }: { before?: ReactNode; after?: ReactNode } = {}) {
  const { data: config } = useGetConfigQuery();
  const dispatch = useAppDispatch();
  const { completePopupLogin } = useAuthActions();
  const done = useRef(completePopupLogin);
  done.current = completePopupLogin;
  const navigate = useNavigate();
  const codeStep = useRef(() => {});
  codeStep.current = () => {
    dispatch(ui.closeLoginDialog());
    navigate(CODE_STEP_PATH);
  };

  useEffect(() => {
    const onMessage = (e: MessageEvent) => {
      if (e.origin !== window.location.origin) return;
      const data = e.data as { type?: string; ok?: boolean; error?: string; twoFactorRequired?: boolean } | null;
      if (!data || data.type !== 'gridrocket:auth') return;
      if (data.ok) void done.current();
      else if (data.twoFactorRequired) codeStep.current(); // the provider vouched; the account's code is next (issue 30)
      else dispatch(ui.showAlert(data.error || 'Sign-in was cancelled or failed.'));
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [dispatch]);

  const open = (p: Provider) => {
    if (!config?.providers[p]) {
      dispatch(ui.showAlert(`${NAMES[p]} sign-in is not configured on this server.`));
      return;
    }
    const w = 520;
    const h = 640;
    const left = Math.max(0, window.screenX + (window.outerWidth - w) / 2);
    const top = Math.max(0, window.screenY + (window.outerHeight - h) / 2);
    const popup = window.open(`/api/auth/${p}`, `gridrocket-${p}`, `width=${w},height=${h},left=${left},top=${top}`);
    if (!popup) dispatch(ui.showAlert(`Please allow pop-ups to sign in with ${NAMES[p]}.`));
  };

  // a provider the server has no credentials for is not offered at all
  const configured = (['google', 'facebook'] as Provider[]).filter((p) => Boolean(config?.providers[p]));
  if (configured.length === 0) return null;
  return (
    <>
      {before}
      <div className="providers">
        {configured.map((p) => (
          <button key={p} type="button" className={`btn btn--provider btn--${p}`} onClick={() => open(p)} title={`Sign in with ${NAMES[p]}`}>
            {p === 'google' ? <GoogleMark /> : <FacebookMark />}
            <span className="provider__label">
              <span>{NAMES[p]}</span>
            </span>
          </button>
        ))}
      </div>
      {after}
    </>
  );
}
