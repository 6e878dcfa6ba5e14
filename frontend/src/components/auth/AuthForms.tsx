import { useMemo, type ReactNode } from 'react';
import { Field } from '../Field';
import { useForm } from '../../forms/useForm';
import { emailRules, passwordRules, passwordsMatch } from '../../forms/validation';
import { useAuthActions } from './useAuthActions';

/** Login form {loginEmail, loginPassword} (spec sections 3 and 5). */
export function LoginForm({ footer, idPrefix = 'login' }: { footer?: ReactNode; idPrefix?: string }) {
  const { login } = useAuthActions();
  const rules = useMemo(() => ({ loginEmail: emailRules, loginPassword: passwordRules }), []);
  const f = useForm({ loginEmail: '', loginPassword: '' }, rules);
  return (
    <form noValidate onSubmit={f.handleSubmit((v) => void login(v.loginEmail.trim(), v.loginPassword))} aria-label="Login">
      <Field
        id={`${idPrefix}-email`}
        label="Email"
        type="email"
        name="loginEmail"
        autoComplete="email"
        value={f.values.loginEmail}
        onValue={(v) => f.set('loginEmail', v)}
        error={f.shown('loginEmail')}
        maxLength={50}
      />
      <Field
        id={`${idPrefix}-password`}
        label="Password"
        type="password"
        name="loginPassword"
        autoComplete="current-password"
        value={f.values.loginPassword}
        onValue={(v) => f.set('loginPassword', v)}
        error={f.shown('loginPassword')}
        maxLength={30}
      />
      <button type="submit" className="btn btn--primary btn--block">
        Login
      </button>
      {footer}
    </form>
  );
}

/** Register form {registerEmail, registerPassword, repeatRegisterPassword}. */
export function RegisterForm({ footer, idPrefix = 'register' }: { footer?: ReactNode; idPrefix?: string }) {
  const { register } = useAuthActions();
  const rules = useMemo(
    () => ({
      registerEmail: emailRules,
      registerPassword: passwordRules,
      repeatRegisterPassword: [...passwordRules, passwordsMatch('registerPassword')],
    }),
    [],
  );
  const f = useForm({ registerEmail: '', registerPassword: '', repeatRegisterPassword: '' }, rules);
  return (
    <form noValidate onSubmit={f.handleSubmit((v) => void register(v.registerEmail.trim(), v.registerPassword))} aria-label="Register">
      <Field
        id={`${idPrefix}-email`}
        label="Email"
        type="email"
        name="registerEmail"
        autoComplete="email"
        value={f.values.registerEmail}
        onValue={(v) => f.set('registerEmail', v)}
        error={f.shown('registerEmail')}
        maxLength={50}
      />
      <Field
        id={`${idPrefix}-password`}
        label="Password"
        type="password"
        name="registerPassword"
        autoComplete="new-password"
        value={f.values.registerPassword}
        onValue={(v) => f.set('registerPassword', v)}
        error={f.shown('registerPassword')}
        hint="8 to 30 characters"
        maxLength={30}
      />
      <Field
        id={`${idPrefix}-repeat`}
        label="Repeat password"
        type="password"
        name="repeatRegisterPassword"
        autoComplete="new-password"
        value={f.values.repeatRegisterPassword}
        onValue={(v) => f.set('repeatRegisterPassword', v)}
        error={f.shown('repeatRegisterPassword')}
        maxLength={30}
      />
      <button type="submit" className="btn btn--primary btn--block">
        Register
      </button>
      {footer}
    </form>
  );
}

/** Forgot-password form {forgotPasswordEmail}. */
export function ForgotForm({ footer, idPrefix = 'forgot' }: { footer?: ReactNode; idPrefix?: string }) {
  const { forgot } = useAuthActions();
  const rules = useMemo(() => ({ forgotPasswordEmail: emailRules }), []);
  const f = useForm({ forgotPasswordEmail: '' }, rules);
  return (
    <form
      noValidate
      aria-label="Reset Password"
      onSubmit={f.handleSubmit(async (v) => {
        if (await forgot(v.forgotPasswordEmail.trim())) f.reset();
      })}
    >
      <Field
        id={`${idPrefix}-email`}
        label="Email"
        type="email"
        name="forgotPasswordEmail"
        autoComplete="email"
        value={f.values.forgotPasswordEmail}
        onValue={(v) => f.set('forgotPasswordEmail', v)}
        error={f.shown('forgotPasswordEmail')}
        maxLength={50}
      />
      <button type="submit" className="btn btn--primary btn--block">
        Reset Password
      </button>
      {footer}
    </form>
  );
}
