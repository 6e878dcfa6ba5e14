import type { RecordedEvent } from '@gridrocket/event-store';
import type { Projection } from '@gridrocket/read-store';
import { BotStatus, LiveBot, evolveBot, initialBotState } from './domain/bot.decider';
import { emptyLedger } from './domain/bot-trading';
import { BotEvent } from './domain/bot.events';
import { BotSummary, BotView, botSummary, toBotView } from './domain/bot.view';

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
  status: BotStatus;
  /** The bot's folded state without its trading ledger; `profit` is the lifetime profit. */
  s: BotSummary;
}

export const BOT_LIST_COLLECTION = 'bots';

export const botListProjection: Projection<BotDoc> = {
  name: 'bot-list',
  collection: BOT_LIST_COLLECTION,
  indexes: ['userid'],
  filter: { streamPrefixes: ['bot-'] },
  docId: (event: RecordedEvent) => event.streamId.slice('bot-'.length),
  reduce(doc, event) {
    // The projection needs no ledger (it decides nothing): each event folds into an empty one.
    const before = doc ? ({ ...doc.s, kind: 'live', version: doc.s.version ?? 0, run: doc.s.run ?? -1, trading: emptyLedger() } as LiveBot) : initialBotState;
    const after = evolveBot(before, { type: event.type, data: event.data } as BotEvent);
    if (after.kind === 'absent') return undefined;
    if (after.kind === 'deleted') return null;
    const s = botSummary(after);
    if (doc && JSON.stringify(botSummary({ ...before, version: s.version } as LiveBot)) === JSON.stringify(s)) return undefined;
    const at = event.metadata.occurredAt;
    return { id: after.botId, userid: after.userId, createdat: doc?.createdat ?? at, updatedat: at, status: after.status, s };
  },
};

export function publicBot(doc: BotDoc): BotView {
  return toBotView(doc.s);
}
