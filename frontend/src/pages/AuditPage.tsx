import { useState, type FormEvent, type ReactNode, type SelectHTMLAttributes } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { ChevronLeft, ChevronRight, History, ShieldCheck } from 'lucide-react';
import { AUDIT_STATUSES, useGetAuditBotsQuery, useGetAuditMeQuery, type AuditBot } from '../audit/auditApi';
import { describeError } from '../api/http';
import { pairLabel } from '../bots/pairs';
import '../audit/audit.css';
import { HeadRow, PageLoading, IconTitle } from '../components/PageKit';
import { VENUES } from '../venues';

export const AUDIT_PAGE_SIZE = 20;
const STATUS_TEXT: Record<string, string> = { stopped: 'Stopped', starting: 'Starting…', running: 'Running', stopping: 'Stopping…', deleted: 'Deleted' };
const FILTERS = ['owner', 'exchange', 'botType', 'symbol', 'status'] as const;

/** A cell whose label shows on narrow screens only, where each bot is a card (audit.css). */
function Cell({ label, children, wide }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <td className={wide ? 'audit__wide' : undefined}>
      <span className="audit__label" aria-hidden="true">{label}</span>
      <span>{children}</span>
    </td>
  );
}

function Row({ bot }: { bot: AuditBot }) {
  const market = bot.bottype === 'Futures' ? 'futures' : 'spot';
  const title = bot.name ?? `${pairLabel(bot.symbol)}`;
  return (
    <tr data-testid="audit-row" data-bot-id={bot.id} data-status={bot.status}>
      <Cell label="Bot" wide>
        <strong>{title}</strong> <span className="audit__id mono">{bot.id.slice(0, 8)}</span>
      </Cell>
      <Cell label="Owner" wide>
        {bot.owner ?? bot.userid}
      </Cell>
      <Cell label="Venue">
        {bot.exchange} {market}
      </Cell>
      <Cell label="Status">
        <span className={`status status--${bot.status}`}>
          <span className="status__dot" aria-hidden="true" />
          {STATUS_TEXT[bot.status] ?? bot.status}
        </span>
      </Cell>
      <Cell label="Created">{new Date(bot.createdat).toLocaleString()}</Cell>
      <Cell label="Open" wide>
        <span className="audit__links">
          <Link className="btn btn--ghost btn--small" to={`/bots/${bot.id}`} aria-label={`Overview of ${title} (${bot.owner ?? bot.userid})`}>
            Overview
          </Link>
          <Link className="btn btn--ghost btn--small" to={`/bots/${bot.id}/history`} aria-label={`History of ${title} (${bot.owner ?? bot.userid})`}>
            <History size={14} aria-hidden="true" /> History
          </Link>
        </span>
      </Cell>
    </tr>
  );
}

/**
 * /audit (issue 40, point 11): every user's bots for an auditor, deleted ones too, filtered by owner,
 * venue, market type, pair and status, 20 a page; each opens read-only (overview, history). Anyone else is
 * told that this page is for auditors (the server answers them 403).
 */
