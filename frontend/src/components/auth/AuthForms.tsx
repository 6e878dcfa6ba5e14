import { useMemo, type ReactNode } from 'react';
import { Field } from '../Field';
import { useForm } from '../../forms/useForm';
import { CURRENT_PASSWORD_INPUT, EMAIL_INPUT, NEW_PASSWORD_HINT, NEW_PASSWORD_INPUT } from '../../forms/inputKinds';
import { emailRules, passwordRules, passwordsMatch } from '../../forms/validation';
import { useAuthActions } from './useAuthActions';

interface AuthFormProps {
  footer?: ReactNode;
  idPrefix?: string;
}

/** The form's submit button (full width) and the page's footer under it. */
function Submit({ label, footer }: { label: string; footer?: ReactNode }) {
  return (
    <>
      <button type="submit" className="btn btn--primary btn--block">
        {label}
      </button>
      {footer}
    </>
  );
}

/** Login form {loginEmail, loginPassword} (spec sections 3 and 5). */
export function LoginForm({ footer, idPrefix = 'login' }: AuthFormProps) {
  const { login } = useAuthActions();
  const rules = useMemo(() => ({ loginEmail: emailRules, loginPassword: passwordRules }), []);
  const f = useForm({ loginEmail: '', loginPassword: '' }, rules);
  return (
    <form noValidate onSubmit={f.handleSubmit((v) => void login(v.loginEmail.trim(), v.loginPassword))} aria-label="Login">
      <Field id={`${idPrefix}-email`} {...EMAIL_INPUT} name="loginEmail" {...f.bind('loginEmail')} />
      <Field id={`${idPrefix}-password`} label="Password" {...CURRENT_PASSWORD_INPUT} name="loginPassword" {...f.bind('loginPassword')} />
      <Submit label="Login" footer={footer} />
    </form>
  );
}

/** Register form {registerEmail, registerPassword, repeatRegisterPassword}. */
export function RegisterForm({ footer, idPrefix = 'register' }: AuthFormProps) {
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
      <Field id={`${idPrefix}-email`} {...EMAIL_INPUT} name="registerEmail" {...f.bind('registerEmail')} />
      <Field id={`${idPrefix}-password`} label="Password" {...NEW_PASSWORD_INPUT} name="registerPassword" {...f.bind('registerPassword')} hint={NEW_PASSWORD_HINT} />
      <Field id={`${idPrefix}-repeat`} label="Repeat password" {...NEW_PASSWORD_INPUT} name="repeatRegisterPassword" {...f.bind('repeatRegisterPassword')} />
      <Submit label="Register" footer={footer} />
    </form>
  );
}

/** Forgot-password form {forgotPasswordEmail}. */
export function ForgotForm({ footer, idPrefix = 'forgot' }: AuthFormProps) {
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
      <Field id={`${idPrefix}-email`} {...EMAIL_INPUT} name="forgotPasswordEmail" {...f.bind('forgotPasswordEmail')} />
      <Submit label="Reset Password" footer={footer} />
    </form>
  );
}
