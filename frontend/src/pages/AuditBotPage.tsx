import type { ComponentType } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { ArrowLeft, Eye } from 'lucide-react';
import { useGetSummaryQuery } from '../api/api';
import type { Bot, BotSummary } from '../api/types';
import { useGetAuditBotQuery, useGetAuditMeQuery } from '../audit/auditApi';
import { CoinIcon, ExchangeIcon } from '../bots/CoinIcon';
import { compact, leverageText, percent, price } from '../bots/format';
import { pairLabel } from '../bots/pairs';
import { wordsOf } from '../styles/registry';
import '../audit/audit.css';
import { PageLoading } from '../components/PageKit';
import { BotChartCard } from '../bots/BotChartCard';

const STATUS_TEXT: Record<string, string> = { stopped: 'Stopped', starting: 'Starting…', running: 'Running', stopping: 'Stopping…', deleted: 'Deleted' };

type FiguresProps = { bot: Bot; summary: BotSummary | undefined; running: boolean };

function NotFound() {
  return (
    <div className="page">
      <h1>Bot not found</h1>
      <p className="muted">It may have been deleted.</p>
      <Link to="/bots">Back to bots</Link>
    </div>
  );
}

/**
 * Another user's bot, read by an auditor (issue 40, point 11): what its owner's page shows (the figures,
 * the chart, the settings) with no start, stop, edit or delete, and its history one tab away; a deleted
 * bot as it last was. Rendered by the bot page when the bot is not the user's own: to anyone but an
 * auditor it is "Bot not found", as before (the server answers them 403/404). `Figures` is the bot page's
 * own figures, handed in, so both pages show one thing.
 */
export default function AuditBotPage({ id, Figures }: { id: string; Figures: ComponentType<FiguresProps> }) {
  const me = useGetAuditMeQuery();
  const auditor = me.data?.auditor === true;
  const audit = useGetAuditBotQuery(id, { skip: !auditor });
  const row = audit.data?.bot;
  const view = audit.data?.view ?? null;
  const deleted = row?.status === 'deleted';
  const { data: summary } = useGetSummaryQuery(id, { skip: !auditor || !view || deleted });

  if (me.isLoading || (auditor && audit.isLoading)) {
    return (
      <PageLoading label="Loading the bot…" />
    );
  }
  if (!auditor || !row) return <NotFound />;
  const futures = row.bottype === 'Futures';
  const base = `/bots/${encodeURIComponent(id)}`;
  return (
    <div className="page page--wide botpage" data-testid="audit-bot-page" data-bot-id={id} data-state={row.status}>
      <div className="page__head botpage__head">
        <div>
          <Link to="/audit" className="back-link" aria-label="Back to the audit list">
            <ArrowLeft size={16} aria-hidden="true" /> Audit
          </Link>
          <h1 className="botpage__title">
            <CoinIcon symbol={row.symbol} size={32} /> {row.name ?? pairLabel(row.symbol)}
            <span className={`status status--${row.status}`} role="status">
              <span className="status__dot" aria-hidden="true" />
              {STATUS_TEXT[row.status] ?? row.status}
            </span>
          </h1>
          <p className="muted with-icon">
            <ExchangeIcon exchange={row.exchange} /> {row.exchange} {futures ? 'futures' : 'spot'} · owner {row.owner ?? row.userid}
          </p>
        </div>
      </div>
      <div className="notice audit__readonly" role="note" data-testid="read-only">
        <Eye size={18} aria-hidden="true" />
        <div>
          Read-only: you are auditing {row.owner ?? 'another user'}’s bot. Auditors cannot start, stop, edit or delete it.
          {deleted && row.deletedat ? ` It was deleted on ${new Date(row.deletedat).toLocaleString()}; this is how it last was.` : ''}
        </div>
      </div>
      <nav className="tabs bot-tabs" aria-label="Bot views">
        <NavLink to={base} end className="tab tab--active" aria-current="page">
          Overview
        </NavLink>
        <NavLink to={`${base}/history`} className="tab">
          History
        </NavLink>
      </nav>
      {view && !deleted ? <Figures bot={view} summary={summary} running={row.status === 'running'} /> : null}
      {view && !deleted ? <BotChartCard bot={view} /> : null}
      {view ? (
        <section className="card" aria-labelledby="settings-title">
          <h2 id="settings-title">Settings</h2>
          <dl className="audit__facts">
            <div><dt>Entry price</dt><dd>{price(view.entryprice)} USDT</dd></div>
            <div><dt>Grid size</dt><dd>{view.numoforders}</dd></div>
            <div><dt>Order size</dt><dd>{compact(view.ordersize)}</dd></div>
            <div><dt>Price interval</dt><dd>{price(view.interval)} USDT</dd></div>
            {wordsOf(view.direction).takeProfit ? <div><dt>Take profit</dt><dd>{percent(view.takeprofit)}</dd></div> : null}
            {futures ? <div><dt>Direction</dt><dd>{view.direction ?? 'long'}</dd></div> : null}
            {futures ? <div><dt>Leverage</dt><dd>{leverageText(view.leverage) ?? '—'}</dd></div> : null}
            <div><dt>Created</dt><dd>{new Date(row.createdat).toLocaleString()}</dd></div>
          </dl>
        </section>
      ) : null}
    </div>
  );
}
