import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

/** A signed-out page's card (sign in, reset password, verify email): its title, then what it asks. */
export function AuthPage({ titleId, title, children }: { titleId: string; title: string; children: ReactNode }) {
  return (
    <div className="auth-page">
      <section className="card auth-card" aria-labelledby={titleId}>
        <h1 id={titleId}>{title}</h1>
        {children}
      </section>
    </div>
  );
}

/** The way back to sign-in, under the reset forms. */
export function BackToSignIn() {
  return (
    <div className="form-links">
      <p>
        Go back to ? <Link to="/sign-in">Log In</Link>
      </p>
    </div>
  );
}
