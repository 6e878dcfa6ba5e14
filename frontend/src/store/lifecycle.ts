import type { ThunkAction, UnknownAction } from '@reduxjs/toolkit';
import { botPhase, type Bot } from '../api/types';
import { ui, type UiState } from './uiSlice';

type Thunk = ThunkAction<void, { ui: UiState }, unknown, UnknownAction>;

/**
 * Looks at a fresh copy of a bot (from a push, a poll or a start/stop answer) and, if we were
 * waiting for its start or stop, announces the outcome (spec section 4 and 8).
 */
export function observeBot(bot: Bot, source: 'push' | 'poll' | 'answer' = 'push'): Thunk {
  return (dispatch, getState) => {
    const op = getState().ui.pending[bot.id];
    if (!op) return;
    const phase = botPhase(bot);
    if (op === 'start') {
      if (phase === 'running') {
        dispatch(ui.clearPending(bot.id));
        dispatch(ui.toast('success', 'Bot successfully started!'));
      } else if (phase === 'stopped' && bot.lasterror && source !== 'answer') {
        // the answer to the start call itself may predate the start (read model lag): only a
        // later push or poll that shows the bot stopped with a reason counts as a failed start
        dispatch(ui.clearPending(bot.id));
        dispatch(ui.toast('error', 'Failed to start the bot.', bot.lasterror || undefined));
      }
    } else if (op === 'stop' && phase === 'stopped') {
      dispatch(ui.clearPending(bot.id));
      dispatch(ui.toast('success', 'Bot successfully stopped!'));
    }
  };
}
