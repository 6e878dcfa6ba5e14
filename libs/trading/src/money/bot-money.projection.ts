import type { RecordedEvent } from '@gridrocket/event-store';
import type { Projection } from '@gridrocket/read-store';
import { MONEY_EVENT_TYPES, moneyEntryFrom, type MoneyEntry } from './money-entries';

/**
 * The money view's read model (issue 29): one document per fact of a bot's stream that moves money or
 * time: each fill, each completed cycle (keyed by its number, so a trades page finds its cycles' profits
 * by id), each stop that closes the position at market, each start and stop. Built from the bot streams
 * like the bot list, idempotent by the stream revision, rebuildable from zero.
 */
export interface BotMoneyDoc {
  id: string;
  botid: string;
  kind: MoneyEntry['kind'];
  /** The event's stream revision (the order of the bot's history). */
  seq: number;
  e: MoneyEntry;
}

export const BOT_MONEY_COLLECTION = 'bot_money';

export const cycleDocId = (botId: string, cycle: number) => `${botId}:cycle:${cycle}`;

/** The entry an event makes, or null (money-entries.ts: the same reading as the figures' fold). */
export function moneyEntryOf(event: RecordedEvent): MoneyEntry | null {
  const at = Date.parse(event.metadata.occurredAt) || Date.parse(event.created) || 0;
  return moneyEntryFrom(event.type, event.data, Number(event.revision), at);
}

const TYPES = new Set<string>(MONEY_EVENT_TYPES);

export const botMoneyProjection: Projection<BotMoneyDoc> = {
  name: 'bot-money',
  collection: BOT_MONEY_COLLECTION,
  indexes: ['botid'],
  filter: { streamPrefixes: ['bot-'], eventTypes: [...TYPES] },
  docId(event) {
    if (!TYPES.has(event.type)) return null;
    const botId = event.streamId.slice('bot-'.length);
    if (event.type === 'CycleCompleted') return cycleDocId(botId, Number((event.data as { cycle: number }).cycle));
    if (event.type === 'BotStopRequested' && (event.data as { closePosition?: boolean }).closePosition !== true) return null;
    return `${botId}:${event.revision}`;
  },
  reduce(doc, event) {
    if (doc) return undefined; // a fact is written once
    const e = moneyEntryOf(event);
    if (!e) return undefined;
    const botid = event.streamId.slice('bot-'.length);
    return { id: e.kind === 'cycle' ? cycleDocId(botid, e.cycle) : `${botid}:${event.revision}`, botid, kind: e.kind, seq: e.seq, e };
  },
  source: { module: __filename, exportName: 'botMoneyProjection' },
};