export default function AuditPage() {
  const [params, setParams] = useSearchParams();
  const me = useGetAuditMeQuery();
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const filter = Object.fromEntries(FILTERS.map((k) => [k, params.get(k) ?? ''])) as Record<(typeof FILTERS)[number], string>;
  const [draft, setDraft] = useState(filter);
  const list = useGetAuditBotsQuery({ ...filter, limit: AUDIT_PAGE_SIZE, offset: (page - 1) * AUDIT_PAGE_SIZE }, { skip: !me.data?.auditor });
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE));

  const apply = (e: FormEvent) => {
    e.preventDefault();
    const next = new URLSearchParams();
    for (const k of FILTERS) if (draft[k].trim()) next.set(k, draft[k].trim());
    setParams(next);
  };
  const goTo = (p: number) => {
    const next = new URLSearchParams(params);
    if (p <= 1) next.delete('page');
    else next.set('page', String(p));
    setParams(next);
  };
  const field = (k: (typeof FILTERS)[number]) => ({ id: `audit-${k}`, value: draft[k], onChange: (e: { target: { value: string } }) => setDraft({ ...draft, [k]: e.target.value }) });

  if (me.isLoading) {
    return (
      <PageLoading />
    );
  }
  if (!me.data?.auditor) {
    return (
      <div className="page">
        <h1>Audit</h1>
        <p className="muted">
          {me.data?.auditorAddress ? 'Verify your email address to read as an auditor.' : 'This page is for auditors: it lists every user’s bots.'}
        </p>
        <Link to="/bots">Back to bots</Link>
      </div>
    );
  }

  return (
    <div className="page page--wide audit" data-testid="audit-page">
      <div className="page__head">
        <div>
          <IconTitle icon={ShieldCheck} title="Audit" />
          <p className="muted">Every user’s bots, deleted ones included. Read-only: nothing here can start, stop, edit or delete a bot.</p>
        </div>
      </div>
      <form className="card audit__filters" onSubmit={apply} aria-label="Filter the bots" role="search">
        <div className="field">
          <label htmlFor="audit-owner">Owner</label>
          <input {...field('owner')} placeholder="email or user id" autoComplete="off" />
        </div>
        <FilterSelect label="Exchange" {...field('exchange')} options={VENUES.map((v) => [v.exchange, v.exchange] as const)} />
        <FilterSelect label="Market" {...field('botType')} options={[['Spot', 'Spot'], ['Futures', 'Futures']]} />
        <div className="field">
          <label htmlFor="audit-symbol">Pair</label>
          <input {...field('symbol')} placeholder="e.g. BTCUSDT" autoComplete="off" />
        </div>
        <FilterSelect label="Status" {...field('status')} options={AUDIT_STATUSES.map((s) => [s, STATUS_TEXT[s]] as const)} />
        <div className="actions actions--start">
          <button type="submit" className="btn btn--primary btn--small">
            Filter
          </button>
        </div>
      </form>
      {list.error ? (
        <p className="error-text" role="alert">
          {describeError(list.error)}
        </p>
      ) : null}
      <section className="card table-card" aria-labelledby="audit-list-title">
        <h2 id="audit-list-title" className="sr-only">
          Bots
        </h2>
        <p className="muted" aria-live="polite" data-testid="audit-total" style={{ margin: '8px 12px' }}>
          {list.isFetching && !list.data ? 'Loading…' : `${total} bot${total === 1 ? '' : 's'}`}
        </p>
        {list.data && list.data.items.length > 0 ? (
          <table className="audit__table" aria-label="Bots to audit">
            <HeadRow columns={['Bot', 'Owner', 'Venue', 'Status', 'Created', 'Open']} />
            <tbody>
              {list.data.items.map((b) => (
                <Row key={b.id} bot={b} />
              ))}
            </tbody>
          </table>
        ) : list.data ? (
          <p className="muted" style={{ margin: '8px 12px 14px' }}>
            No bot matches these filters.
          </p>
        ) : null}
      </section>
      {pages > 1 ? (
        <nav className="audit__pages" aria-label="Audit pages">
          <button type="button" className="btn btn--ghost btn--small" onClick={() => goTo(page - 1)} disabled={page <= 1} aria-label="Previous page">
            <ChevronLeft size={16} aria-hidden="true" />
          </button>
          <span aria-live="polite">
            Page {page} of {pages}
          </span>
          <button type="button" className="btn btn--ghost btn--small" onClick={() => goTo(page + 1)} disabled={page >= pages} aria-label="Next page">
            <ChevronRight size={16} aria-hidden="true" />
          </button>
        </nav>
      ) : null}
    </div>
  );
}

/** A filter's select: "Any" first, then each option as [value, text]; `id`, `name`, `value` and `onChange` from the form's `field`. */
function FilterSelect({ label, options, ...select }: { label: string; id: string; options: ReadonlyArray<readonly [string, string]> } & SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <div className="field">
      <label htmlFor={select.id}>{label}</label>
      <select {...select}>
        <option value="">Any</option>
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}
