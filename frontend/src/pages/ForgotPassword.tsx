import { ForgotForm } from '../components/auth/AuthForms';
import { AuthPage, BackToSignIn } from '../components/auth/AuthPage';

export function ForgotPassword() {
  return (
    <AuthPage titleId="forgot-title" title="Reset Password">
      <p className="muted">Please enter your email address to request a password reset.</p>
      <ForgotForm footer={<BackToSignIn />} />
    </AuthPage>
  );
}
