import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useParams } from 'react-router-dom';
import { Download, RefreshCw } from 'lucide-react';
import { leverageText, compact, percent, usdt } from '../bots/format';
import { pairLabel } from '../bots/pairs';
import { nameInHistory } from '../bots/botName';
import { useUser } from '../store/hooks';
import { quoteOf } from '../shims/shared';
import { BotTabs } from '../bots/BotTabs';
import {
  describeAll,
  eventLabel,
  labelAll,
  eventTime,
  eventTone,
  formatTime,
  isKnownType,
  who,
  type HistoryEvent,
  type StateAt,
} from '../history/events';
import { exportUrl, useGetBotHistoryQuery, useGetBotStateAtQuery } from '../history/historyApi';
import { BotSubpageHead, PageLoading } from '../components/PageKit';

const STATUS_TEXT: Record<string, string> = { stopped: 'Stopped', starting: 'Starting…', running: 'Running', stopping: 'Stopping…' };

/** The value after it has stopped changing for `ms` (a dragged slider asks for one state, not fifty). */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

/**
 * History of one bot (issue 7): every event with who, when and what, CSV and NDJSON exports, and
 * a time slider, one step per event, that shows the bot as it was at that event's moment
 * (GET /api/bots/{id}/state?at=).
 */
export default function HistoryPage() {
  const { id = '' } = useParams();
  const me = useUser()?.uid;
  const { data: events, isLoading, error, refetch, isFetching: historyFetching } = useGetBotHistoryQuery(id);
  /** null: follow the latest event */
  const [picked, setPicked] = useState<number | null>(null);
  const list = useMemo(() => events ?? [], [events]);
  const n = list.length;
  const selected = n === 0 ? -1 : picked === null ? n - 1 : Math.min(picked, n - 1);
  const at = selected >= 0 ? eventTime(list[selected]) : null;
  const settledAt = useSettled(at, 150);
  const queryAt = settledAt ?? at;
  const state = useGetBotStateAtQuery({ id, at: queryAt ?? '' }, { skip: !queryAt });
  const summaries = useMemo(() => describeAll(list), [list]);
  // labels by role (issue 40, point 4): a short's opening orders are sells, a neutral grid's closing ones answers
  const labels = useMemo(() => labelAll(list), [list]);
  const byId = useMemo(() => new Map(list.map((e, i) => [e.id, i])), [list]);
  const created = list.find((e) => e.type === 'BotCreated')?.data as Record<string, unknown> | undefined;
  const named = nameInHistory(list); // issue 40: the name its events gave it last
  const title = created
    ? `${named ? `“${named}”, ` : ''}${String(created.exchange)} ${created.botType === 'Futures' ? 'futures' : 'spot'} bot ${typeof created.symbol === 'string' ? pairLabel(created.symbol) : ''}`
    : 'Bot';
  const status = (error as { status?: number } | undefined)?.status;

  return (
    <div className="page page--wide history">
      <BotSubpageHead
        title="History"
        sub={
          <p className="muted history__sub">
            {title} <span className="mono history__id">{id}</span>
          </p>
        }
        actions={
          <div className="history__exports" role="group" aria-label="Download the history">
            <a className="btn btn--ghost btn--small" href={exportUrl(id, 'csv')} download aria-label="Download the history as CSV">
              <Download size={16} aria-hidden="true" /> CSV
            </a>
            <a className="btn btn--ghost btn--small" href={exportUrl(id, 'ndjson')} download aria-label="Download the history as NDJSON">
              <Download size={16} aria-hidden="true" /> NDJSON
            </a>
            <button type="button" className="icon-btn icon-btn--small" onClick={() => void refetch()} aria-label="Refresh the history" title="Refresh" disabled={historyFetching}>
              <RefreshCw size={16} aria-hidden="true" />
            </button>
          </div>
        }
      />
      <BotTabs id={id} current="history" />

      {isLoading ? (
        <PageLoading label="Loading the history…" />
      ) : error ? (
        <div className="empty card" role="alert">
          <p>
            {status === 404
              ? 'There is no history to show: this bot does not exist, or it is not yours.'
              : 'The history could not be loaded right now.'}
          </p>
          {status !== 404 ? (
            <button type="button" className="btn btn--ghost btn--small" onClick={() => void refetch()}>
              Try again
            </button>
          ) : null}
        </div>
      ) : n === 0 ? (
        <div className="empty card">
          <p>This bot has no events yet.</p>
        </div>
      ) : (
        <div className="history__layout">
          <section className="card state-panel" aria-labelledby="state-title">
            <h2 id="state-title">The bot at a moment</h2>
            <TimeSlider events={list} labels={labels} selected={selected} onSelect={setPicked} />
            <StatePanel result={state.data} fetching={state.isFetching || queryAt !== at} failed={state.isError} total={n} />
          </section>

          <section className="card timeline-card" aria-labelledby="timeline-title">
            <h2 id="timeline-title">
              Timeline <span className="muted timeline-card__count">{n} event{n === 1 ? '' : 's'}</span>
            </h2>
            <ol className="timeline" aria-label="Events, oldest first">
              {list.map((e, i) => (
                <TimelineItem
                  key={e.id}
                  event={e}
                  index={i}
                  summary={summaries[i]}
                  label={labels[i]}
                  causeLabel={e.metadata.causationId ? labels[byId.get(String(e.metadata.causationId)) ?? -1] : undefined}
                  me={me}
                  selected={selected}
                  causeEvent={e.metadata.causationId ? list[byId.get(String(e.metadata.causationId)) ?? -1] : undefined}
                  onSelect={setPicked}
                />
              ))}
            </ol>
          </section>
        </div>
      )}
    </div>
  );
}

