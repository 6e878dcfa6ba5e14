import { useMemo, useState } from 'react';
import { KeyRound, Plus, Trash2, TriangleAlert } from 'lucide-react';
import { useAddCredentialMutation, useDeleteCredentialMutation, useGetCredentialsQuery } from '../api/api';
import { describeError } from '../api/http';
import type { Credential, Exchange } from '../api/types';
import { Field, SelectField } from '../components/Field';
import { FormRefusal } from '../components/Feedback';
import { ConfirmDialog, Modal } from '../components/Modal';
import { exchangeIcon } from '../bots/icons';
import { EXCHANGES } from '../bots/pairs';
import { venueOf } from '../venues';
import { useForm } from '../forms/useForm';
import { apiKeyRules } from '../forms/validation';
import { useAppDispatch, useUser } from '../store/hooks';
import { ui } from '../store/uiSlice';

/** A secret typed in, never offered back by the browser. */
const SECRET_INPUT = { type: 'password', autoComplete: 'off' } as const;

const EMPTY = { exchange: '', apiKey: '', secretKey: '', passphrase: '' };

/** The 'Add api keys' form {exchange, apiKey, secretKey, passphrase}; passphrase only for a venue whose keys have one (Kucoin). */
export function ApiKeyForm({ onCancel, onSaved }: { onCancel: () => void; onSaved: () => void }) {
  const user = useUser()!;
  const dispatch = useAppDispatch();
  const [add] = useAddCredentialMutation();
  const [values, setValues] = useState(EMPTY);
  const rules = useMemo(
    () => (venueOf(values.exchange).passphrase ? apiKeyRules : { exchange: apiKeyRules.exchange, apiKey: apiKeyRules.apiKey, secretKey: apiKeyRules.secretKey }),
    [values.exchange],
  );
  const f = useForm(EMPTY, rules);
  // keep the local copy (for the passphrase switch) in step with the form
  const set = (k: keyof typeof EMPTY, v: string) => {
    f.set(k, v);
    setValues((s) => ({ ...s, [k]: v }));
  };
  /** A key field's name, value, setter and shown error. */
  const bind = (k: keyof typeof EMPTY) => ({ name: k, value: f.values[k], onValue: (v: string) => set(k, v), error: f.shown(k) });
  const asksPassphrase = venueOf(f.values.exchange).passphrase;
  /** The server's refusal of the key (issue 30: it can withdraw, cannot trade, the venue refused it): shown under the form. */
  const [refusal, setRefusal] = useState<string | null>(null);

  const submit = f.handleSubmit(async (v) => {
    setRefusal(null);
    dispatch(ui.showSpinner());
    const res = await add({
      exchange: v.exchange as Exchange,
      apiKey: v.apiKey.trim(),
      keySecret: v.secretKey.trim(),
      passPhrase: asksPassphrase ? v.passphrase : '',
      userId: user.uid,
    });
    dispatch(ui.hideSpinner());
    if ('error' in res && res.error) {
      const error = res.error as { errors?: Array<{ field: string; message: string }> };
      const onKey = error.errors?.find((e) => e.field === 'apiKey');
      if (onKey) setRefusal(onKey.message);
      dispatch(ui.toast('error', 'Error creating API Key!', describeError(res.error)));
      return;
    }
    f.reset(EMPTY);
    setValues(EMPTY);
    dispatch(ui.toast('success', 'API Key successfully added!'));
    onSaved();
  });

  return (
    <form noValidate onSubmit={submit} aria-label="Add api keys">
      <SelectField
        id="key-exchange"
        label="Exchange"
        name="exchange"
        placeholder="Select Exchange"
        value={f.values.exchange}
        onValue={(v) => set('exchange', v)}
        options={EXCHANGES.map((e) => ({ value: e, label: e }))}
        error={f.shown('exchange')}
      />
      <Field id="key-api" label="API Key" {...bind('apiKey')} autoComplete="off" spellCheck={false} maxLength={100} />
      <Field id="key-secret" label="Secret Key" {...bind('secretKey')} {...SECRET_INPUT} spellCheck={false} maxLength={100} hint="Stored encrypted; never shown again." />
      {asksPassphrase ? <Field id="key-passphrase" label="Passphrase" {...bind('passphrase')} {...SECRET_INPUT} maxLength={40} hint={`The API passphrase you chose at ${f.values.exchange}.`} /> : null}
      <FormRefusal message={refusal} className="key-refused" testId="key-add-refusal" />
      <div className="actions">
        <button type="button" className="btn btn--ghost" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn btn--primary">
          Save
        </button>
      </div>
    </form>
  );
}

