import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { CircleCheck, MailCheck } from 'lucide-react';
import { useResendVerificationMutation, useVerifyEmailMutation } from '../api/api';
import { describeError, request } from '../api/http';
import type { User } from '../api/types';
import { setUser } from '../store/authSlice';
import { useAppDispatch, useUser } from '../store/hooks';
import { ui } from '../store/uiSlice';

/**
 * Who is signed in in this browser, as the server sees it (null: nobody). A verification link opens
 * wherever the mail is read (issue 40, point 10): the verified account is not necessarily this browser's.
 */
async function signedInHere(): Promise<User | null> {
  const res = await request<User>({ url: '/api/auth/me' });
  return res.data && res.data.uid ? res.data : null;
}

/**
 * /verify-email-address: the 'Thank You for Registering' screen; with ?token=… it verifies. The answer
 * names the verified account but opens no session (the link may be opened in another browser), so this
 * browser's own user is asked for: the same account is refreshed; nobody signed in is told to sign in;
 * someone else signed in is told so. Before (issue 40), the verified account was stored as this browser's
 * user, with no session behind it: a signed-in shell whose every call was 401.
 */
export function VerifyEmail() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const user = useUser();
  const dispatch = useAppDispatch();
  const [verify] = useVerifyEmailMutation();
  const [resend, { isLoading: resending }] = useResendVerificationMutation();
  const [outcome, setOutcome] = useState<'idle' | 'verifying' | 'verified' | 'failed'>(token ? 'verifying' : 'idle');
  const [reason, setReason] = useState('');
  /** The account the link verified, and who is signed in here when that is another account. */
  const [verified, setVerified] = useState<User | null>(null);
  const [otherUser, setOtherUser] = useState<User | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    void verify({ token }).then(async (res) => {
      if ('error' in res && res.error) {
        setOutcome('failed');
        setReason(describeError(res.error));
        return;
      }
      const data = res.data as User | undefined;
      const here = await signedInHere();
      if (data && data.uid && here?.uid === data.uid) dispatch(setUser({ ...here, emailVerified: true }));
      else if (here) setOtherUser(here);
      else dispatch(setUser(null)); // a stored user without a session is no one
      setVerified(data && data.uid ? data : null);
      setOutcome('verified');
    });
  }, [token, verify, dispatch]);

  const onResend = async () => {
    if (!user) {
      dispatch(ui.showAlert('Please sign in first, then ask for a new verification email.'));
      return;
    }
    const res = await resend();
    if ('error' in res && res.error) dispatch(ui.showAlert(describeError(res.error) || 'Could not send the email.'));
    else dispatch(ui.toast('success', 'Verification email sent', user?.email ? `We sent a new link to ${user.email}.` : undefined));
  };

  return (
    <div className="auth-page">
      <section className="card auth-card" aria-labelledby="verify-title" aria-live="polite">
        {outcome === 'failed' && user?.emailVerified ? (
          <Confirmed title="Your email address is already verified" to="/bots" link="Go to my bots">
              <p>This link was used before, and there is nothing left to do: {user.email ? <strong>{user.email}</strong> : 'your address'} is confirmed.</p>
          </Confirmed>
        ) : outcome === 'verified' && otherUser ? (
          <Confirmed title="Email address verified" to="/bots" link="Go to my bots">
              <p data-testid="verified-other-account">
                {verified?.email ? <strong>{verified.email}</strong> : 'That address'} is confirmed. You are signed in here as{' '}
                <strong>{otherUser.email}</strong>, another account: sign out first to use the verified one in this browser.
              </p>
          </Confirmed>
        ) : outcome === 'verified' && !user ? (
          <Confirmed title="Email address verified" to="/sign-in" link="Sign in">
              <p>
                Thank you! {verified?.email ? <strong>{verified.email}</strong> : 'Your email address'} is confirmed. Sign in to launch your bots.
              </p>
          </Confirmed>
        ) : outcome === 'verified' ? (
          <Confirmed title="Email address verified" to="/bots" link="Go to my bots">
              <p>Thank you! Your email address is confirmed. Your bots are ready for launch.</p>
          </Confirmed>
        ) : (
          <>
            <MailCheck size={48} className="big-icon" aria-hidden="true" />
            <h1 id="verify-title">Thank You for Registering</h1>
            {outcome === 'verifying' ? <p>Checking your verification link…</p> : null}
            {outcome === 'failed' ? (
              <p className="error-text" role="alert">
                This verification link could not be used{reason ? `: ${reason}` : '.'} Ask for a new one below.
              </p>
            ) : null}
            <p>
              We have sent a confirmation email to {user?.email ? <strong>{user.email}</strong> : 'your email address'}.
            </p>
            <p>Please check your email and click on the link to verify your email address.</p>
            <div className="actions actions--start">
              <button type="button" className="btn btn--primary" onClick={() => void onResend()} disabled={resending}>
                Resend Verification Email
              </button>
              {user ? null : (
                <Link to="/sign-in" className="btn btn--ghost">
                  Sign in
                </Link>
              )}
            </div>
          </>
        )}
      </section>
    </div>
  );
}

/** A link's happy ending: the check mark, its title, what it means, and the one way on. */
function Confirmed({ title, to, link, children }: { title: string; to: string; link: string; children: ReactNode }) {
  return (
    <>
      <CircleCheck size={48} className="big-icon big-icon--ok" aria-hidden="true" />
      <h1 id="verify-title">{title}</h1>
      {children}
      <div className="actions actions--start">
        <Link to={to} className="btn btn--primary">
          {link}
        </Link>
      </div>
    </>
  );
}
