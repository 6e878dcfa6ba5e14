import { useCallback, useEffect, useState } from 'react';
import { ShieldCheck } from 'lucide-react';
import { describeError } from '../api/http';
import { twoFactorApi, type TwoFactorStatus } from '../api/twoFactor';
import { useAppDispatch } from '../store/hooks';
import { ui } from '../store/uiSlice';
import { Field } from './Field';
import './twoFactor.css';

type Setup = { secret: string; otpauthUri: string; qr?: string };

/** The key grouped in fours, as authenticator apps show it. */
const grouped = (s: string) => s.match(/.{1,4}/g)?.join(' ') ?? s;

/**
 * Two-factor sign-in on the account page (issue 30): turn it on (the key for the authenticator app, a
 * confirming code, ten recovery codes shown once), see how many recovery codes are left, turn it off
 * with a current code or a recovery code.
 */
export function TwoFactorSettings() {
  const dispatch = useAppDispatch();
  const [status, setStatus] = useState<TwoFactorStatus | null>(null);
  const [setup, setSetup] = useState<Setup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [offWithRecovery, setOffWithRecovery] = useState(false);

  const load = useCallback(async () => {
    const res = await twoFactorApi.status();
    if (res.data) setStatus(res.data);
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const start = async () => {
    setBusy(true);
    const res = await twoFactorApi.setup();
    setBusy(false);
    if (res.error) return dispatch(ui.toast('error', 'Could not start the setup.', describeError(res.error)));
    setSetup(res.data);
    setCode('');
    setError(null);
  };

  const confirm = async (e: React.FormEvent) => {
    e.preventDefault();
    const typed = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(typed)) return setError('Enter the 6-digit code your app shows');
    setBusy(true);
    const res = await twoFactorApi.enable(typed);
    setBusy(false);
    if (res.error) return setError(res.error.errors?.[0]?.message ?? describeError(res.error));
    setSetup(null);
    setCodes(res.data.recoveryCodes);
    setCode('');
    setError(null);
    void load();
  };

  const turnOff = async (e: React.FormEvent) => {
    e.preventDefault();
    const typed = code.trim();
    if (!typed) return setError(offWithRecovery ? 'Enter a recovery code' : 'Enter the 6-digit code your app shows');
    setBusy(true);
    const res = await twoFactorApi.disable(offWithRecovery ? { recoveryCode: typed } : { code: typed.replace(/\s/g, '') });
    setBusy(false);
    if (res.error) return setError(res.error.errors?.[0]?.message ?? describeError(res.error));
    setCode('');
    setError(null);
    dispatch(ui.toast('success', 'Two-factor sign-in is off.'));
    void load();
  };

  const text = codes ? `GridRocket recovery codes (each works once)\n\n${codes.join('\n')}\n` : '';
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      dispatch(ui.toast('success', 'Recovery codes copied.'));
    } catch {
      dispatch(ui.toast('error', 'Could not copy: select the codes and copy them by hand.'));
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'gridrocket-recovery-codes.txt';
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  return (
    <section className="card tfa" aria-labelledby="tfa-title">
      <div className="page__head">
        <h2 id="tfa-title">
          <ShieldCheck size={20} aria-hidden="true" /> Two-factor sign-in
        </h2>
        {status ? <span className={`badge ${status.enabled ? 'badge--ok' : 'badge--warn'}`} id="tfa-state">{status.enabled ? 'On' : 'Off'}</span> : null}
      </div>

      {codes ? (
        <div aria-label="Recovery codes">
          <p className="notice">
            Two-factor sign-in is on. Save these recovery codes now: each signs you in once if you lose your phone, and they are not shown again.
          </p>
          <ul className="tfa__codes" id="tfa-codes">
            {codes.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
          <div className="actions actions--start">
            <button type="button" className="btn btn--ghost" onClick={() => void copy()}>
              Copy
            </button>
            <button type="button" className="btn btn--ghost" onClick={download}>
              Download
            </button>
            <button type="button" className="btn btn--primary" onClick={() => setCodes(null)}>
              I have saved them
            </button>
          </div>
        </div>
      ) : setup ? (
        <form noValidate onSubmit={(e) => void confirm(e)} aria-label="Turn on two-factor sign-in">
          <ol className="tfa__steps">
            <li>
              Add GridRocket to an authenticator app (Google Authenticator, Authy, 1Password, Aegis…): scan this QR code with it,
              {setup.qr ? <img className="tfa__qr" src={setup.qr} alt="QR code to scan with an authenticator app" width={180} height={180} /> : null}
              or on this phone <a href={setup.otpauthUri} className="tfa__uri">open it in your authenticator app</a>, or choose “enter a setup key” and type:
              <code className="tfa__secret" id="tfa-secret" aria-label="Setup key">
                {grouped(setup.secret)}
              </code>
              <small className="muted">Time-based, 6 digits, every 30 seconds.</small>
            </li>
            <li>
              <div className="tfa__form">
                <Field id="tfa-confirm-code" label="Enter the 6-digit code the app shows" value={code} onValue={setCode} inputMode="numeric" autoComplete="one-time-code" maxLength={7} error={error} />
              </div>
            </li>
          </ol>
          <div className="actions actions--start">
            <button type="button" className="btn btn--ghost" onClick={() => setSetup(null)}>
              Cancel
            </button>
            <button type="submit" className="btn btn--primary" disabled={busy}>
              Confirm and turn on
            </button>
          </div>
        </form>
      ) : status?.enabled ? (
        <>
          <p className="muted">
            Signing in asks for a code from your authenticator app, and so do adding or deleting an exchange key and changing your alert channels.{' '}
            <strong id="tfa-left">{status.recoveryCodesLeft} recovery codes left.</strong>
          </p>
          <form noValidate onSubmit={(e) => void turnOff(e)} aria-label="Turn off two-factor sign-in" className="tfa__form">
            {offWithRecovery ? (
              <Field id="tfa-off-code" label="Recovery code" value={code} onValue={setCode} autoComplete="off" spellCheck={false} maxLength={40} error={error} />
            ) : (
              <Field id="tfa-off-code" label="Current 6-digit code" value={code} onValue={setCode} inputMode="numeric" autoComplete="one-time-code" maxLength={7} error={error} />
            )}
            <div className="actions actions--start">
              <button type="submit" className="btn btn--danger-ghost" disabled={busy}>
                Turn off
              </button>
              <button
                type="button"
                className="link link--small"
                onClick={() => {
                  setOffWithRecovery((r) => !r);
                  setCode('');
                  setError(null);
                }}
              >
                {offWithRecovery ? 'Use a code from your app' : 'Use a recovery code'}
              </button>
            </div>
          </form>
        </>
      ) : (
        <>
          <p className="muted">
            Protect the account that holds your exchange keys: after your password, signing in also asks for a code from an authenticator app on your phone.
          </p>
          <div className="actions actions--start">
            <button type="button" className="btn btn--primary" onClick={() => void start()} disabled={busy || !status}>
              Turn on two-factor sign-in
            </button>
          </div>
        </>
      )}
    </section>
  );
}