export default function SecurityPage() {
  const user = useUser()!;
  const dispatch = useAppDispatch();
  const { data: keys = [], isLoading, isError } = useGetCredentialsQuery(user.uid);
  const [remove] = useDeleteCredentialMutation();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<Credential | null>(null);
  /** A deletion refused because running bots sign with the key (409 naming them, issue 29): stays on the page. */
  const [refusal, setRefusal] = useState<{ id: string; message: string } | null>(null);

  const confirmRemove = async () => {
    const target = removing;
    setRemoving(null);
    if (!target) return;
    setRefusal(null);
    dispatch(ui.showSpinner());
    const res = await remove(target.id);
    dispatch(ui.hideSpinner());
    if ('error' in res && res.error) {
      const error = res.error as { status?: number; message?: string };
      if (error.status === 409 && error.message) setRefusal({ id: target.id, message: error.message });
      dispatch(ui.toast('error', 'Error deleting API Key!', describeError(res.error)));
    } else dispatch(ui.toast('success', 'API Key successfully deleted!'));
  };

  return (
    <div className="page">
      <div className="page__head">
        <div>
          <h1>Security</h1>
          <p className="muted">Your exchange API keys. Secrets are encrypted and never shown again.</p>
        </div>
        <button type="button" className="btn btn--primary" onClick={() => setAdding(true)}>
          <Plus size={18} aria-hidden="true" /> Add API Keys
        </button>
      </div>
      <section className="card table-card" aria-label="API keys">
        <FormRefusal message={refusal && keys.some((k) => k.id === refusal.id) ? refusal.message : null} testId="key-refusal" />
        {isLoading ? (
          <p className="muted">Loading your keys…</p>
        ) : keys.length === 0 ? (
          <div className="empty">
            <KeyRound size={36} aria-hidden="true" />
            <p>{isError ? 'Your keys could not be loaded right now.' : 'No API keys yet. Add a key to let your bots trade.'}</p>
          </div>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Exchange</th>
                <th scope="col">API Id</th>
                <th scope="col">
                  <span className="sr-only">Remove</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => [
                <tr key={k.id} className={k.warnings?.length ? 'row--warned' : undefined}>
                  <td>
                    <span className="with-icon">
                      <img src={exchangeIcon(k.exchange)} alt="" width={22} height={22} /> {k.exchange}
                    </span>
                  </td>
                  <td className="mono break">{k.apikeyid}</td>
                  <td className="table__action">
                    <button type="button" className="icon-btn icon-btn--danger" aria-label={`Remove ${k.exchange} API key ${k.apikeyid}`} onClick={() => setRemoving(k)}>
                      <Trash2 size={18} aria-hidden="true" />
                    </button>
                  </td>
                </tr>,
                k.warnings?.length ? (
                  <tr key={`${k.id}-warnings`} className="key-warnings">
                    <td colSpan={3}>
                      {k.warnings.map((w) => (
                        <p key={w.code} className="notice key-warning" role="note" aria-label={`${k.exchange} API key ${k.apikeyid}: warning`} data-code={w.code}>
                          <TriangleAlert size={16} aria-hidden="true" /> <span>{w.message}</span>
                        </p>
                      ))}
                    </td>
                  </tr>
                ) : null,
              ])}
            </tbody>
          </table>
        )}
      </section>
      {adding ? (
        <Modal title="Add api keys" onClose={() => setAdding(false)}>
          <ApiKeyForm onCancel={() => setAdding(false)} onSaved={() => setAdding(false)} />
        </Modal>
      ) : null}
      {removing ? (
        <ConfirmDialog title="Delete API key" question="Remove selected API keys?" onNo={() => setRemoving(null)} onYes={() => void confirmRemove()} />
      ) : null}
    </div>
  );
}
