import type { RecordedEvent } from '@gridrocket/event-store';
import type { Projection } from '@gridrocket/read-store';
import { BotState, evolveBot, initialBotState } from './domain/bot.decider';
import { BotEvent } from './domain/bot.events';
import { BotView, toBotView } from './domain/bot.view';

/** The stored document: the view the GET routes serve, plus the folded state (`_s`). */
export type BotDoc = BotView & { createdat: string; updatedat: string; _s: BotState };

export const BOT_LIST_COLLECTION = 'bots';

export const botListProjection: Projection<BotDoc> = {
  name: 'bot-list',
  collection: BOT_LIST_COLLECTION,
  indexes: ['userid'],
  filter: { streamPrefixes: ['bot-'] },
  docId: (event: RecordedEvent) => event.streamId.slice('bot-'.length),
  reduce(doc, event) {
    const before = doc?._s ?? initialBotState;
    const after = evolveBot(before, { type: event.type, data: event.data } as BotEvent);
    if (after === before) return undefined;
    if (after.deleted) return null;
    const at = event.metadata.occurredAt;
    return { ...toBotView(after), createdat: doc?.createdat ?? at, updatedat: at, _s: after };
  },
};

export function publicBot(doc: BotDoc): BotView {
  const { _s, createdat: _c, updatedat: _u, ...view } = doc;
  return view;
}
