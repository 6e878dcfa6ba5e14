import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Plus, Rocket } from 'lucide-react';
import { useStore } from 'react-redux';
import { api, useDeleteBotMutation, useGetBotsQuery, useStartBotMutation, useStopBotMutation } from '../api/api';
import { describeError } from '../api/http';
import { botPhase, type Bot, type BotState, type BotType } from '../api/types';
import type { RootState } from '../store/store';
import { ConfirmDialog, Modal } from '../components/Modal';
import { BotCard } from '../bots/BotCard';
import { BotForm } from '../bots/BotForm';
import { Pagination, pageCount, pageSlice, PAGE_SIZE } from '../bots/Pagination';
import { useStatusPolling } from '../bots/useStatusPolling';
import { useAppDispatch, useAppSelector, useUser } from '../store/hooks';
import { observeBot } from '../store/lifecycle';
import { ui } from '../store/uiSlice';

const TABS: Array<{ type: BotType; label: string }> = [
  { type: 'Spot', label: 'Spot bots' },
  { type: 'Futures', label: 'Futures bots' },
];

type Dialog =
  | { kind: 'create' }
  | { kind: 'edit'; bot: Bot }
  | { kind: 'delete'; bot: Bot }
  | { kind: 'stop'; bot: Bot }
  | null;

