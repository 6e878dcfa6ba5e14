import { useEffect, useState } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router-dom';
import { Bell, Bot, CircleHelp, CircleUser, Github, Home, KeyRound, LayoutDashboard, LogIn, LogOut, Mail, Menu, Send, ShieldCheck, Twitter, Wallet, X } from 'lucide-react';
import { useGetConfigQuery } from '../api/api';
import { useIsAuditor } from '../audit/auditApi';
import { useAppDispatch, useUser } from '../store/hooks';
import { ui } from '../store/uiSlice';
import { Logo } from './Art';
import { useAuthActions } from './auth/useAuthActions';
import { LoginDialog } from './auth/LoginDialog';
import { TotpPrompt } from './TotpPrompt';
import { AlertDialog, SpinnerOverlay, Toasts } from './Feedback';

/** The sections of the app, in the navbar's order; `auth` ones need a signed-in user. */
const SECTIONS = [
  { to: '/home', label: 'Home', icon: Home, auth: false },
  { to: '/bots', label: 'Bots', icon: Bot, auth: false },
  { to: '/security', label: 'API keys', icon: KeyRound, auth: true },
  { to: '/balances', label: 'Balances', icon: Wallet, auth: true },
  { to: '/dashboard', label: 'Dashboard', icon: LayoutDashboard, auth: true },
  { to: '/myaccount', label: 'Profile', icon: CircleUser, auth: true },
  { to: '/alerts', label: 'Alerts', icon: Bell, auth: true },
  { to: '/faq', label: 'FAQ', icon: CircleHelp, auth: false },
] as const;

/** The footer's social links, shown where the install's config names them. */
const SOCIAL = [
  { key: 'twitter', label: 'GridRocket on X (Twitter)', Icon: Twitter },
  { key: 'telegram', label: 'GridRocket on Telegram', Icon: Send },
  { key: 'github', label: 'GridRocket on GitHub', Icon: Github },
] as const;

export function Navbar() {
  const user = useUser();
  const dispatch = useAppDispatch();
  const { logout } = useAuthActions();
  const [open, setOpen] = useState(false);
  const { pathname } = useLocation();
  useEffect(() => setOpen(false), [pathname]);
  const sections = SECTIONS.filter((s) => user || !s.auth);
  const auditor = useIsAuditor(); // issue 40: the auditors' list of every user's bots
  return (
    <header className="navbar">
      <nav className="navbar__inner" aria-label="Main">
        <Link to="/home" className="brand" aria-label="GridRocket home">
          <Logo size={34} />
          <span className="brand__name">
            Grid<span>Rocket</span>
          </span>
        </Link>
        <div className="navbar__links">
          <NavLink to="/bots" className="navlink">
            <Bot size={18} aria-hidden="true" />
            <span>Bots</span>
          </NavLink>
          {auditor ? (
            <NavLink to="/audit" className="navlink">
              <ShieldCheck size={18} aria-hidden="true" />
              <span>Audit</span>
            </NavLink>
          ) : null}
          {user ? (
            <>
              <NavLink to="/security" className="navlink navlink--wide">
                <KeyRound size={18} aria-hidden="true" />
                <span>API keys</span>
              </NavLink>
              <NavLink to="/balances" className="navlink navlink--wide">
                <Wallet size={18} aria-hidden="true" />
                <span>Balances</span>
              </NavLink>
              <NavLink to="/myaccount" className="navlink navlink--wide" aria-label="Profile">
                <CircleUser size={18} aria-hidden="true" />
                <span className="navlink__label">Profile</span>
              </NavLink>
              <button type="button" className="btn btn--ghost btn--small navlink--wide" onClick={() => void logout()}>
                <LogOut size={16} aria-hidden="true" />
                <span>Logout</span>
              </button>
            </>
          ) : (
            <button type="button" className="btn btn--primary btn--small" onClick={() => dispatch(ui.openLoginDialog('login'))}>
              <LogIn size={16} aria-hidden="true" />
              <span>Login</span>
            </button>
          )}
          <button
            type="button"
            className="icon-btn navbar__menu-btn"
            aria-expanded={open}
            aria-controls="nav-menu"
            aria-label="Menu"
            onClick={() => setOpen((o) => !o)}
          >
            {open ? <X size={20} aria-hidden="true" /> : <Menu size={20} aria-hidden="true" />}
          </button>
        </div>
        {open ? (
          <ul id="nav-menu" className="navbar__menu" aria-label="All sections">
            {sections.map(({ to, label, icon: Icon }) => (
              <li key={to}>
                <NavLink to={to} className="navlink">
                  <Icon size={18} aria-hidden="true" />
                  <span>{label}</span>
                </NavLink>
              </li>
            ))}
            {auditor ? (
              <li>
                <NavLink to="/audit" className="navlink">
                  <ShieldCheck size={18} aria-hidden="true" />
                  <span>Audit</span>
                </NavLink>
              </li>
            ) : null}
            {user ? (
              <li>
                <button type="button" className="navlink navlink--button" onClick={() => void logout()}>
                  <LogOut size={18} aria-hidden="true" />
                  <span>Logout</span>
                </button>
              </li>
            ) : null}
          </ul>
        ) : null}
      </nav>
    </header>
  );
}

export function Footer() {
  const { data: config } = useGetConfigQuery();
  const email = config?.contactEmail;
  return (
    <footer className="footer">
      <div className="footer__inner">
        <div className="footer__brand">
          <Logo size={28} />
          <div>
            <strong>GridRocket</strong>
            {email ? (
              <a href={`mailto:${email}`} className="footer__mail">
                <Mail size={14} aria-hidden="true" /> {email}
              </a>
            ) : null}
          </div>
        </div>
        <ul className="footer__social" aria-label="Social links">
          {SOCIAL.map(({ key, label, Icon }) =>
            config?.social[key] ? (
              <li key={key}>
                <a href={config.social[key]} target="_blank" rel="noopener noreferrer" aria-label={label}>
                  <Icon size={18} aria-hidden="true" />
                </a>
              </li>
            ) : null,
          )}
        </ul>
        <ul className="footer__links">
          <li>
            <Link to="/faq">FAQ</Link>
          </li>
          <li>
            <Link to="/privacypolicy">Privacy policy</Link>
          </li>
          <li>
            <Link to="/termsofservice">Terms of service</Link>
          </li>
        </ul>
        <p className="footer__copy">© 2025 GridRocket. All rights reserved.</p>
      </div>
    </footer>
  );
}

function ScrollToTop() {
  const { pathname } = useLocation();
  useEffect(() => {
    if (typeof window.scrollTo === 'function') {
      try {
        window.scrollTo(0, 0);
      } catch {
        /* jsdom */
      }
    }
  }, [pathname]);
  return null;
}

export function Layout() {
  return (
    <div className="app">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <div className="stars" aria-hidden="true" />
      <ScrollToTop />
      <Navbar />
      <main id="main" className="main" tabIndex={-1}>
        <Outlet />
      </main>
      <Footer />
      <LoginDialog />
      <TotpPrompt />
      <AlertDialog />
      <Toasts />
      <SpinnerOverlay />
    </div>
  );
}
