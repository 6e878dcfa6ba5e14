import type { RecordedEvent } from '@gridrocket/event-store';
import type { Projection } from '@gridrocket/read-store';
import { BotState, evolveBot, initialBotState } from './domain/bot.decider';
import { BotEvent } from './domain/bot.events';
import { BotView, toBotView } from './domain/bot.view';

/**
 * The stored document: the folded state, plus the fields the list is queried and
 * ordered by. The lowercase view is derived from the state when it is read.
 */
export interface BotDoc {
  id: string;
  userid: string;
  createdat: string;
  updatedat: string;
  /** The lifecycle status, at the top so it can be counted and queried. */
  status: BotState['status'];
  s: BotState;
}

export const BOT_LIST_COLLECTION = 'bots';

export const botListProjection: Projection<BotDoc> = {
  name: 'bot-list',
  collection: BOT_LIST_COLLECTION,
  indexes: ['userid'],
  filter: { streamPrefixes: ['bot-'] },
  docId: (event: RecordedEvent) => event.streamId.slice('bot-'.length),
  reduce(doc, event) {
    const before = doc?.s ?? initialBotState;
    const after = evolveBot(before, { type: event.type, data: event.data } as BotEvent);
    if (after === before) return undefined;
    if (after.deleted) return null;
    const at = event.metadata.occurredAt;
    return { id: after.botId!, userid: after.userId!, createdat: doc?.createdat ?? at, updatedat: at, status: after.status, s: after };
  },
};

export function publicBot(doc: BotDoc): BotView {
  return toBotView(doc.s);
}
