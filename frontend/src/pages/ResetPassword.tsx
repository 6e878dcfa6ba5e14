import { useMemo } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useResetPasswordMutation } from '../api/api';
import { describeError } from '../api/http';
import { Field } from '../components/Field';
import { AuthPage, BackToSignIn } from '../components/auth/AuthPage';
import { useForm } from '../forms/useForm';
import { NEW_PASSWORD_HINT, NEW_PASSWORD_INPUT } from '../forms/inputKinds';
import { passwordRules, passwordsMatch } from '../forms/validation';
import { useAppDispatch } from '../store/hooks';
import { ui } from '../store/uiSlice';

/** /reset-password?token=…: the link from the password reset mail. */
export function ResetPassword() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [reset] = useResetPasswordMutation();
  const rules = useMemo(() => ({ password: passwordRules, repeatPassword: [...passwordRules, passwordsMatch('password')] }), []);
  const f = useForm({ password: '', repeatPassword: '' }, rules);

  const submit = f.handleSubmit(async (v) => {
    dispatch(ui.showSpinner());
    const res = await reset({ token, password: v.password });
    dispatch(ui.hideSpinner());
    if ('error' in res && res.error) {
      dispatch(ui.showAlert(describeError(res.error) || 'Password reset failed.'));
      return;
    }
    dispatch(ui.toast('success', 'Your password has been changed.', 'Log in with your new password.'));
    navigate('/sign-in');
  });

  return (
    <AuthPage titleId="reset-title" title="Choose a new password">
      {token ? (
        <form noValidate onSubmit={submit} aria-label="Choose a new password">
          <Field id="reset-password" label="New password" {...NEW_PASSWORD_INPUT} {...f.bind('password')} hint={NEW_PASSWORD_HINT} />
          <Field id="reset-repeat" label="Repeat new password" {...NEW_PASSWORD_INPUT} {...f.bind('repeatPassword')} />
          <button type="submit" className="btn btn--primary btn--block">
            Save new password
          </button>
        </form>
      ) : (
        <p className="error-text" role="alert">
          This page needs the link from your password reset email. <Link to="/forgot-password">Ask for a new one</Link>.
        </p>
      )}
      <BackToSignIn />
    </AuthPage>
  );
}
