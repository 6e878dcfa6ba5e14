import { useEffect, useState } from 'react';
import { setTotpAsker } from '../api/totpPrompt';
import { Field } from './Field';
import { Modal } from './Modal';
import './twoFactor.css';

/**
 * The "fresh code" dialog (issue 30): with two-factor sign-in on, adding or deleting a key and changing
 * the alert channels ask for a current code from the authenticator app. Mounted once in the layout.
 */
export function TotpPrompt() {
  const [ask, setAsk] = useState<{ message: string; resolve: (code: string | null) => void } | null>(null);
  const [code, setCode] = useState('');

  useEffect(() => {
    setTotpAsker(
      (message) =>
        new Promise<string | null>((resolve) => {
          setCode('');
          setAsk({ message, resolve });
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
          <button type="submit" className="btn btn--primary" disabled={!valid}>
            Confirm
          </button>
        </div>
      </form>
    </Modal>
  );
}
