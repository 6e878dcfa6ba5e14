import { NavLink } from 'react-router-dom';

/** Overview, History and Performance of one bot, one tab apart (each its own URL). */
export function BotTabs({ id, current }: { id: string; current: 'overview' | 'history' | 'performance' }) {
  const base = `/bots/${encodeURIComponent(id)}`;
  return (
    <nav className="tabs bot-tabs" aria-label="Bot views">
      <NavLink to={base} end className={`tab${current === 'overview' ? ' tab--active' : ''}`} aria-current={current === 'overview' ? 'page' : undefined}>
        Overview
      </NavLink>
      <NavLink to={`${base}/history`} className={`tab${current === 'history' ? ' tab--active' : ''}`} aria-current={current === 'history' ? 'page' : undefined}>
        History
      </NavLink>
      <NavLink to={`${base}/performance`} className={`tab${current === 'performance' ? ' tab--active' : ''}`} aria-current={current === 'performance' ? 'page' : undefined}>
        Performance
      </NavLink>
    </nav>
  );
}
