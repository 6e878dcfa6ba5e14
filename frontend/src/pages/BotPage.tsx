import { lazy, Suspense, useEffect, useState } from 'react';
import { LiquidationWarning } from '../bots/LiquidationWarning';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { Pencil, Play, Square, Trash2, TriangleAlert } from 'lucide-react';
import { useGetBotsQuery, useGetSummaryQuery } from '../api/api';
import { botPhase, type Bot, type BotSummary } from '../api/types';
import { styleOf } from '../styles/registry';
import { BotTabs } from '../bots/BotTabs';
import { CoinIcon, ExchangeIcon } from '../bots/CoinIcon';
import { compact, leverageText, ordersLeftOpenText, percent, price, runtimeFigure, signedUsdt, rateLimitPauseText, streamFallbackText, usdt } from '../bots/format';
import { pairLabel } from '../bots/pairs';
import { botLabel } from '../bots/botName';
import { isNoKeyRefusal, useBotActions } from '../bots/useBotActions';
import { ModeBadge } from '../components/ModeBadge';
import { CheckNow } from '../bots/CheckNow';
import { SignalPanel } from '../bots/SignalPanel';
import { useUser } from '../store/hooks';
import { quoteOf } from '../shims/shared';
import { annualisedText, directionOf } from '../money/words';
import { BackToBots, PageLoading } from '../components/PageKit';
import { PHASE_TEXT, PhaseStatus } from '../bots/PhaseStatus';
import { BotChartCard } from '../bots/BotChartCard';

// issue 40: another user's bot, read-only, for an auditor ("Bot not found" to anyone else)
const AuditBotPage = lazy(() => import('./AuditBotPage'));

const STATE_TEXT = { open: 'Open', filled: 'Filled', cancelled: 'Cancelled' } as const;
/** While running, the figures are read again this often (the price moves between fills too). */
const REFRESH_MS = 3000;

/** Milliseconds since `value` last changed, counting on every second while `running`. */
function useSinceChange(value: unknown, running: boolean): number {
  const [at, setAt] = useState(() => Date.now());
  const [, tick] = useState(0);
  useEffect(() => setAt(Date.now()), [value]);
  useEffect(() => {
    if (!running) return;
    const t = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(t);
  }, [running]);
  return Date.now() - at;
}

/**
 * One bot (issue 13): the live chart, the ladder with each order's state, the position and its
 * P&L, fees, cycles, runtime and annualised return, the last error in words, and start, stop,
 * edit and delete; its history one tab away. Live over the socket (bot:activity, bot:status).
 */
