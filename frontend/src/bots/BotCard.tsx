import { ExternalLink, History, Pencil, Play, Square, Trash2, TriangleAlert } from 'lucide-react';
import { Link } from 'react-router-dom';
import { botPhase, type Bot, type BotOverview } from '../api/types';
import { Fact } from '../components/Facts';
import { styleOf } from '../styles/registry';
import { ModeBadge } from '../components/ModeBadge';
import { CoinIcon, ExchangeIcon } from './CoinIcon';
import { compact, leverageText, ordersLeftOpenText, percent, signedUsdt, usd, usdt } from './format';
import { pairLabel } from './pairs';
import { botLabel } from './botName';
import { Sparkline } from './Sparkline';
import { quoteOf } from '../shims/shared';
import { isNoKeyRefusal } from './useBotActions';
import { PHASE_TEXT, PhaseStatus } from './PhaseStatus';


interface Props {
  bot: Bot;
  live?: BotOverview;
  onStart: (bot: Bot) => void;
  onStop: (bot: Bot) => void;
  onEdit: (bot: Bot) => void;
  onDelete: (bot: Bot) => void;
}

export function BotCard({ bot, live, onStart, onStop, onEdit, onDelete }: Props) {
  const phase = botPhase(bot);
  const running = phase !== 'stopped';
  const futures = bot.bottype === 'Futures';
  const profit = live ? live.realisedPnl : Number(bot.profit ?? 0);
  const label = botLabel(bot); // issue 40: by its name, when it has one
  const page = `/bots/${encodeURIComponent(bot.id)}`;
  const base = bot.symbol.replace(/USDT$|USDC$/, '');
  const cur = live?.currency ?? quoteOf(bot.symbol) ?? 'USDT';
  const position = live?.position ?? 0;
  const leftOpen = ordersLeftOpenText(bot, phase === 'stopped');
  // issue 32, 42: a style with settings of its own shows its facts, and the server may refuse its edit
  const style = styleOf(bot);
  const { words, CardFacts } = style;
  return (
    <article className={`bot-card bot-card--${phase}`} aria-label={label} data-testid="bot-card" data-bot-id={bot.id} data-state={phase}>
      <header className="bot-card__head">
        <span className="with-icon bot-card__exchange">
          <ExchangeIcon exchange={bot.exchange} />
          <span>
            {bot.exchange} <span className="muted">{futures ? 'futures' : 'spot'}</span>
          </span>
          <ModeBadge exchange={bot.exchange} />
        </span>
        <PhaseStatus phase={phase} />
      </header>

      <div className="bot-card__symbol">
        <CoinIcon symbol={bot.symbol} size={36} />
        <div>
          {bot.name ? <span className="bot-card__name" data-testid="bot-name">{bot.name}</span> : null}
          <Link to={page} className="bot-card__pair" aria-label={`Open ${label}`}>
            {pairLabel(bot.symbol)}
          </Link>
          <span className="muted mono">{live?.lastPrice != null ? <span data-testid="live-price">{usdt(live.lastPrice)}</span> : bot.symbol}</span>
        </div>
        <div className={`bot-card__profit ${profit > 0 ? 'up' : profit < 0 ? 'down' : ''}`}>
          <span className="muted">Realised</span>
          <strong data-testid="profit">{signedUsdt(profit)} {cur}</strong>
        </div>
      </div>

      <div className="bot-card__live">
        <Sparkline values={live?.spark ?? []} label={`Recent price of ${pairLabel(bot.symbol)}`} />
        <div className="bot-card__position">
          <span className="muted">Position</span>
          <strong data-testid="position" title={position < 0 ? 'Sold short, to be bought back' : undefined}>
            {compact(position)} {base}
            {position < 0 ? ' (short)' : ''}
          </strong>
        </div>
      </div>

      {CardFacts ? (
        <CardFacts bot={bot} cur={cur} />
      ) : (
      <dl className="bot-card__facts">
        <Fact label="Orders" value={compact(bot.numoforders)} title="Total orders of the grid" />
        <Fact label="Order size" value={compact(bot.ordersize)} />
        <Fact label="Entry price" value={futures ? usd(bot.entryprice) : compact(bot.entryprice)} title={`In ${cur}`} />
        {/* a grid that answers each fill one interval away has no take-profit (issue 32, 40) */}
        {words.takeProfit ? (
          <Fact label={futures ? 'T/P' : 'Take profit'} value={percent(bot.takeprofit)} title={words.takeProfitTitle} />
        ) : null}
        <Fact label="Interval" value={compact(bot.interval)} title={`In ${cur}${words.intervalNote}`} />
        {futures ? <Fact label="Leverage" value={leverageText(bot.leverage) ?? '—'} /> : null}
        {futures ? <Fact label="Direction" value={words.label} /> : null}
      </dl>
      )}

      {bot.lasterror && phase === 'stopped' ? (
        <p className="bot-card__error" role="note">
          <TriangleAlert size={14} aria-hidden="true" /> {bot.lasterror}
          {isNoKeyRefusal(bot.lasterror) ? (
            <>
              {' '}
              <Link to="/security">Add a key</Link>
            </>
          ) : null}
        </p>
      ) : null}

      {leftOpen ? (
        <p className="bot-card__error" role="note" data-testid="orders-left-open">
          <TriangleAlert size={14} aria-hidden="true" /> {leftOpen}
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
        <Link to={page} className="icon-btn icon-btn--small" aria-label={`Details of ${label}`} title="Chart, orders and figures">
          <ExternalLink size={16} aria-hidden="true" />
        </Link>
        <Link
          to={`${page}/history`}
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
          disabled={running || style.editRefusal !== undefined}
          aria-label={`Edit ${label}`}
          title={style.editRefusal ?? (running ? 'Stop the bot to edit it' : 'Edit bot')}
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
    </article>
  );
}

/** One stat of the card; the full value is in the tooltip should the cell ever be too narrow. */
