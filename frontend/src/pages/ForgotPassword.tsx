import { Link } from 'react-router-dom';
import { ForgotForm } from '../components/auth/AuthForms';

export function ForgotPassword() {
  return (
    <div className="auth-page">
      <section className="card auth-card" aria-labelledby="forgot-title">
        <h1 id="forgot-title">Reset Password</h1>
        <p className="muted">Please enter your email address to request a password reset.</p>
        <ForgotForm
          footer={
            <div className="form-links">
              <p>
                Go back to ? <Link to="/sign-in">Log In</Link>
              </p>
            </div>
          }
        />
      </section>
    </div>
  );
}