export default function BotPage() {
  const { id = '' } = useParams();
  const user = useUser()!;
  const navigate = useNavigate();
  const { data: bots, isLoading } = useGetBotsQuery(user.uid);
  const bot = bots?.find((b) => b.id === id);
  const phase = bot ? botPhase(bot) : 'stopped';
  const { data: summary } = useGetSummaryQuery(id, { skip: !bot, pollingInterval: phase === 'running' ? REFRESH_MS : 0 });
  const actions = useBotActions(user.uid, { onDeleted: () => navigate('/bots') });

  if (isLoading) {
    return (
      <PageLoading label="Loading the bot…" />
    );
  }
  if (!bot) {
    return (
      <Suspense fallback={null}>
        <AuditBotPage id={id} Figures={Figures} />
      </Suspense>
    );
  }
  const futures = bot.bottype === 'Futures';
  const label = botLabel(bot); // issue 40: by its name, when it has one
  const running = phase !== 'stopped';
  const style = styleOf(bot); // issue 32, 42: a style may have its own settings, and the server may refuse its edit
  const { words, PageSettings } = style;
  const lastError = summary?.lastError ?? (phase === 'stopped' ? bot.lasterror : null) ?? null;
  // every amount of money in the pair's quote currency (issue 40, point 5)
  const cur = summary?.currency ?? quoteOf(bot.symbol) ?? 'USDT';

  return (
    <div className="page page--wide botpage" data-testid="bot-page" data-bot-id={bot.id} data-state={phase}>
      <div className="page__head botpage__head">
        <div>
          <BackToBots />
          <h1 className="botpage__title">
            <CoinIcon symbol={bot.symbol} size={32} /> {bot.name ? <span data-testid="bot-name">{bot.name}</span> : null} {bot.name ? <span className="muted botpage__pair">{pairLabel(bot.symbol)}</span> : pairLabel(bot.symbol)}
            <PhaseStatus phase={phase} />
          </h1>
          <p className="muted with-icon">
            <ExchangeIcon exchange={bot.exchange} /> {bot.exchange} {futures ? 'futures' : 'spot'}
            {style.pageTag ?? ''}
            {futures ? ` · ${directionOf(bot)}` : ''}
            {futures && leverageText(bot.leverage) ? ` · ${leverageText(bot.leverage)}` : ''} <ModeBadge exchange={bot.exchange} showFeed />
          </p>
        </div>
        <div className="botpage__actions" role="group" aria-label="Bot actions">
          {phase === 'running' ? (
            <button type="button" className="btn btn--stop" onClick={() => actions.stop(bot)} aria-label={`Stop ${label}`}>
              <Square size={16} aria-hidden="true" /> Stop
            </button>
          ) : (
            <button type="button" className="btn btn--start" onClick={() => actions.start(bot)} disabled={phase !== 'stopped'} aria-label={`Start ${label}`}>
              <Play size={16} aria-hidden="true" /> {phase === 'stopped' ? 'Start' : PHASE_TEXT[phase]}
            </button>
          )}
          <button type="button" className="btn btn--ghost" onClick={() => actions.edit(bot)} disabled={running || style.editRefusal !== undefined} aria-label={`Edit ${label}`} title={style.editRefusal ?? (running ? 'Stop the bot to edit it' : 'Edit bot')}>
            <Pencil size={16} aria-hidden="true" /> Edit
          </button>
          <button type="button" className="btn btn--ghost btn--danger-ghost" onClick={() => actions.remove(bot)} disabled={running} aria-label={`Delete ${label}`} title={running ? 'Stop the bot to delete it' : 'Delete bot'}>
            <Trash2 size={16} aria-hidden="true" /> Delete
          </button>
        </div>
      </div>

      <BotTabs id={bot.id} current="overview" />

      {lastError ? <LastError message={lastError} at={summary?.lastErrorAt ?? null} /> : null}
      <LiquidationWarning bot={bot} summary={summary} />
      <Notice role="note" testId="orders-left-open" text={ordersLeftOpenText(bot, phase === 'stopped')} />

      <Notice role="status" testId="rate-limit-pause" text={phase === 'running' ? rateLimitPauseText(bot) : null} />

      <Notice role="status" testId="stream-fallback" text={phase === 'running' ? streamFallbackText(bot) : null} />

      {phase === 'running' ? <CheckNow key={bot.id} botId={bot.id} /> : null}

      <Figures bot={bot} summary={summary} running={phase === 'running'} />

      <BotChartCard bot={bot} />

      <div className="botpage__cols">
        <Ladder summary={summary} currency={cur} />
        <section className="card" aria-labelledby="settings-title">
          <h2 id="settings-title">Settings</h2>
          {PageSettings ? (
          <PageSettings bot={bot} cur={cur} />
          ) : (
          <dl className="settings-facts">
            <div><dt>Entry price</dt><dd>{price(bot.entryprice)} {cur}</dd></div>
            <div><dt>Grid size</dt><dd>{bot.numoforders}</dd></div>
            <div><dt>Order size</dt><dd>{compact(bot.ordersize)}</dd></div>
            <div><dt>Price interval</dt><dd>{price(bot.interval)} {cur}</dd></div>
            {/* a grid whose pairs earn one interval each has no take profit of its own (issue 32) */}
            {words.takeProfit ? <div><dt>Take profit</dt><dd>{percent(bot.takeprofit)}</dd></div> : null}
            {words.stopsBothSides && bot.stoplossprice !== undefined ? <div><dt>Stop-loss below</dt><dd>{price(bot.stoplossprice)} {cur}</dd></div> : null}
            {words.stopsBothSides && bot.stoplosspriceabove !== undefined ? <div><dt>Stop-loss above</dt><dd>{price(bot.stoplosspriceabove)} {cur}</dd></div> : null}
            {futures ? <div className="settings-facts__wide"><dt>Direction</dt><dd data-testid="direction">{words.describe}</dd></div> : null}
            {futures ? <div><dt>Leverage</dt><dd>{leverageText(bot.leverage) ?? '—'}</dd></div> : null}
          </dl>
          )}
        </section>
      </div>
      <SignalPanel key={`signals-${bot.id}`} botId={bot.id} userId={user.uid} />
      {actions.dialogs}
    </div>
  );
}

