import type { RecordedEvent } from '@gridrocket/event-store';
import type { Projection } from '@gridrocket/read-store';
import type { BotEvent } from '../domain/bot.events';

/** What the auditors' list says of a bot's lifecycle: the bot list's statuses, and `deleted`, which it keeps. */
export type AuditBotStatus = 'stopped' | 'starting' | 'running' | 'stopping' | 'deleted';
export const AUDIT_BOT_STATUSES: readonly AuditBotStatus[] = ['stopped', 'starting', 'running', 'stopping', 'deleted'];

/**
 * One bot of any user, as the auditors' list shows it (issue 40, point 11). Unlike the bot list, a deleted
 * bot stays (status `deleted`): an auditor reads deleted bots' histories too. The fields it is filtered by
 * are at the top (the read stores query top-level fields). Nothing here is secret: no key, no signal secret.
 */
export interface AuditBotDoc {
  id: string;
  userid: string;
  exchange: string;
  symbol: string;
  bottype: string;
  status: AuditBotStatus;
  /** The bot's name where it has one (issue 40's bot names). */
  name: string | null;
  createdat: string;
  updatedat: string;
  deletedat: string | null;
}

export const AUDIT_BOTS_COLLECTION = 'audit_bots';

/** The lifecycle event's status, as evolveBot sets it (bot.decider.ts); undefined: no change. */
function statusAfter(type: BotEvent['type']): AuditBotStatus | undefined {
  switch (type) {
    case 'BotStartRequested':
      return 'starting';
    case 'BotStarted':
      return 'running';
    case 'BotStopRequested':
      return 'stopping';
    case 'BotStartFailed':
    case 'BotStopped':
    case 'BotFailed':
      return 'stopped';
    case 'BotDeleted':
      return 'deleted';
    default:
      return undefined;
  }
}

const nameOf = (data: unknown): string | null => {
  const name = (data as { name?: unknown } | null)?.name;
  return typeof name === 'string' && name.trim() ? name.trim() : null;
};

export const auditBotsProjection: Projection<AuditBotDoc> = {
  name: 'audit-bots',
  collection: AUDIT_BOTS_COLLECTION,
  indexes: ['userid', 'exchange', 'symbol', 'bottype', 'status', 'createdat'],
  filter: { streamPrefixes: ['bot-'] },
  docId: (event: RecordedEvent) => event.streamId.slice('bot-'.length),
  source: { module: __filename, exportName: 'auditBotsProjection' },
  reduce(doc, event) {
    const at = event.metadata.occurredAt;
    if (event.type === 'BotCreated') {
      if (doc) return undefined;
      const d = event.data as { botId: string; userId: string; botType: string; exchange: string; symbol: string };
      return { id: d.botId, userid: d.userId, exchange: d.exchange, symbol: d.symbol, bottype: d.botType, status: 'stopped', name: nameOf(d), createdat: at, updatedat: at, deletedat: null };
    }
    // a stream without its BotCreated is no bot; a deleted one changes no more; trading events change nothing
    // here (no write for each fill)
    if (!doc || doc.status === 'deleted') return undefined;
    const status = statusAfter(event.type as BotEvent['type']);
    if (!status && event.type !== 'BotEdited') return undefined;
    const next: AuditBotDoc = { ...doc };
    if (status && status !== doc.status) {
      next.status = status;
      next.updatedat = at;
      if (status === 'deleted') next.deletedat = at;
    }
    if (event.type === 'BotEdited') {
      const d = event.data as { exchange?: string };
      if (typeof d.exchange === 'string') next.exchange = d.exchange;
      const name = nameOf(d);
      if (name) next.name = name;
      next.updatedat = at;
    }
    return next.status === doc.status && next.exchange === doc.exchange && next.name === doc.name ? undefined : next;
  },
};
