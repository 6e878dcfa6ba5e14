import { Get, Inject, Param, Query } from '@nestjs/common';
import { EVENT_STORE, EventStore, StreamNotFoundError } from '@gridrocket/event-store';
import { READ_STORE, ReadStore, Where } from '@gridrocket/read-store';
import { EXCHANGES, ForbiddenError, NotFoundError, ValidationError, normalSymbol } from '@gridrocket/shared';
import { CurrentUser, SessionUser, pageOf } from '@gridrocket/shared/http';
import { SessionController } from '@gridrocket/identity/nest';
import { USERS, UserDoc } from '@gridrocket/identity';
import { BOT_NOT_FOUND, BotState, evolveBot, initialBotState } from '../domain/bot.decider';
import type { BotEvent } from '../domain/bot.events';
import { botStream } from '../domain/bot.events';
import { BotView, toBotView } from '../domain/bot.view';
import { AUDIT_BOTS_COLLECTION, AUDIT_BOT_STATUSES, AuditBotDoc, AuditBotStatus } from './audit-bots.projection';
import { AuditorPolicy, normalizeEmail } from './auditor.policy';

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const AUDITORS_ONLY = "Only auditors can list every user's bots";

/** A bot of the auditors' list: the projection's fields and its owner's address (null: no such user document). */
export type AuditBotRow = Omit<AuditBotDoc, never> & { owner: string | null };

export interface AuditBotFilter {
  owner?: string;
  exchange?: string;
  botType?: string;
  symbol?: string;
  status?: AuditBotStatus;
}

/** The list's filters from the query string: 400 with a message per field. */
export function parseAuditFilter(q: Record<string, unknown>): AuditBotFilter {
  const errors: { field: string; message: string }[] = [];
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : v === undefined ? '' : null);
  const out: AuditBotFilter = {};
  const owner = text(q.owner);
  if (owner === null || (owner && owner.length > 254)) errors.push({ field: 'owner', message: "owner must be a user's id or email address" });
  else if (owner) out.owner = owner;
  const exchange = text(q.exchange);
  if (exchange) {
    if (!(EXCHANGES as readonly string[]).includes(exchange)) errors.push({ field: 'exchange', message: `exchange must be one of ${EXCHANGES.join(', ')}` });
    else out.exchange = exchange;
  } else if (exchange === null) errors.push({ field: 'exchange', message: `exchange must be one of ${EXCHANGES.join(', ')}` });
  const botType = text(q.botType);
  if (botType) {
    if (botType !== 'Spot' && botType !== 'Futures') errors.push({ field: 'botType', message: 'botType must be Spot or Futures' });
    else out.botType = botType;
  } else if (botType === null) errors.push({ field: 'botType', message: 'botType must be Spot or Futures' });
  const symbol = text(q.symbol);
  if (symbol) {
    const s = normalSymbol(symbol);
    if (!s) errors.push({ field: 'symbol', message: 'symbol must be a pair such as BTCUSDT' });
    else out.symbol = s;
  } else if (symbol === null) errors.push({ field: 'symbol', message: 'symbol must be a pair such as BTCUSDT' });
  const status = text(q.status);
  if (status) {
    if (!(AUDIT_BOT_STATUSES as readonly string[]).includes(status)) errors.push({ field: 'status', message: `status must be one of ${AUDIT_BOT_STATUSES.join(', ')}` });
    else out.status = status as AuditBotStatus;
  } else if (status === null) errors.push({ field: 'status', message: `status must be one of ${AUDIT_BOT_STATUSES.join(', ')}` });
  if (errors.length) throw new ValidationError(errors);
  return out;
}

/**
 * The auditors' way in (issue 40, point 11): every user's bots, filtered and a page at a time, and one bot
 * read-only. Auditors only (a verified AUDITOR_EMAILS address, docs/streaming.md "Auditors"): anyone else
 * gets 403. Read-only like every auditor request (AuditorGuard refuses their changes); nothing secret is
 * here (no key, no signal secret: the bot's view and its owner's address). The bot's history and state at
 * a time are the history routes (`GET /api/bots/{id}/history`, `/state`), which auditors read already.
 */
