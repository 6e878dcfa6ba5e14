import { useEffect } from 'react';
import { api } from '../api/api';
import { apiPath } from '../api/contract';
import { request } from '../api/http';
import type { Bot } from '../api/types';
import { useAppDispatch, useAppSelector } from '../store/hooks';
import { observeBot } from '../store/lifecycle';
import { ui } from '../store/uiSlice';

export const POLL_MS = 1000;

/**
 * Fallback for a lost push connection (spec section 4): while the socket is down and a start or
 * stop is pending, read GET /api/bot-details/{id} every second. A failed poll stops the polling
 * for that bot and hides the spinner.
 */
export function useStatusPolling(userId: string) {
  const dispatch = useAppDispatch();
  const connected = useAppSelector((s) => s.ui.socketConnected);
  const pending = useAppSelector((s) => s.ui.pending);
  const ids = Object.keys(pending).sort().join(',');

  useEffect(() => {
    if (connected || !ids) return;
    let stopped = false;
    const tick = async () => {
      for (const id of ids.split(',')) {
        const res = await request<Bot>({ url: apiPath('/api/bot-details/{id}', { id }) });
        if (stopped) return;
        if (res.data && res.data.id) {
          const bot = res.data;
          dispatch(
            api.util.updateQueryData('getBots', userId, (draft) => {
              const i = draft.findIndex((b) => b.id === bot.id);
              if (i >= 0) draft[i] = bot;
            }),
          );
          dispatch(observeBot(bot, 'poll'));
        } else {
          dispatch(ui.clearPending(id));
          dispatch(ui.resetSpinner());
        }
      }
    };
    const timer = setInterval(() => void tick(), POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [connected, ids, userId, dispatch]);
}
