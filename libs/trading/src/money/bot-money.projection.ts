import type { RecordedEvent } from '@gridrocket/event-store';
import type { Projection } from '@gridrocket/read-store';
import type { MoneyEntry } from './money';

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

const ROLE = { OrderFilled: 'buy', TakeProfitFilled: 'take-profit', StopLossTriggered: 'stop-loss' } as const;

/** The entry an event makes, or null. */
export function moneyEntryOf(event: RecordedEvent): MoneyEntry | null {
  const d = event.data as Record<string, any>;
  const seq = Number(event.revision);
  const at = Date.parse(event.metadata.occurredAt) || Date.parse(event.created) || 0;
  switch (event.type) {
    case 'OrderFilled':
    case 'TakeProfitFilled':
    case 'StopLossTriggered':
      return {
        kind: 'fill',
        seq,
        at: typeof d.at === 'number' ? d.at : at,
        fillId: String(d.fillId),
        role: ROLE[event.type],
        side: d.side === 'sell' ? 'sell' : 'buy',
        price: Number(d.price),
        amount: Number(d.amount),
        ...(typeof d.netAmount === 'number' ? { netAmount: d.netAmount } : {}),
        fee: Number(d.fee) || 0,
        ...(typeof d.feeAsset === 'string' ? { feeAsset: d.feeAsset, feeCost: Number(d.feeCost) } : {}),
        cycle: Number(d.cycle),
        run: Number(d.run),
        profit: event.type === 'TakeProfitFilled' ? Number(d.profit) : event.type === 'StopLossTriggered' ? -Number(d.loss) : null,
      };
    case 'CycleCompleted':
      return { kind: 'cycle', seq, at, cycle: Number(d.cycle), run: Number(d.run), profit: Number(d.profit) };
    case 'BotStopRequested':
      return d.closePosition === true ? { kind: 'drop', seq, at } : null;
    case 'BotStarted':
    case 'BotResumed':
      return { kind: 'run', seq, at, running: true };
    case 'BotStopped':
    case 'BotFailed':
      return { kind: 'run', seq, at, running: false };
    default:
      return null;
  }
}

const TYPES = new Set(['OrderFilled', 'TakeProfitFilled', 'StopLossTriggered', 'CycleCompleted', 'BotStopRequested', 'BotStarted', 'BotResumed', 'BotStopped', 'BotFailed']);

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