@SessionController('audit')
export class AuditController {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly auditors: AuditorPolicy,
  ) {}

  private assertAuditor(user: SessionUser): void {
    if (!this.auditors.isAuditor(user)) throw new ForbiddenError(AUDITORS_ONLY);
  }

  /** Whether the signed-in user reads as an auditor (the dashboard shows the Audit section then). */
  @Get('me')
  me(@CurrentUser() user: SessionUser): { auditor: boolean; auditorAddress: boolean } {
    return { auditor: this.auditors.isAuditor(user), auditorAddress: this.auditors.isAuditorAddress(user.email) };
  }

  private async owners(uids: string[]): Promise<Map<string, string>> {
    const users = await this.reads.getMany<UserDoc>(USERS, [...new Set(uids)]);
    const out = new Map<string, string>();
    for (const [uid, stored] of users) if (stored.doc) out.set(uid, stored.doc.email);
    return out;
  }

  /** `owner` is a user's id or address: the user's id, or null when no user has it. */
  private async ownerUid(owner: string): Promise<string | null> {
    if (!owner.includes('@')) return owner;
    const email = normalizeEmail(owner);
    const found = await this.reads.find<UserDoc>(USERS, { email }, { limit: 1 });
    return found[0]?.uid ?? null;
  }

  /** Every user's bots, newest first: `{items, total, limit, offset}`; filters `owner`, `exchange`, `botType`, `symbol`, `status`. */
  @Get('bots')
  async list(@Query() query: Record<string, unknown>, @CurrentUser() user: SessionUser): Promise<{ items: AuditBotRow[]; total: number; limit: number; offset: number }> {
    this.assertAuditor(user);
    const { limit, offset } = pageOf(query);
    const filter = parseAuditFilter(query);
    const where: Where = {};
    if (filter.owner) {
      const uid = await this.ownerUid(filter.owner);
      if (uid === null) return { items: [], total: 0, limit, offset };
      where.userid = uid;
    }
    if (filter.exchange) where.exchange = filter.exchange;
    if (filter.botType) where.bottype = filter.botType;
    if (filter.symbol) where.symbol = filter.symbol;
    if (filter.status) where.status = filter.status;
    const [docs, total] = await Promise.all([
      this.reads.find<AuditBotDoc>(AUDIT_BOTS_COLLECTION, where, { orderBy: { field: 'createdat', direction: 'desc' }, limit, offset }),
      this.reads.count(AUDIT_BOTS_COLLECTION, where),
    ]);
    const owners = await this.owners(docs.map((d) => d.userid));
    return { items: docs.map((d) => ({ ...d, owner: owners.get(d.userid) ?? null })), total, limit, offset };
  }

  /**
   * One bot, read-only: its row of the list and the bot as its owner's page shows it (`view`; a deleted
   * bot's is the last one it had before it was deleted). 404 for a missing bot.
   */
  @Get('bots/:id')
  async one(@Param('id') id: string, @CurrentUser() user: SessionUser): Promise<{ bot: AuditBotRow; view: BotView | null }> {
    this.assertAuditor(user);
    if (typeof id !== 'string' || !ID.test(id)) throw new NotFoundError(BOT_NOT_FOUND);
    const botId = id.toLowerCase();
    const doc = await this.reads.get<AuditBotDoc>(AUDIT_BOTS_COLLECTION, botId);
    if (!doc) throw new NotFoundError(BOT_NOT_FOUND);
    let state: BotState = initialBotState;
    let lastLive: BotState | null = null;
    try {
      for (const e of await this.events.readStream(botStream(botId))) {
        state = evolveBot(state, { type: e.type, data: e.data } as BotEvent);
        if (state.kind === 'live') lastLive = state;
      }
    } catch (err) {
      if (!(err instanceof StreamNotFoundError)) throw err;
    }
    const owners = await this.owners([doc.userid]);
    return { bot: { ...doc, owner: owners.get(doc.userid) ?? null }, view: lastLive && lastLive.kind === 'live' ? toBotView(lastLive) : null };
  }
}
