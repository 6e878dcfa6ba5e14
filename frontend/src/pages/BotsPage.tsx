import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Plus, Rocket } from 'lucide-react';
import { useSearchParams } from 'react-router-dom';
import { useGetBotsQuery, useGetOverviewQuery } from '../api/api';
import { botPhase, type Bot, type BotOverview, type BotType } from '../api/types';
import { Modal } from '../components/Modal';
import { BotCard } from '../bots/BotCard';
import { BotForm } from '../bots/BotForm';
import { signedUsdt, usdt } from '../bots/format';
import { Pagination, pageCount, pageSlice, PAGE_SIZE } from '../bots/Pagination';
import { pairLabel } from '../bots/pairs';
import { useBotActions } from '../bots/useBotActions';
import { AccountPerformance, ACCOUNT_POLL_MS } from '../money/AccountPerformance';
import { useGetAccountPerformanceQuery } from '../money/moneyApi';
import { useStatusPolling } from '../bots/useStatusPolling';
import { useAppSelector, useUser } from '../store/hooks';
import { PageLoading } from '../components/PageKit';

const TABS: Array<{ type: BotType; label: string; param: string }> = [
  { type: 'Spot', label: 'Spot bots', param: 'spot' },
  { type: 'Futures', label: 'Futures bots', param: 'futures' },
];
const SORTS = {
  created: 'Oldest first',
  newest: 'Newest first',
  profit: 'Realised profit',
  pair: 'Pair',
  status: 'Running first',
} as const;
type Sort = keyof typeof SORTS;
const EXCHANGE_FILTERS = ['all', 'Binance', 'Kucoin'] as const;
const STATUS_FILTERS = { all: 'Any status', running: 'Running', stopped: 'Stopped' } as const;

function sorted(list: Bot[], sort: Sort, live: Map<string, BotOverview>): Bot[] {
  const out = [...list];
  switch (sort) {
    case 'newest':
      return out.reverse();
    case 'profit':
      return out.sort((a, b) => (live.get(b.id)?.realisedPnl ?? Number(b.profit ?? 0)) - (live.get(a.id)?.realisedPnl ?? Number(a.profit ?? 0)));
    case 'pair':
      return out.sort((a, b) => pairLabel(a.symbol).localeCompare(pairLabel(b.symbol)));
    case 'status':
      return out.sort((a, b) => Number(botPhase(b) !== 'stopped') - Number(botPhase(a) !== 'stopped'));
    default:
      return out;
  }
}

