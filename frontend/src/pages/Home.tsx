import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ExternalLink, KeyRound, LogIn, UserPlus, Bot } from 'lucide-react';
import { useGetConfigQuery } from '../api/api';
import { HeroArt } from '../components/Art';
import { ProviderButtons } from '../components/auth/ProviderButtons';
import { useAppDispatch, useUser } from '../store/hooks';
import { ui } from '../store/uiSlice';
import { signupKey, VENUES } from '../venues';

export function Home() {
  const dispatch = useAppDispatch();
  const user = useUser();
  const { data: config } = useGetConfigQuery();
  return (
    <div className="home">
      <section className="hero">
        <div className="hero__text">
          <p className="eyebrow">Grid trading bots · Binance & Kucoin · spot & futures</p>
          <h1>
            Launch your grid. <span className="glow">Let it climb.</span>
          </h1>
          <p className="lead">
            GridRocket places a ladder of buy orders below the price and sells what it bought at your take-profit % above the average price, day and
            night, on your own exchange account.
          </p>
          <div className="hero__cta">
            {user ? (
              <Link to="/bots" className="btn btn--primary btn--large">
                <Bot size={20} aria-hidden="true" /> Open your bots
              </Link>
            ) : (
              <button type="button" className="btn btn--primary btn--large" onClick={() => dispatch(ui.openLoginDialog('register'))}>
                <UserPlus size={20} aria-hidden="true" /> Create a free account!
              </button>
            )}
          </div>
        </div>
        <div className="hero__art">
          <HeroArt />
        </div>
      </section>

      <section className="how" aria-labelledby="how-title">
        <h2 id="how-title">How it works</h2>
        <ol className="steps">
          <Step n={1} title="Register with a supported exchange" text="Open an account at one of the exchanges GridRocket trades on.">
            {VENUES.map((v) => (
              <a key={v.exchange} href={(config?.exchangeSignup as Record<string, string> | undefined)?.[signupKey(v)]} target="_blank" rel="noopener noreferrer" className="btn btn--ghost btn--small">
                Sign up at {v.exchange} <ExternalLink size={14} aria-hidden="true" />
              </a>
            ))}
          </Step>
          <Step n={2} title="Sign in to GridRocket" text="Use your email and a password, or Google or Facebook.">
            <Link to="/sign-in" className="btn btn--ghost btn--small">
              <LogIn size={14} aria-hidden="true" /> Sign in
            </Link>
          </Step>
          <Step n={3} title="Create API keys and add them" text="Create API keys at the exchange and enter them on the security page. Then create your first bot.">
            <Link to="/security" className="btn btn--ghost btn--small">
              <KeyRound size={14} aria-hidden="true" /> Security page
            </Link>
          </Step>
        </ol>
      </section>

      {user ? null : (
        <section className="home-login card" aria-labelledby="home-login-title">
          <h2 id="home-login-title">Login</h2>
          <ProviderButtons after={<p className="muted">or</p>} />
          <p className="muted">
            <Link to="/sign-in">Sign in with your email</Link>
          </p>
        </section>
      )}
    </div>
  );
}

/** One step of "How it works": its number, title, text and links. */
function Step({ n, title, text, children }: { n: number; title: string; text: string; children: ReactNode }) {
  return (
    <li className="step card">
      <span className="step__num" aria-hidden="true">{n}</span>
      <h3>{title}</h3>
      <p>{text}</p>
      <div className="step__links">{children}</div>
    </li>
  );
}
