import type { RecordedEvent } from '@gridrocket/event-store';
import { BotState, allowedNext, evolveBot, initialBotState } from '../domain/bot.decider';
import type { BotEvent, BotEventType } from '../domain/bot.events';
import { BotView, toBotView } from '../domain/bot.view';
import { eventTime } from './history.format';

export interface BotStateAt {
  botId: string;
  at: string;
  /** Revision and position of the last event folded (null: none yet). */
  revision: number | null;
  position: number | null;
  eventsApplied: number;
  state: BotState;
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
    state,
    view: state.exists && state.config ? toBotView(state) : null,
    next: allowedNext(state),
  };
}