function TimeSlider({ events, labels, selected, onSelect }: { events: HistoryEvent[]; labels: string[]; selected: number; onSelect: (i: number) => void }) {
  const n = events.length;
  const current = events[selected];
  const when = formatTime(eventTime(current));
  const label = labels[selected] ?? eventLabel(current.type);
  const text = `${when}: ${label} (event ${selected + 1} of ${n})`;
  return (
    <div className="time-slider">
      <label htmlFor="history-time" className="time-slider__label">
        Time
      </label>
      <input
        id="history-time"
        type="range"
        min={0}
        max={Math.max(0, n - 1)}
        step={1}
        value={selected}
        disabled={n < 2}
        onChange={(e) => onSelect(Number(e.target.value))}
        aria-valuetext={text}
        aria-describedby="history-time-help"
      />
      <div className="time-slider__ends" aria-hidden="true">
        <span>{formatTime(eventTime(events[0]))}</span>
        <span>{formatTime(eventTime(events[n - 1]))}</span>
      </div>
      <output htmlFor="history-time" className="time-slider__now" aria-live="polite">
        <time dateTime={eventTime(current)}>{when}</time>
        <span>
          {label} · event {selected + 1} of {n}
        </span>
      </output>
      <small id="history-time-help" className="field__hint">
        One step per event: arrow keys move by one, Home and End jump to the first and the last.
      </small>
    </div>
  );
}

