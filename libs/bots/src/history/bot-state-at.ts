import type { RecordedEvent } from '@gridrocket/event-store';
import { BotState, allowedNext, evolveBot, initialBotState } from '../domain/bot.decider';
import type { BotEvent, BotEventType } from '../domain/bot.events';
import { BotSummary, BotView, botSummary, toBotView } from '../domain/bot.view';
import { eventTime } from './history.format';

export type BotStateSummary = { exists: boolean; deleted: boolean } & Partial<BotSummary>;

function summarize(state: BotState): BotStateSummary {
  if (state.kind === 'absent') return { exists: false, deleted: false };
  if (state.kind === 'deleted') return { exists: true, deleted: true, botId: state.botId, userId: state.userId };
  return { exists: true, deleted: false, ...botSummary(state) };
}

export interface BotStateAt {
  botId: string;
  at: string;
  /** Revision and position of the last event folded (null: none yet). */
  revision: number | null;
  position: number | null;
  eventsApplied: number;
  /** The folded state as the API has always shown it (exists/deleted flags, no trading ledger). */
  state: BotStateSummary;
  /** The bot as GET /bot-details showed it then; null before it was created. */
  view: BotView | null;
  /** The lifecycle events that could have followed. */
  next: BotEventType[];
}

/** Folds the events that had happened by `at` (in stream order; stops at the first later one). Pure. */
export function botStateAt(botId: string, events: RecordedEvent[], at: Date): BotStateAt {
  let state = initialBotState;
  let last: RecordedEvent | null = null;
  let applied = 0;
  const limit = at.getTime();
  for (const e of events) {
    if (eventTime(e) > limit) break;
    state = evolveBot(state, { type: e.type, data: e.data } as BotEvent);
    last = e;
    applied++;
  }
  return {
    botId,
    at: at.toISOString(),
    revision: last ? Number(last.revision) : null,
    position: last ? Number(last.position) : null,
    eventsApplied: applied,
    state: summarize(state),
    view: state.kind === 'live' ? toBotView(state) : null,
    next: allowedNext(state),
  };
}
