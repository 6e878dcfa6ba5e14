import { useState } from 'react';
import { Copy, KeySquare, Plus, Trash2 } from 'lucide-react';
import { describeError } from '../api/http';
import { Field, SelectField } from '../components/Field';
import { FormRefusal } from '../components/Feedback';
import { ConfirmDialog } from '../components/Modal';
import { useAppDispatch } from '../store/hooks';
import { ui } from '../store/uiSlice';
import { ago, formatWhen } from './SessionsSection';
import {
  type AccessTokenScope,
  type AccessTokenView,
  type CreatedAccessToken,
  useCreateAccessTokenMutation,
  useGetAccessTokensQuery,
  useRevokeAccessTokenMutation,
} from './accessTokensApi';
import './sessions.css';

const SCOPES: Array<{ scope: AccessTokenScope; label: string; hint: string }> = [
  { scope: 'read', label: 'Read', hint: 'See bots, trades, balances and history' },
  { scope: 'trade', label: 'Trade', hint: 'Create, edit, start, stop and delete bots' },
  { scope: 'keys', label: 'Exchange keys', hint: 'Add, list and delete exchange API keys' },
];
const EXPIRIES = [7, 30, 90, 365];

type FieldErrors = Partial<Record<'name' | 'scopes' | 'expiresInDays', string>>;

/**
 * Issue 31: personal access tokens for scripts. A token is made here (name, scopes, lifetime), shown once
 * with a Copy button, and listed with its last use; Revoke ends it at once. Scripts send it as
 * `Authorization: Bearer <token>`.
 */