/** A warning under the bot's head (orders left open, a rate-limit pause, polling instead of the stream); nothing without `text`. */
function Notice({ role, testId, text }: { role: 'note' | 'status'; testId: string; text: string | null | undefined }) {
  if (!text) return null;
  return (
    <div className="notice" role={role} data-testid={testId}>
      <TriangleAlert size={18} aria-hidden="true" />
      <div>{text}</div>
    </div>
  );
}

function LastError({ message, at }: { message: string; at: number | null }) {
  return (
    <div className="notice notice--error" role="alert" data-testid="last-error">
      <TriangleAlert size={18} aria-hidden="true" />
      <div>
        <strong>Last error{at ? ` (${new Date(at).toLocaleString()})` : ''}:</strong> {message}
        {isNoKeyRefusal(message) ? (
          <>
            {' '}
            <Link to="/security">Add an API key on the Security page</Link>.
          </>
        ) : null}
      </div>
    </div>
  );
}

/** The hint of the Dust figure (docs/risk.md, "Dust"). */
export const DUST_HINT = 'Left after a cycle, below the market’s minimum order: not counted as a position; the next take-profit sells it along';

/** The bot's figures (the one projection every screen reads, issue 40); `data-testid`s name them for the tests. */
export function Figures({ bot, summary, running }: { bot: Bot; summary: BotSummary | undefined; running: boolean }) {
  const runtime = runtimeFigure(summary, useSinceChange(summary, running));
  // (as the amounts are written: what rounds to 0.00 has no colour)
  const tone = (n: number | undefined | null) => (n === undefined || n === null || Math.abs(n) < 0.005 ? '' : n > 0 ? 'up' : 'down');
  const base = bot.symbol.replace(/USDT$|USDC$/, '');
  const cur = summary?.currency ?? quoteOf(bot.symbol) ?? 'USDT';
  const money = (n: number | undefined) => (summary && n !== undefined ? `${usdt(n)} ${cur}` : '—');
  const signed = (n: number | undefined) => (summary && n !== undefined ? `${signedUsdt(n)} ${cur}` : '—');
  const short = summary ? summary.position < 0 : false;
  const annual = annualisedText(summary?.annualisedPercent ?? summary?.annualisedReturn, summary?.runtimeMs);
  const items: Array<{ key: string; label: string; value: string; note?: string | null; tone?: string; hint?: string }> = [
    { key: 'price', label: 'Last price', value: summary?.lastPrice != null ? `${usdt(summary.lastPrice)} ${cur}` : '—' },
    {
      key: 'position',
      label: 'Position',
      // a short holds a negative amount: said in words too (issue 32, 40)
      value: summary ? `${compact(summary.position)} ${base}` : '—',
      note: short ? '(short)' : null,
      ...(directionOf(bot) === 'long' ? {} : { hint: 'Negative: sold short, to be bought back' }),
    },
    // issue 29 finding 7: a rest below the market's minimum order (a fee taken in the coin) is shown, not counted
    ...(summary && summary.dust > 0 ? [{ key: 'dust', label: 'Dust', value: `${compact(summary.dust)} ${base}`, hint: DUST_HINT }] : []),
    { key: 'average-entry', label: 'Average entry', value: summary?.averageEntry != null ? `${usdt(summary.averageEntry)} ${cur}` : '—' },
    { key: 'unrealised', label: 'Unrealised P&L', value: signed(summary?.unrealisedPnl), tone: tone(summary?.unrealisedPnl), hint: UNREALISED_HINT },
    { key: 'realised', label: 'Realised P&L', value: signed(summary?.realisedPnl), tone: tone(summary?.realisedPnl), hint: 'What the take-profits and stop-losses realised, their fees and the opening fees of what they closed included' },
    { key: 'total', label: 'Total P&L', value: signed(summary?.totalPnl), tone: tone(summary?.totalPnl), hint: 'Realised + unrealised: what the fills brought in less what they cost, plus what is held at the price now' },
    { key: 'fees', label: 'Fees paid', value: money(summary?.feesPaid) },
    { key: 'cycles', label: 'Cycles completed', value: summary ? String(summary.cyclesCompleted) : '—' },
    { key: 'fills', label: 'Fills', value: summary ? String(summary.fills) : '—' },
    { key: 'runtime', label: 'Runtime', value: runtime.value, hint: runtime.hint },
    { key: 'annualised', label: 'Annualised return', value: summary ? annual.value : '—', note: summary ? annual.note : null, tone: tone(summary?.annualisedPercent), hint: `Total P&L over the capital committed, scaled to a year of running. ${annual.hint}` },
    { key: 'capital', label: 'Capital in use', value: money(summary?.capitalInUse), hint: CAPITAL_IN_USE_HINT },
    { key: 'committed', label: 'Capital committed', value: money(summary?.capitalCommitted), hint: CAPITAL_COMMITTED_HINT },
  ];
  return (
    <dl className="figures" aria-label="Figures">
      {items.map((f) => (
        <div key={f.key} className="figure" title={f.hint}>
          <dt>{f.label}</dt>
          <dd className={f.tone} data-testid={`figure-${f.key}`}>
            {f.value}
            {f.note ? <> <small className="figure__note">{f.note}</small></> : null}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The hints of the figures (docs/money.md says what each means). */
export const UNREALISED_HINT = 'Total − realised: what selling the position at the price now would realise, before the sale’s fee (the opening fees of what is held included)';
export const CAPITAL_IN_USE_HINT = 'What the bot’s orders and position hold on the exchange now: its open orders plus the position at its average entry, ÷ leverage';
export const CAPITAL_COMMITTED_HINT = 'What the bot’s full ladder takes when every order rests: Σ price × size ÷ leverage';

function Ladder({ summary, currency }: { summary: BotSummary | undefined; currency: string }) {
  const rows = summary?.ladder ?? [];
  const tp = summary?.takeProfit ?? null;
  return (
    <section className="card" aria-labelledby="ladder-title">
      <h2 id="ladder-title">Orders</h2>
      {rows.length === 0 && !tp ? (
        <p className="muted">No orders placed yet: start the bot and its ladder appears here.</p>
      ) : (
        <div className="table-scroll">
          <table className="ladder" aria-label="Ladder orders">
            <thead>
              <tr>
                <th scope="col">Order</th>
                <th scope="col" className="num">Price ({currency})</th>
                <th scope="col" className="num">Size</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {tp ? (
                <tr data-kind="take-profit" data-state={tp.state}>
                  <td>Take profit</td>
                  <td className="num">{price(tp.price)}</td>
                  <td className="num">{compact(tp.size)}</td>
                  <td>
                    <span className={`pill pill--${tp.state}`}>{STATE_TEXT[tp.state]}</span>
                  </td>
                </tr>
              ) : null}
              {rows.map((r, i) => (
                // (a short grid's rungs are sells; a neutral grid's rows are its sells, then its buys: each side numbered on
                // its own, its answers named as its engine names them, issue 32 and 40)
                <tr key={i} data-kind={r.side ?? 'buy'} data-state={r.state} {...(r.answer ? { 'data-answer': 'true' } : {})}>
                  <td>
                    {r.side === 'sell' ? 'Sell' : 'Buy'} {rows.slice(0, i + 1).filter((x) => (x.side ?? 'buy') === (r.side ?? 'buy')).length}
                    {r.answer ? <span className="muted"> (answer)</span> : null}
                  </td>
                  <td className="num">{price(r.price)}</td>
                  <td className="num">
                    {compact(r.size)}
                    {r.state === 'open' && r.filled > 0 ? <span className="muted"> ({compact(r.filled)} filled)</span> : null}
                  </td>
                  <td>
                    <span className={`pill pill--${r.state}`}>{STATE_TEXT[r.state]}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
