import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { KeyRound } from 'lucide-react';
import { useUpdateProfileMutation } from '../api/api';
import { describeError } from '../api/http';
import { Field } from '../components/Field';
import { TwoFactorSettings } from '../components/TwoFactorSettings';
import { useForm } from '../forms/useForm';
import { maxLength, required } from '../forms/validation';
import { useAppDispatch, useUser } from '../store/hooks';
import { ui } from '../store/uiSlice';
import { Avatar, VerifiedFlag } from './Dashboard';
import { SessionsSection } from '../account/SessionsSection';
import { AccessTokensSection } from '../account/AccessTokensSection';
import { Facts } from '../components/Facts';

/** displayName split on the first space into first and last name (spec section 3). */
export function splitName(displayName: string): { firstname: string; lastname: string } {
  const t = displayName.trim();
  const i = t.indexOf(' ');
  return i < 0 ? { firstname: t, lastname: '' } : { firstname: t.slice(0, i), lastname: t.slice(i + 1).trim() };
}

/** /myaccount: 'Profile', with an 'Access keys' button to /security; then the signed-in sessions (issue 30). */
export function MyAccount() {
  const user = useUser()!;
  const dispatch = useAppDispatch();
  const [editing, setEditing] = useState(false);
  const [update, { isLoading }] = useUpdateProfileMutation();
  const rules = useMemo(
    () => ({
      displayName: [required('Display name is required'), maxLength(60, 'Display name must be at most 60 characters')],
      photoURL: [
        maxLength(500, 'Photo URL must be at most 500 characters'),
        (v: string) => (v.trim() && !/^https?:\/\//i.test(v.trim()) ? 'Photo URL must start with http:// or https://' : null),
      ],
    }),
    [],
  );
  const f = useForm({ displayName: user.displayName ?? '', photoURL: user.photoURL ?? '' }, rules);

  const save = f.handleSubmit(async (v) => {
    const { firstname, lastname } = splitName(v.displayName);
    const res = await update({ userId: user.uid, firstname, lastname, username: v.displayName.trim(), picurl: v.photoURL.trim() });
    if ('error' in res && res.error) {
      console.warn('profile update failed', res.error);
      dispatch(ui.toast('error', 'Could not save your profile.', describeError(res.error)));
    } else {
      dispatch(ui.toast('success', 'Profile saved.'));
      setEditing(false);
    }
  });

  return (
    <div className="page page--narrow">
      <section className="card profile" aria-labelledby="acct-title">
        <div className="page__head">
          <h1 id="acct-title">Profile</h1>
          <Link to="/security" className="btn btn--primary">
            <KeyRound size={16} aria-hidden="true" /> Access keys
          </Link>
        </div>
        <div className="profile__head">
          <Avatar user={user} />
          <div>
            <p className="profile__name">{user.displayName || 'User'}</p>
            <p className="muted">{user.email}</p>
            <VerifiedFlag verified={user.emailVerified} />
          </div>
        </div>
        {!user.emailVerified ? (
          <p className="notice">
            Please verify your email address: we sent you a link. <Link to="/verify-email-address">Need a new one?</Link>
          </p>
        ) : null}
        <Facts
          facts={[
            { term: 'Username', value: user.displayName || 'User' },
            { term: 'Email', value: user.email },
            { term: 'Email verified', value: user.emailVerified ? 'true' : 'false' },
          ]}
        />
        {editing ? (
          <form noValidate onSubmit={save} aria-label="Edit profile" className="profile__form">
            <Field id="acct-name" label="Display name" value={f.values.displayName} onValue={(v) => f.set('displayName', v)} error={f.shown('displayName')} autoComplete="name" />
            <Field id="acct-photo" label="Photo URL" value={f.values.photoURL} onValue={(v) => f.set('photoURL', v)} error={f.shown('photoURL')} inputMode="url" />
            <div className="actions">
              <button type="button" className="btn btn--ghost" onClick={() => setEditing(false)}>
                Cancel
              </button>
              <button type="submit" className="btn btn--primary" disabled={isLoading}>
                Save
              </button>
            </div>
          </form>
        ) : (
          <div className="actions actions--start">
            <button type="button" className="btn btn--ghost" onClick={() => setEditing(true)}>
              Edit profile
            </button>
            <Link to="/bots" className="btn btn--ghost">
              My bots
            </Link>
            <Link to="/alerts" className="btn btn--ghost">
              Alerts
            </Link>
          </div>
        )}
      </section>
      <TwoFactorSettings />
      <SessionsSection />
      <AccessTokensSection />
    </div>
  );
}