/** Bots of the account: a summary strip, filters and sorting, cards; tab, page, filters and sort live in the URL. */
export default function BotsPage() {
  const user = useUser()!;
  const { data: bots = [], isLoading, isError } = useGetBotsQuery(user.uid);
  const { data: overview = [] } = useGetOverviewQuery(undefined, { pollingInterval: 5000 });
  // the strip's money is the account's (issue 40, point 6): the same answer as the Performance block below it
  const { data: account } = useGetAccountPerformanceQuery(undefined, { pollingInterval: ACCOUNT_POLL_MS });
  const connected = useAppSelector((s) => s.ui.socketConnected);
  const [params, setParams] = useSearchParams();
  const [creating, setCreating] = useState(false);
  const actions = useBotActions(user.uid);
  const tabRefs = useRef<Record<string, HTMLButtonElement | null>>({});
  const listTop = useRef<HTMLDivElement>(null);
  useStatusPolling(user.uid);

  const tab: BotType = params.get('tab') === 'futures' ? 'Futures' : 'Spot';
  const exchange = (EXCHANGE_FILTERS as readonly string[]).includes(params.get('exchange') ?? '') ? params.get('exchange')! : 'all';
  const status = (params.get('status') ?? 'all') in STATUS_FILTERS ? (params.get('status') ?? 'all') : 'all';
  const sort: Sort = (params.get('sort') ?? 'created') in SORTS ? (params.get('sort') as Sort) ?? 'created' : 'created';
  const set = (patch: Record<string, string | null>) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        for (const [k, v] of Object.entries(patch)) {
          if (v === null) next.delete(k);
          else next.set(k, v);
        }
        return next;
      },
      { replace: false },
    );

  const live = useMemo(() => new Map(overview.map((o) => [o.id, o])), [overview]);
  const ofType = useMemo(() => {
    const list = bots.filter(
      (b) =>
        b.bottype === tab &&
        (exchange === 'all' || b.exchange === exchange) &&
        (status === 'all' || (status === 'running' ? botPhase(b) !== 'stopped' : botPhase(b) === 'stopped')),
    );
    return sorted(list, sort, live);
  }, [bots, tab, exchange, status, sort, live]);
  const page = Math.min(Math.max(1, Number(params.get('page')) || 1), pageCount(ofType.length));
  const visible = pageSlice(ofType, page, PAGE_SIZE);
  const counts = useMemo(() => ({ Spot: bots.filter((b) => b.bottype === 'Spot').length, Futures: bots.filter((b) => b.bottype === 'Futures').length }), [bots]);

  const strip = useMemo(() => {
    const running = bots.filter((b) => botPhase(b) === 'running').length;
    if (account) return { running, capital: account.capitalInUse, today: account.realisedToday, total: account.realisedPnl, currency: account.currency };
    // until the account's answer is in: the cards' figures added up
    let capital = 0;
    let today = 0;
    let total = 0;
    for (const b of bots) {
      const o = live.get(b.id);
      capital += o?.capitalInUse ?? 0;
      today += o?.realisedToday ?? 0;
      total += o?.realisedPnl ?? Number(b.profit ?? 0);
    }
    return { running, capital, today, total, currency: 'USDT' };
  }, [bots, live, account]);

  // a new page starts at the top of the list, not where the old one was scrolled to
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    const el = listTop.current;
    if (el && typeof el.scrollIntoView === 'function') el.scrollIntoView({ block: 'start' });
  }, [page]);

  const onTabKey = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft' && e.key !== 'Home' && e.key !== 'End') return;
    e.preventDefault();
    const i = TABS.findIndex((t) => t.type === tab);
    const next = e.key === 'Home' ? 0 : e.key === 'End' ? TABS.length - 1 : (i + (e.key === 'ArrowRight' ? 1 : -1) + TABS.length) % TABS.length;
    set({ tab: TABS[next].param, page: null });
    tabRefs.current[TABS[next].type]?.focus();
  };

  const label = TABS.find((t) => t.type === tab)!.label;

  return (
    <div className="page page--wide">
      <div className="page__head">
        <div>
          <h1>Bots</h1>
          <p className="muted">
            <span className={`live-dot${connected ? ' live-dot--on' : ''}`} aria-hidden="true" />
            {connected ? 'Live: status updates arrive as they happen.' : 'Connecting to live updates…'}
          </p>
        </div>
      </div>

      <dl className="strip" aria-label="Summary of your bots" data-testid="summary-strip">
        <div>
          <dt>Bots running</dt>
          <dd data-testid="strip-running">
            {strip.running} <span className="muted">of {bots.length}</span>
          </dd>
        </div>
        <div>
          <dt title="What your bots' orders and positions hold on the exchanges now">Capital in use</dt>
          <dd data-testid="strip-capital">{usdt(strip.capital)} {strip.currency}</dd>
        </div>
        <div>
          <dt>Realised today</dt>
          <dd data-testid="strip-today" className={strip.today > 0 ? 'up' : strip.today < 0 ? 'down' : ''}>
            {signedUsdt(strip.today)} {strip.currency}
          </dd>
        </div>
        <div>
          <dt>Realised in total</dt>
          <dd data-testid="strip-total" className={strip.total > 0 ? 'up' : strip.total < 0 ? 'down' : ''}>
            {signedUsdt(strip.total)} {strip.currency}
          </dd>
        </div>
      </dl>

      <AccountPerformance />

      <div className="toolbar" ref={listTop}>
        <div className="tabs" role="tablist" aria-label="Bot kinds" onKeyDown={onTabKey}>
          {TABS.map((t) => (
            <button
              key={t.type}
              ref={(el) => {
                tabRefs.current[t.type] = el;
              }}
              type="button"
              role="tab"
              id={`tab-${t.type}`}
              aria-selected={tab === t.type}
              aria-controls={`panel-${t.type}`}
              tabIndex={tab === t.type ? 0 : -1}
              className={`tab${tab === t.type ? ' tab--active' : ''}`}
              onClick={() => set({ tab: t.param, page: null })}
            >
              {t.label} <span className="tab__count">{counts[t.type]}</span>
            </button>
          ))}
        </div>
        <button type="button" className="btn btn--primary" onClick={() => setCreating(true)}>
          <Plus size={18} aria-hidden="true" /> Create bot
        </button>
      </div>

      <div className="filters" role="group" aria-label="Filter and sort">
        <label>
          <span>Exchange</span>
          <select value={exchange} onChange={(e) => set({ exchange: e.target.value === 'all' ? null : e.target.value, page: null })}>
            <option value="all">All exchanges</option>
            <option value="Binance">Binance</option>
            <option value="Kucoin">Kucoin</option>
          </select>
        </label>
        <ChoiceFilter label="Status" value={status} choices={STATUS_FILTERS} onValue={(v) => set({ status: v === 'all' ? null : v, page: null })} />
        <ChoiceFilter label="Sort by" value={sort} choices={SORTS} onValue={(v) => set({ sort: v === 'created' ? null : v })} />
      </div>

      <section role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} className="tabpanel">
        <h2 className="sr-only">{label}</h2>
        {isLoading ? (
          <PageLoading label="Loading bots…" />
        ) : ofType.length === 0 ? (
          <div className="empty card">
            <Rocket size={40} aria-hidden="true" />
            <p>
              {isError
                ? 'Your bots could not be loaded right now.'
                : counts[tab] > 0
                  ? 'No bot matches these filters.'
                  : `No ${tab.toLowerCase()} bots yet. Create one and launch it.`}
            </p>
          </div>
        ) : (
          <>
            <div className="bot-grid">
              {visible.map((bot) => (
                <BotCard key={bot.id} bot={bot} live={live.get(bot.id)} onStart={actions.start} onStop={actions.stop} onEdit={actions.edit} onDelete={actions.remove} />
              ))}
            </div>
            <Pagination page={page} total={ofType.length} onPage={(p) => set({ page: p === 1 ? null : String(p) })} label={`${label} pages`} />
          </>
        )}
      </section>

      {creating ? (
        <Modal title="Create new bot" onClose={() => setCreating(false)} wide>
          <BotForm botType={tab} onCancel={() => setCreating(false)} onDone={() => setCreating(false)} />
        </Modal>
      ) : null}
      {actions.dialogs}
    </div>
  );
}

/** One of the list's filters: a labelled select of `choices` (value → words). */
function ChoiceFilter({ label, value, choices, onValue }: { label: string; value: string; choices: Record<string, string>; onValue: (value: string) => void }) {
  return (
    <label>
      <span>{label}</span>
      <select value={value} onChange={(e) => onValue(e.target.value)}>
        {Object.entries(choices).map(([v, l]) => (
          <option key={v} value={v}>
            {l}
          </option>
        ))}
      </select>
    </label>
  );
}
