import { Link, useSearchParams } from 'react-router-dom';
import { TwoFactorSignIn } from '../components/auth/TwoFactorSignIn';
import { LoginForm, RegisterForm } from '../components/auth/AuthForms';
import { LoginViaProviders } from '../components/auth/ProviderButtons';
import { AuthPage } from '../components/auth/AuthPage';

/** The sign-in / sign-up screen (/sign-in and /register-user). */
export function SignIn({ mode }: { mode: 'login' | 'register' }) {
  const [params] = useSearchParams();
  if (mode === 'login' && params.get('step') === 'code') {
    // the second step of a sign-in with two-factor on (issue 30)
    return (
      <AuthPage titleId="auth-title" title="Two-factor sign-in">
        <TwoFactorSignIn />
      </AuthPage>
    );
  }
  return (
    <AuthPage titleId="auth-title" title="Create a free account!">
      <LoginViaProviders heading="h2" />
      {mode === 'login' ? (
        <LoginForm
          footer={
            <div className="form-links">
              <p>
                Forget Password ? <Link to="/forgot-password">send email</Link>
              </p>
              <p>
                Don't have an account? <Link to="/register-user">Register</Link>
              </p>
            </div>
          }
        />
      ) : (
        <RegisterForm
          footer={
            <div className="form-links">
              <p>
                Already have an account? <Link to="/sign-in">Login</Link>
              </p>
            </div>
          }
        />
      )}
    </AuthPage>
  );
}
