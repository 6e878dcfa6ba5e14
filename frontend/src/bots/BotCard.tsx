import { lazy, Suspense, useState } from 'react';
import { ChartLine, History, Pencil, Play, Square, Trash2, TriangleAlert } from 'lucide-react';
import { Link } from 'react-router-dom';
import { botPhase, type Bot } from '../api/types';
import { CoinIcon, ExchangeIcon } from './CoinIcon';
import { compact, leverageText, percent, usd, usdt } from './format';
import { pairLabel } from './pairs';

const BotChart = lazy(() => import('./BotChart'));

const PHASE_TEXT = { stopped: 'Stopped', starting: 'Starting…', running: 'Running', stopping: 'Stopping…' } as const;

interface Props {
  bot: Bot;
  onStart: (bot: Bot) => void;
  onStop: (bot: Bot) => void;
  onEdit: (bot: Bot) => void;
  onDelete: (bot: Bot) => void;
}

export function BotCard({ bot, onStart, onStop, onEdit, onDelete }: Props) {
  const [chart, setChart] = useState(false);
  const phase = botPhase(bot);
  const running = phase !== 'stopped';
  const futures = bot.bottype === 'Futures';
  const profit = Number(bot.profit ?? 0);
  const label = `${bot.exchange} ${futures ? 'futures' : 'spot'} bot ${pairLabel(bot.symbol)}`;
  return (
    <article className={`bot-card bot-card--${phase}`} aria-label={label} data-testid="bot-card" data-bot-id={bot.id} data-state={phase}>
      <header className="bot-card__head">
        <span className="with-icon bot-card__exchange">
          <ExchangeIcon exchange={bot.exchange} />
          <span>
            {bot.exchange} <span className="muted">{futures ? 'futures' : 'spot'}</span>
          </span>
        </span>
        <span className={`status status--${phase}`} role="status">
          <span className="status__dot" aria-hidden="true" />
          {PHASE_TEXT[phase]}
        </span>
      </header>

      <div className="bot-card__symbol">
        <CoinIcon symbol={bot.symbol} size={36} />
        <div>
          <strong className="bot-card__pair">{pairLabel(bot.symbol)}</strong>
          <span className="muted mono">{bot.symbol}</span>
        </div>
        <div className={`bot-card__profit ${profit > 0 ? 'up' : profit < 0 ? 'down' : ''}`}>
          <span className="muted">Profit</span>
          <strong data-testid="profit">
            {profit > 0 ? '+' : ''}
            {usdt(profit)} USDT
          </strong>
        </div>
      </div>

      <dl className="bot-card__facts">
        <Fact label="Total orders" value={compact(bot.numoforders)} />
        <Fact label="Order size" value={compact(bot.ordersize)} />
        <Fact label="Entry price" value={futures ? usd(bot.entryprice) : compact(bot.entryprice)} />
        <Fact label={futures ? 'T/P' : 'Take profit'} value={percent(bot.takeprofit)} title="Sold at the average entry price + this %" />
        <Fact label="Interval" value={compact(bot.interval)} />
        {futures ? <Fact label="Leverage" value={leverageText(bot.leverage) ?? '—'} /> : null}
      </dl>

      {bot.lasterror && phase === 'stopped' ? (
        <p className="bot-card__error" role="note">
          <TriangleAlert size={14} aria-hidden="true" /> {bot.lasterror}
        </p>
      ) : null}

      <div className="bot-card__actions">
        {phase === 'running' ? (
          <button type="button" className="btn btn--stop btn--small" onClick={() => onStop(bot)} aria-label={`Stop ${label}`}>
            <Square size={14} aria-hidden="true" /> Stop
          </button>
        ) : (
          <button
            type="button"
            className="btn btn--start btn--small"
            onClick={() => onStart(bot)}
            disabled={phase !== 'stopped'}
            aria-label={`Start ${label}`}
          >
            <Play size={14} aria-hidden="true" /> {phase === 'stopped' ? 'Start' : PHASE_TEXT[phase]}
          </button>
        )}
        <button
          type="button"
          className="icon-btn icon-btn--small"
          onClick={() => setChart((c) => !c)}
          aria-expanded={chart}
          aria-controls={`chart-${bot.id}`}
          aria-label="Chart"
          title={chart ? 'Hide the grid chart' : 'Show the grid chart'}
        >
          <ChartLine size={16} aria-hidden="true" />
        </button>
        <Link
          to={`/bots/${encodeURIComponent(bot.id)}/history`}
          className="icon-btn icon-btn--small"
          aria-label={`History of ${label}`}
          title="History: every event of this bot, and its state at any moment"
        >
          <History size={16} aria-hidden="true" />
        </Link>
        <span className="spacer" />
        <button
          type="button"
          className="icon-btn icon-btn--small"
          onClick={() => onEdit(bot)}
          disabled={running}
          aria-label={`Edit ${label}`}
          title={running ? 'Stop the bot to edit it' : 'Edit bot'}
        >
          <Pencil size={16} aria-hidden="true" />
        </button>
        <button
          type="button"
          className="icon-btn icon-btn--small icon-btn--danger"
          onClick={() => onDelete(bot)}
          disabled={running}
          aria-label={`Delete ${label}`}
          title={running ? 'Stop the bot to delete it' : 'Delete bot'}
        >
          <Trash2 size={16} aria-hidden="true" />
        </button>
      </div>
      {chart ? (
        <div id={`chart-${bot.id}`} className="bot-card__chart">
          <Suspense fallback={<div className="chart-empty">Loading chart…</div>}>
            <BotChart bot={bot} />
          </Suspense>
        </div>
      ) : null}
    </article>
  );
}

/** One stat of the card; the full value is in the tooltip should the cell ever be too narrow. */
function Fact({ label, value, title }: { label: string; value: string; title?: string }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd title={title ? `${value} · ${title}` : value}>{value}</dd>
    </div>
  );
}
