import { NavLink } from 'react-router-dom';

/** Overview and History of one bot, one tab apart (each its own URL). */
export function BotTabs({ id, current }: { id: string; current: 'overview' | 'history' }) {
  const base = `/bots/${encodeURIComponent(id)}`;
  return (
    <nav className="tabs bot-tabs" aria-label="Bot views">
      <NavLink to={base} end className={`tab${current === 'overview' ? ' tab--active' : ''}`} aria-current={current === 'overview' ? 'page' : undefined}>
        Overview
      </NavLink>
      <NavLink to={`${base}/history`} className={`tab${current === 'history' ? ' tab--active' : ''}`} aria-current={current === 'history' ? 'page' : undefined}>
        History
      </NavLink>
    </nav>
  );
}
