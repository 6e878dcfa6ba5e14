import { useEffect, useState } from 'react';
import { setTotpAsker, type PromptKind } from '../api/totpPrompt';
import { Field } from './Field';
import { Modal } from './Modal';
import { SaveReasons } from './SaveReasons';
import './twoFactor.css';

/**
 * The confirm dialog, mounted once in the layout. `totp` (issue 30): with two-factor sign-in on, adding or
 * deleting a key and changing the alert channels ask for a current code from the authenticator app.
 * `password` (issue 38): setting up or turning off two-factor sign-in, making an access token and
 * changing the alert channels ask for the current password when the sign-in is more than a few minutes old.
 */
export function TotpPrompt() {
  const [ask, setAsk] = useState<{ message: string; kind: PromptKind; resolve: (code: string | null) => void } | null>(null);
  const [code, setCode] = useState('');

  useEffect(() => {
    setTotpAsker(
      (message, kind) =>
        new Promise<string | null>((resolve) => {
          setCode('');
          setAsk({ message, kind, resolve });
        }),
    );
    return () => setTotpAsker(null);
  }, []);

  useEffect(() => {
    if (!ask) return;
    document.body.classList.add('totp-asking');
    // Escape cancels this prompt only, not the dialog it was opened over (e.g. "Add api keys")
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.stopPropagation();
      ask.resolve(null);
      setAsk(null);
    };
    window.addEventListener('keydown', onKey, true);
    return () => {
      document.body.classList.remove('totp-asking');
      window.removeEventListener('keydown', onKey, true);
    };
  }, [ask]);

  if (!ask) return null;
  const finish = (value: string | null) => {
    ask.resolve(value);
    setAsk(null);
  };
  if (ask.kind === 'password') {
    const valid = code.length > 0;
    return (
      <Modal title="Confirm with your password" onClose={() => finish(null)}>
        <form
          noValidate
          aria-label="Confirm with your password"
          onSubmit={(e) => {
            e.preventDefault();
            if (valid) finish(code);
          }}
        >
          <p className="muted">{ask.message}</p>
          <Field id="password-prompt" label="Current password" type="password" value={code} onValue={setCode} autoComplete="current-password" maxLength={200} data-autofocus />
          <div className="actions">
            <button type="button" className="btn btn--ghost" onClick={() => finish(null)}>
              Cancel
            </button>
            <button type="submit" className="btn btn--primary" disabled={!valid} aria-describedby={valid ? undefined : 'password-prompt-reasons'}>
              Confirm
            </button>
          </div>
          {/* issue 40: a disabled button says why */}
          <SaveReasons id="password-prompt-reasons" action="Confirm" reasons={valid ? [] : ['Enter your current password']} />
        </form>
      </Modal>
    );
  }
  const clean = code.replace(/\s/g, '');
  const valid = /^\d{6}$/.test(clean);
  return (
    <Modal title="Confirm with your code" onClose={() => finish(null)}>
      <form
        noValidate
        aria-label="Two-factor code"
        onSubmit={(e) => {
          e.preventDefault();
          if (valid) finish(clean);
        }}
      >
        <p className="muted">{ask.message}</p>
        <Field
          id="totp-prompt-code"
          label="6-digit code"
          value={code}
          onValue={setCode}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={7}
          error={code && !valid ? 'The code is 6 digits' : null}
          data-autofocus
        />
        <div className="actions">
          <button type="button" className="btn btn--ghost" onClick={() => finish(null)}>
            Cancel
          </button>
          <button type="submit" className="btn btn--primary" disabled={!valid} aria-describedby={valid ? undefined : 'totp-prompt-reasons'}>
            Confirm
          </button>
        </div>
        {/* issue 40: a disabled button says why */}
        <SaveReasons id="totp-prompt-reasons" action="Confirm" reasons={valid ? [] : ['Enter the 6-digit code from your authenticator app']} />
      </form>
    </Modal>
  );
}
