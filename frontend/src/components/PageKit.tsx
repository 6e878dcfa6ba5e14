/**
 * The pieces the dashboard's pages and tables share (the audit, alerts, balances, history, performance and bot
 * pages): the loading spinner, the link back to the bot list and a table's column heads.
 */
import { ArrowLeft, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

/** The page's spinner while its data loads; `label` is read out ("Loading the history…"). */
export function PageLoading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="page-loading" role="status">
      <div className="spinner" aria-hidden="true" />
      <span className="sr-only">{label}</span>
    </div>
  );
}

/** The link above a bot's page title, back to the list. */
export function BackToBots() {
  return (
    <Link to="/bots" className="back-link" aria-label="Back to bots">
      <ArrowLeft size={16} aria-hidden="true" /> Bots
    </Link>
  );
}

/** The head of a bot's sub-page (history, performance): back to the bots, its title and `sub` under it, `actions` beside. */
export function BotSubpageHead({ title, sub, actions }: { title: string; sub?: ReactNode; actions: ReactNode }) {
  return (
    <div className="page__head">
      <div>
        <BackToBots />
        <h1>{title}</h1>
        {sub}
      </div>
      {actions}
    </div>
  );
}

/** A table's head row: one column head per name. */
export function HeadRow({ columns }: { columns: readonly string[] }) {
  return (
    <thead>
      <tr>
        {columns.map((c) => (
          <th key={c} scope="col">
            {c}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** A page's title with its icon before it ("🛡 Audit"). */
export function IconTitle({ icon: Icon, title }: { icon: LucideIcon; title: string }) {
  return (
    <h1 className="with-icon">
      <Icon size={26} aria-hidden="true" /> {title}
    </h1>
  );
}
