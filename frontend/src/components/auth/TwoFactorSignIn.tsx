import { useState } from 'react';
import { Link } from 'react-router-dom';
import { describeError } from '../../api/http';
import { twoFactorApi } from '../../api/twoFactor';
import { Field } from '../Field';
import { useAuthActions } from './useAuthActions';

/**
 * The sign-in's second step (issue 30): the password (or Google/Facebook) was right and the account has
 * two-factor sign-in on. A code from the app, or a recovery code; "remember this browser" skips this
 * step here for 30 days.
 */
export function TwoFactorSignIn() {
  const { signedIn } = useAuthActions();
  const [recovery, setRecovery] = useState(false);
  const [value, setValue] = useState('');
  const [remember, setRemember] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [expired, setExpired] = useState(false);
  const [busy, setBusy] = useState(false);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const typed = value.trim();
    if (!typed) {
      setError(recovery ? 'Enter one of your recovery codes' : 'Enter the 6-digit code');
      return;
    }
    setBusy(true);
    const res = await twoFactorApi.verify(recovery ? { recoveryCode: typed, remember } : { code: typed.replace(/\s/g, ''), remember });
    setBusy(false);
    if (res.data) {
      signedIn(res.data, '/bots');
      return;
    }
    const field = res.error.errors?.[0];
    setError(field?.message ?? describeError(res.error));
    setExpired(res.error.status === 401 && !field);
  };

  const toggle = () => {
    setRecovery((r) => !r);
    setValue('');
    setError(null);
  };

  return (
    <form noValidate onSubmit={(e) => void submit(e)} aria-label="Two-factor code" className="tfa-step">
      <p className="muted">
        {recovery
          ? 'Enter one of the recovery codes you saved when you turned two-factor sign-in on. Each works once.'
          : 'Open your authenticator app and enter the 6-digit code it shows for GridRocket.'}
      </p>
      {recovery ? (
        <Field id="tfa-recovery" label="Recovery code" value={value} onValue={setValue} autoComplete="off" spellCheck={false} maxLength={40} error={error} placeholder="abcd-efgh-ijkl-mnop" data-autofocus />
      ) : (
        <Field id="tfa-code" label="6-digit code" value={value} onValue={setValue} inputMode="numeric" autoComplete="one-time-code" maxLength={7} error={error} data-autofocus />
      )}
      <label className="check">
        <input type="checkbox" id="tfa-remember" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
        Remember this browser for 30 days
      </label>
      <button type="submit" className="btn btn--primary btn--block" disabled={busy}>
        Verify
      </button>
      <div className="form-links">
        <p>
          <button type="button" className="link" onClick={toggle}>
            {recovery ? 'Use a code from your app' : 'Use a recovery code'}
          </button>
        </p>
        <p>{expired ? <strong>Please sign in again. </strong> : null}<Link to="/sign-in">Back to sign-in</Link></p>
      </div>
    </form>
  );
}