export default function BotsPage() {
  const user = useUser()!;
  const dispatch = useAppDispatch();
  const { data: bots = [], isLoading, isError } = useGetBotsQuery(user.uid);
  const connected = useAppSelector((s) => s.ui.socketConnected);
  const [tab, setTab] = useState<BotType>('Spot');
  const [pages, setPages] = useState<Record<BotType, number>>({ Spot: 1, Futures: 1 });
  const [dialog, setDialog] = useState<Dialog>(null);
  const [cancelAll, setCancelAll] = useState(false);
  const [startBot] = useStartBotMutation();
  const [stopBot] = useStopBotMutation();
  const [deleteBot] = useDeleteBotMutation();
  const tabRefs = useRef<Record<string, HTMLButtonElement | null>>({});
  useStatusPolling(user.uid);

  const ofType = useMemo(() => bots.filter((b) => b.bottype === tab), [bots, tab]);
  const page = Math.min(pages[tab], pageCount(ofType.length));
  const visible = pageSlice(ofType, page, PAGE_SIZE);
  const counts = useMemo(() => ({ Spot: bots.filter((b) => b.bottype === 'Spot').length, Futures: bots.filter((b) => b.bottype === 'Futures').length }), [bots]);

  const onTabKey = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft' && e.key !== 'Home' && e.key !== 'End') return;
    e.preventDefault();
    const i = TABS.findIndex((t) => t.type === tab);
    const next = e.key === 'Home' ? 0 : e.key === 'End' ? TABS.length - 1 : (i + (e.key === 'ArrowRight' ? 1 : -1) + TABS.length) % TABS.length;
    setTab(TABS[next].type);
    tabRefs.current[TABS[next].type]?.focus();
  };

  const store = useStore<RootState>();
  /** Shows a bot's transitional state on its card until the push (or a poll) says how it ended. */
  const patchBot = (id: string, patch: Partial<Bot>) =>
    dispatch(
      api.util.updateQueryData('getBots', user.uid, (draft) => {
        const b = draft.find((x) => x.id === id);
        if (b) Object.assign(b, patch);
      }),
    );
  /** The answer to a start or stop call: applied only while we still wait (a push may be faster). */
  const applyAnswer = (bot: Bot, answered: Bot | undefined, waiting: BotState) => {
    if (!answered || !answered.id || !store.getState().ui.pending[bot.id]) return;
    const phase = botPhase(answered);
    if (phase !== 'stopped' && phase !== 'running') patchBot(bot.id, { ...answered, state: phase });
    else if ((waiting === 'starting' && phase === 'running') || (waiting === 'stopping' && phase === 'stopped')) patchBot(bot.id, answered);
    dispatch(observeBot(answered, 'answer'));
  };

  const start = async (bot: Bot) => {
    dispatch(ui.setPending({ id: bot.id, op: 'start' }));
    patchBot(bot.id, { state: 'starting', lasterror: null });
    dispatch(ui.showSpinner());
    const res = await startBot({ bot });
    dispatch(ui.hideSpinner());
    if ('error' in res && res.error) {
      dispatch(ui.clearPending(bot.id));
      patchBot(bot.id, { state: bot.state ?? 'stopped', botstatus: bot.botstatus });
      dispatch(ui.toast('error', 'Failed to start the bot.', describeError(res.error)));
      return;
    }
    applyAnswer(bot, res.data as Bot | undefined, 'starting');
  };

  const confirmStop = async () => {
    if (dialog?.kind !== 'stop') return;
    const bot = dialog.bot;
    const cancelAllOrders = cancelAll;
    setDialog(null);
    dispatch(ui.setPending({ id: bot.id, op: 'stop' }));
    patchBot(bot.id, { state: 'stopping' });
    dispatch(ui.showSpinner());
    const res = await stopBot({ bot, cancelAllOrders });
    dispatch(ui.hideSpinner());
    setCancelAll(false);
    if ('error' in res && res.error) {
      dispatch(ui.clearPending(bot.id));
      patchBot(bot.id, { state: bot.state ?? 'running', botstatus: bot.botstatus });
      dispatch(ui.toast('error', 'Failed to stop the bot.', describeError(res.error)));
      return;
    }
    applyAnswer(bot, res.data as Bot | undefined, 'stopping');
  };

  const confirmDelete = async () => {
    if (dialog?.kind !== 'delete') return;
    const bot = dialog.bot;
    setDialog(null);
    dispatch(ui.showSpinner());
    const res = await deleteBot({ id: bot.id, userId: user.uid });
    dispatch(ui.hideSpinner());
    if ('error' in res && res.error) dispatch(ui.toast('error', 'Error deleting bot!', describeError(res.error)));
    else dispatch(ui.toast('success', 'Bot successfully deleted!'));
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

      <div className="toolbar">
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
              onClick={() => setTab(t.type)}
            >
              {t.label} <span className="tab__count">{counts[t.type]}</span>
            </button>
          ))}
        </div>
        <button type="button" className="btn btn--primary" onClick={() => setDialog({ kind: 'create' })}>
          <Plus size={18} aria-hidden="true" /> Create bot
        </button>
      </div>

      <section role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} className="tabpanel">
        <h2 className="sr-only">{label}</h2>
        {isLoading ? (
          <div className="page-loading" role="status">
            <div className="spinner" aria-hidden="true" />
            <span className="sr-only">Loading bots…</span>
          </div>
        ) : ofType.length === 0 ? (
          <div className="empty card">
            <Rocket size={40} aria-hidden="true" />
            <p>{isError ? 'Your bots could not be loaded right now.' : `No ${tab.toLowerCase()} bots yet. Create one and launch it.`}</p>
          </div>
        ) : (
          <>
            <div className="bot-grid">
              {visible.map((bot) => (
                <BotCard
                  key={bot.id}
                  bot={bot}
                  onStart={(b) => void start(b)}
                  onStop={(b) => {
                    setCancelAll(false);
                    setDialog({ kind: 'stop', bot: b });
                  }}
                  onEdit={(b) => setDialog({ kind: 'edit', bot: b })}
                  onDelete={(b) => setDialog({ kind: 'delete', bot: b })}
                />
              ))}
            </div>
            <Pagination page={page} total={ofType.length} onPage={(p) => setPages((s) => ({ ...s, [tab]: p }))} label={`${label} pages`} />
          </>
        )}
      </section>

      {dialog?.kind === 'create' ? (
        <Modal title="Create new bot" onClose={() => setDialog(null)} wide>
          <BotForm botType={tab} onCancel={() => setDialog(null)} onDone={() => setDialog(null)} />
        </Modal>
      ) : null}
      {dialog?.kind === 'edit' ? (
        <Modal title="Edit bot" onClose={() => setDialog(null)} wide>
          <BotForm botType={dialog.bot.bottype} bot={dialog.bot} onCancel={() => setDialog(null)} onDone={() => setDialog(null)} />
        </Modal>
      ) : null}
      {dialog?.kind === 'delete' ? (
        <ConfirmDialog title="Delete Bot" question="Are you sure you want to Delete the Bot?" onNo={() => setDialog(null)} onYes={() => void confirmDelete()} />
      ) : null}
      {dialog?.kind === 'stop' ? (
        <ConfirmDialog title="Stop Bot" question="Are you sure you want to stop the Bot?" onNo={() => setDialog(null)} onYes={() => void confirmStop()}>
          <label className="check">
            <input type="checkbox" checked={cancelAll} onChange={(e) => setCancelAll(e.target.checked)} />
            <span>Cancel all orders</span>
          </label>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
