import { useEffect, useState, type ReactNode } from 'react';
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
    return (
      <PromptDialog title="Confirm with your password" formLabel="Confirm with your password" message={ask.message} value={code.length > 0 ? code : null} onFinish={finish} reasonsId="password-prompt-reasons" reason="Enter your current password">
        <Field id="password-prompt" label="Current password" type="password" value={code} onValue={setCode} autoComplete="current-password" maxLength={200} data-autofocus />
      </PromptDialog>
    );
  }
  const clean = code.replace(/\s/g, '');
  const valid = /^\d{6}$/.test(clean);
  return (
    <PromptDialog title="Confirm with your code" formLabel="Two-factor code" message={ask.message} value={valid ? clean : null} onFinish={finish} reasonsId="totp-prompt-reasons" reason="Enter the 6-digit code from your authenticator app">
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
    </PromptDialog>
  );
}

/**
 * The prompt's dialog around its one field: Cancel, and Confirm while `value` (what the field gives) is
 * there, with the reason it is disabled otherwise (issue 40).
 */
function PromptDialog(props: { title: string; formLabel: string; message: string; value: string | null; onFinish: (value: string | null) => void; reasonsId: string; reason: string; children: ReactNode }) {
  const { title, formLabel, message, value, onFinish, reasonsId, reason, children } = props;
  const valid = value !== null;
  return (
    <Modal title={title} onClose={() => onFinish(null)}>
      <form
        noValidate
        aria-label={formLabel}
        onSubmit={(e) => {
          e.preventDefault();
          if (valid) onFinish(value);
        }}
      >
        <p className="muted">{message}</p>
        {children}
        <div className="actions">
          <button type="button" className="btn btn--ghost" onClick={() => onFinish(null)}>
            Cancel
          </button>
          <button type="submit" className="btn btn--primary" disabled={!valid} aria-describedby={valid ? undefined : reasonsId}>
            Confirm
          </button>
        </div>
        {/* issue 40: a disabled button says why */}
        <SaveReasons id={reasonsId} action="Confirm" reasons={valid ? [] : [reason]} />
      </form>
    </Modal>
  );
}
