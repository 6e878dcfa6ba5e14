import { useState, type ReactNode } from 'react';
import { useStore } from 'react-redux';
import { api, useDeleteBotMutation, useStartBotMutation, useStopBotMutation } from '../api/api';
import { describeError } from '../api/http';
import { botPhase, type Bot, type BotState } from '../api/types';
import { ConfirmDialog, Modal } from '../components/Modal';
import type { RootState } from '../store/store';
import { useAppDispatch } from '../store/hooks';
import { observeBot } from '../store/lifecycle';
import { ui } from '../store/uiSlice';
import { BotForm } from './BotForm';

type Dialog =
  | { kind: 'edit'; bot: Bot }
  | { kind: 'delete'; bot: Bot }
  | { kind: 'stop'; bot: Bot }
  /** A start refused because the bot holds a position (issue 29): the server's words, to confirm. */
  | { kind: 'position'; bot: Bot; message: string }
  | null;

/**
 * A reason that the Security page fixes: a start refused for want of an API key (the server's 409 says
 * so), or a bot that failed because the venue rejected its key (the runner's reason, issue 29).
 */
export const isNoKeyRefusal = (message: string) => /No API key for|rejected the bot's API key/i.test(message);

/** A start refused because the bot holds a position: a 409 saying what it holds (issue 29, Found 2). */
export const isPositionRefusal = (error: { status?: number; message?: string } | undefined) =>
  error?.status === 409 && /^The bot holds /.test(error.message ?? '');

/** The server's refusal as the trader reads it: without the API parameter's name. */
export const positionNotice = (message: string) => message.replace(/\s*\(confirmPosition=true\)/, '');

/**
 * Start (confirming a start of a bot that holds a position), stop (with the cancel-all choice and closing the position: futures reduce-only, spot a market sell), edit and delete of a bot, with their dialogs and
 * toasts (spec sections 4 and 8): shared by the bots page and the bot page.
 */
export function useBotActions(userId: string, options: { onDeleted?: (bot: Bot) => void } = {}) {
  const dispatch = useAppDispatch();
  const store = useStore<RootState>();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [cancelAll, setCancelAll] = useState(false);
  /** Beyond the spec, default off: close the position at market with the stop (futures: issue 10; spot: sell what the bot holds, issue 29). */
  const [closePosition, setClosePosition] = useState(false);
  const [startBot] = useStartBotMutation();
  const [stopBot] = useStopBotMutation();
  const [deleteBot] = useDeleteBotMutation();

  /** Shows a bot's transitional state until the push (or a poll) says how it ended. */
  const patchBot = (id: string, patch: Partial<Bot>) =>
    dispatch(
      api.util.updateQueryData('getBots', userId, (draft) => {
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

  const start = async (bot: Bot, confirmPosition = false) => {
    dispatch(ui.setPending({ id: bot.id, op: 'start' }));
    patchBot(bot.id, { state: 'starting', lasterror: null });
    dispatch(ui.showSpinner());
    const res = await startBot({ bot, ...(confirmPosition ? { confirmPosition: true } : {}) });
    dispatch(ui.hideSpinner());
    if ('error' in res && res.error) {
      dispatch(ui.clearPending(bot.id));
      if (!confirmPosition && isPositionRefusal(res.error)) {
        // not a failure: the bot holds a position, and the trader decides (issue 29)
        patchBot(bot.id, { state: bot.state ?? 'stopped', botstatus: bot.botstatus, lasterror: bot.lasterror ?? null });
        setDialog({ kind: 'position', bot, message: positionNotice(res.error.message ?? '') });
        return;
      }
      const reason = describeError(res.error);
      patchBot(bot.id, { state: bot.state ?? 'stopped', botstatus: bot.botstatus, lasterror: reason || bot.lasterror || null });
      dispatch(ui.toast('error', 'Failed to start the bot.', reason));
      return;
    }
    applyAnswer(bot, res.data as Bot | undefined, 'starting');
  };

  const confirmStop = async () => {
    if (dialog?.kind !== 'stop') return;
    const bot = dialog.bot;
    const cancelAllOrders = cancelAll;
    const closeAtMarket = closePosition;
    setDialog(null);
    dispatch(ui.setPending({ id: bot.id, op: 'stop' }));
    patchBot(bot.id, { state: 'stopping' });
    dispatch(ui.showSpinner());
    const res = await stopBot({ bot, cancelAllOrders, closePosition: closeAtMarket });
    dispatch(ui.hideSpinner());
    setCancelAll(false);
    setClosePosition(false);
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
    const res = await deleteBot({ id: bot.id, userId });
    dispatch(ui.hideSpinner());
    if ('error' in res && res.error) dispatch(ui.toast('error', 'Error deleting bot!', describeError(res.error)));
    else {
      dispatch(ui.toast('success', 'Bot successfully deleted!'));
      options.onDeleted?.(bot);
    }
  };

  const dialogs: ReactNode = (
    <>
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
          <label className="check">
            <input type="checkbox" checked={closePosition} onChange={(e) => setClosePosition(e.target.checked)} />
            <span>{dialog.bot.bottype === 'Futures' ? 'Close the position at market' : 'Sell what the bot holds at market'}</span>
          </label>
        </ConfirmDialog>
      ) : null}
      {dialog?.kind === 'position' ? (
        <Modal title="Start Bot" onClose={() => setDialog(null)} role="alertdialog">
          <p className="confirm__question">{dialog.message}</p>
          <div className="actions">
            <button type="button" className="btn btn--ghost" onClick={() => setDialog(null)} data-autofocus>
              Cancel
            </button>
            <button
              type="button"
              className="btn btn--primary"
              onClick={() => {
                const bot = dialog.bot;
                setDialog(null);
                void start(bot, true);
              }}
            >
              Start anyway
            </button>
          </div>
        </Modal>
      ) : null}
    </>
  );

  return {
    start: (bot: Bot) => void start(bot),
    stop: (bot: Bot) => {
      setCancelAll(false);
      setClosePosition(false);
      setDialog({ kind: 'stop', bot });
    },
    edit: (bot: Bot) => setDialog({ kind: 'edit', bot }),
    remove: (bot: Bot) => setDialog({ kind: 'delete', bot }),
    dialogs,
  };
}