function StatePanel({ result, fetching, failed, total }: { result: StateAt | undefined; fetching: boolean; failed: boolean; total: number }) {
  if (!result) {
    return failed ? (
      <p className="notice" role="alert">
        The state at this moment could not be loaded.
      </p>
    ) : (
      <p className="muted" role="status">
        Loading the state…
      </p>
    );
  }
  const view = result.view;
  const deleted = Boolean(result.state?.deleted);
  const phase = deleted ? 'deleted' : view ? String(view.state ?? (view.botstatus ? 'running' : 'stopped')) : 'none';
  const phaseText = deleted ? 'Deleted' : view ? (STATUS_TEXT[phase] ?? phase) : 'Not created yet';
  return (
    <div className={`state${fetching ? ' state--stale' : ''}`} aria-busy={fetching} data-testid="state-at">
      {failed ? (
        <p className="notice" role="alert">
          The state at this moment could not be loaded; showing the last one read.
        </p>
      ) : null}
      <div className="state__head">
        <span className={`status status--${phase}`} data-testid="state-status">
          <span className="status__dot" aria-hidden="true" />
          {phaseText}
        </span>
        <span className="muted state__applied">
          {result.eventsApplied} of {total} event{total === 1 ? '' : 's'} applied
        </span>
      </div>
      {view ? (
        <dl className="state__facts">
          <StateFact label="Profit" value={`${usdt(Number(view.profit ?? 0))} ${quoteOf(view.symbol) ?? 'USDT'}`} />
          <StateFact label="Process" value={view.pid > 0 ? String(view.pid) : '—'} />
          <StateFact label="Pair" value={`${pairLabel(view.symbol)} · ${view.exchange} ${view.bottype === 'Futures' ? 'futures' : 'spot'}`} wide />
          <StateFact label="Total orders" value={compact(view.numoforders)} />
          <StateFact label="Order size" value={compact(view.ordersize)} />
          <StateFact label="Entry price" value={`${compact(view.entryprice)} ${quoteOf(view.symbol) ?? 'USDT'}`} />
          <StateFact label="Interval" value={`${compact(view.interval)} ${quoteOf(view.symbol) ?? 'USDT'}`} />
          <StateFact label="Take profit" value={percent(view.takeprofit)} />
          {view.bottype === 'Futures' ? <StateFact label="Leverage" value={leverageText(view.leverage) ?? '—'} /> : null}
          {view.lasterror ? <StateFact label="Last error" value={view.lasterror} wide /> : null}
        </dl>
      ) : null}
      {result.next.length > 0 ? (
        <p className="state__next">
          <span className="muted">What could follow: </span>
          {result.next.map(eventLabel).join(', ')}
        </p>
      ) : null}
    </div>
  );
}

function StateFact({ label, value, wide }: { label: string; value: string; wide?: boolean }) {
  return (
    <div className={wide ? 'state__fact--wide' : undefined}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

interface ItemProps {
  event: HistoryEvent;
  index: number;
  summary: string;
  /** Its label by role (labelAll). */
  label: string;
  causeLabel: string | undefined;
  me: string | undefined;
  selected: number;
  causeEvent: HistoryEvent | undefined;
  onSelect: (i: number) => void;
}

function TimelineItem({ event: e, index, summary, label, causeLabel, me, selected, causeEvent, onSelect }: ItemProps) {
  const iso = eventTime(e);
  const when = formatTime(iso);
  const by = who(e.metadata.userId, me);
  const known = isKnownType(e.type);
  const place = index === selected ? ' is-current' : index < selected ? ' is-past' : ' is-future';
  return (
    <li className={`timeline__item tone--${eventTone(e.type)}${place}`} aria-current={index === selected ? 'step' : undefined} data-type={e.type}>
      <span className="timeline__dot" aria-hidden="true" />
      <div className="timeline__body">
        <div className="timeline__head">
          <strong className="timeline__label">{label}</strong>
          <code className={`timeline__type${known ? '' : ' timeline__type--unknown'}`}>{e.type}</code>
        </div>
        {summary ? <p className="timeline__what">{summary}</p> : null}
        <div className="timeline__meta">
          <button type="button" className="link link--small" onClick={() => onSelect(index)} aria-label={`Show the bot at ${when} (${label})`}>
            <time dateTime={iso}>{when}</time>
          </button>
          <span className="muted">
            by <span title={by.title}>{by.text}</span>
            {causeEvent ? `, after #${causeEvent.revision} ${(causeLabel ?? eventLabel(causeEvent.type)).toLowerCase()}` : null}
          </span>
        </div>
        <details className="timeline__details">
          <summary>Details</summary>
          <dl>
            <MonoFact term="Revision / position">
              {e.revision} / {e.position}
            </MonoFact>
            <MonoFact term="Event id">{e.id}</MonoFact>
            <MonoFact term="Correlation">{String(e.metadata.correlationId ?? '—')}</MonoFact>
            <MonoFact term="Caused by">{String(e.metadata.causationId ?? '—')}</MonoFact>
            <MonoFact term="User">{String(e.metadata.userId ?? '—')}</MonoFact>
            <MonoFact term="Stored">{e.created}</MonoFact>
          </dl>
          <pre className="timeline__data">{JSON.stringify(e.data, null, 2)}</pre>
        </details>
      </div>
    </li>
  );
}

/** A line of an event's details: its term and a value in monospace. */
function MonoFact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd className="mono">{children}</dd>
    </div>
  );
}