export function AccessTokensSection() {
  const dispatch = useAppDispatch();
  const { data: tokens, isLoading, isError, error, refetch } = useGetAccessTokensQuery();
  const [create, creating] = useCreateAccessTokenMutation();
  const [revoke] = useRevokeAccessTokenMutation();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<AccessTokenScope[]>(['read']);
  const [days, setDays] = useState('30');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [made, setMade] = useState<CreatedAccessToken | null>(null);
  const [revoking, setRevoking] = useState<AccessTokenView | null>(null);

  const toggle = (s: AccessTokenScope, on: boolean) => setScopes((cur) => (on ? [...cur.filter((x) => x !== s), s] : cur.filter((x) => x !== s)));

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const local: FieldErrors = {};
    if (!name.trim()) local.name = 'Give the token a name, such as the script that uses it';
    if (scopes.length === 0) local.scopes = 'Choose at least one scope';
    setErrors(local);
    setRefusal(null);
    if (Object.keys(local).length) return;
    const res = await create({ name: name.trim(), scopes: SCOPES.map((s) => s.scope).filter((s) => scopes.includes(s)), expiresInDays: Number(days) });
    if ('error' in res && res.error) {
      const err = res.error as { errors?: Array<{ field: string; message: string }>; message?: string };
      const byField: FieldErrors = {};
      for (const f of err.errors ?? []) {
        const key = f.field.split('.')[0] as keyof FieldErrors;
        if (key === 'name' || key === 'scopes' || key === 'expiresInDays') byField[key] = f.message;
      }
      setErrors(byField);
      if (!Object.keys(byField).length) setRefusal(describeError(res.error));
      return;
    }
    setMade(res.data!);
    setOpen(false);
    setName('');
    setScopes(['read']);
    setDays('30');
  };

  const copy = async () => {
    if (!made) return;
    try {
      await navigator.clipboard.writeText(made.token);
      dispatch(ui.toast('success', 'Token copied.'));
    } catch {
      dispatch(ui.toast('error', 'Could not copy: select the token and copy it by hand.'));
    }
  };

  const confirmRevoke = async () => {
    const target = revoking;
    setRevoking(null);
    if (!target) return;
    const res = await revoke(target.id);
    if ('error' in res && res.error) {
      if ((res.error as { status?: number }).status === 404) void refetch();
      else dispatch(ui.toast('error', `Could not revoke ${target.name}.`, describeError(res.error)));
      return;
    }
    if (made?.id === target.id) setMade(null);
    dispatch(ui.toast('success', `Revoked ${target.name}. Scripts using it are refused from now on.`));
  };

  return (
    <section className="card sessions tokens" aria-labelledby="tokens-title">
      <div className="page__head">
        <div>
          <h2 id="tokens-title">
            <KeySquare size={20} aria-hidden="true" /> Access tokens
          </h2>
          <p className="muted">
            For your own scripts: send a token as <code>Authorization: Bearer &lt;token&gt;</code>. Give each the least it needs; revoke any you no longer use.
          </p>
        </div>
        {open ? null : (
          <button type="button" className="btn btn--primary" onClick={() => setOpen(true)}>
            <Plus size={18} aria-hidden="true" /> New token
          </button>
        )}
      </div>

      {made ? (
        <div className="tokens__made" role="group" aria-label="Your new token">
          <p className="notice">Copy your new token “{made.name}” now: it is not shown again.</p>
          <code className="tokens__secret" id="token-secret" aria-label="New token">
            {made.token}
          </code>
          <div className="actions actions--start">
            <button type="button" className="btn btn--ghost" onClick={() => void copy()}>
              <Copy size={16} aria-hidden="true" /> Copy
            </button>
            <button type="button" className="btn btn--primary" onClick={() => setMade(null)}>
              I have copied it
            </button>
          </div>
        </div>
      ) : null}

      {open ? (
        <form noValidate onSubmit={(e) => void submit(e)} aria-label="New access token" className="tokens__form">
          <Field id="token-name" label="Name" name="name" value={name} onValue={setName} maxLength={60} error={errors.name ?? null} hint="Such as the script or machine that uses it." />
          <fieldset className="tokens__scopes" aria-describedby={errors.scopes ? 'token-scopes-error' : undefined}>
            <legend>Scopes</legend>
            {SCOPES.map((s) => (
              <label key={s.scope} className="checkbox">
                <input type="checkbox" name={`scope-${s.scope}`} checked={scopes.includes(s.scope)} onChange={(e) => toggle(s.scope, e.target.checked)} /> {s.label}{' '}
                <small className="muted">— {s.hint}</small>
              </label>
            ))}
            <FormRefusal message={errors.scopes} id="token-scopes-error" />
          </fieldset>
          <SelectField id="token-expiry" label="Expires after" name="expiresInDays" value={days} onValue={setDays} options={EXPIRIES.map((d) => ({ value: String(d), label: d === 365 ? '1 year' : `${d} days` }))} error={errors.expiresInDays ?? null} />
          <FormRefusal message={refusal} testId="token-refusal" />
          <div className="actions actions--start">
            <button type="submit" className="btn btn--primary" disabled={creating.isLoading}>
              Create token
            </button>
            <button
              type="button"
              className="btn btn--ghost"
              onClick={() => {
                setOpen(false);
                setErrors({});
                setRefusal(null);
              }}
            >
              Cancel
            </button>
          </div>
        </form>
      ) : null}

      {isLoading ? <p className="muted">Loading your tokens…</p> : null}
      {isError ? (
        <p className="notice" role="alert">
          Could not load your access tokens. {describeError(error)}{' '}
          <button type="button" className="btn btn--ghost btn--small" onClick={() => void refetch()}>
            Try again
          </button>
        </p>
      ) : null}
      {tokens && tokens.length === 0 ? <p className="muted">No access tokens yet.</p> : null}
      {tokens && tokens.length > 0 ? (
        <ul className="sessions__list" aria-label="Access tokens">
          {tokens.map((t) => (
            <li key={t.id} className="sessions__item" aria-label={t.name}>
              <KeySquare size={20} aria-hidden="true" className="sessions__icon" />
              <div className="sessions__text">
                <p className="sessions__browser">
                  {t.name}
                  {t.scopes.map((s) => (
                    <span key={s} className="badge badge--ok">
                      {s}
                    </span>
                  ))}
                  {t.expired ? <span className="badge badge--warn">Expired</span> : null}
                </p>
                <p className="muted sessions__meta">
                  <span>Created {formatWhen(t.createdAt)}</span>
                  <span>{t.expired ? `Expired ${formatWhen(t.expiresAt)}` : `Expires ${formatWhen(t.expiresAt)}`}</span>
                  <span>{t.lastUsedAt ? `Last used ${ago(t.lastUsedAt)}, ${t.useCount === 1 ? 'once' : `${t.useCount} times`}` : 'Never used'}</span>
                </p>
              </div>
              <button type="button" className="btn btn--ghost btn--small sessions__out" onClick={() => setRevoking(t)} aria-label={`Revoke ${t.name}`}>
                <Trash2 size={14} aria-hidden="true" /> Revoke
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {revoking ? (
        <ConfirmDialog title="Revoke access token" question={`Revoke “${revoking.name}”? Scripts using it are refused at once.`} onNo={() => setRevoking(null)} onYes={() => void confirmRevoke()} />
      ) : null}
    </section>
  );
}
