import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { EVENT_STORE, EventStore, Subscription } from '@gridrocket/event-store';
import { READ_STORE, ReadStore } from '@gridrocket/read-store';
import { BOT_LIST_COLLECTION, BOT_TRADING_EVENTS, BotDoc } from '@gridrocket/bots';
import { PUSH, PushPort } from '@gridrocket/shared/http';

/** Fills come in bursts: one push per bot per this many ms is enough for a screen. */
const COALESCE_MS = 150;
/** Owners remembered (a bot's owner never changes); beyond this the least recently used is read again. */
const OWNERS_KEPT = 10_000;

/**
 * Tells the owner's sockets `bot:activity {id, type}` when the runner records an order, a fill,
 * a profit or a cycle of their bot, so the bot page, the cards and the chart refresh live. The
 * lifecycle (start, stop, edit) is pushed by the bot list (bot:status, bot:changed).
 */
@Injectable()
export class BotActivityPush implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('BotActivityPush');
  private sub: Subscription | null = null;
  private loop: Promise<void> | null = null;
  /** bot id → owner, most recently used last; a deleted bot is forgotten, and at most `ownersKept` kept. */
  private readonly owners = new Map<string, string>();
  ownersKept = OWNERS_KEPT;
  private readonly pending = new Map<string, { type: string; timer: NodeJS.Timeout }>();

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(PUSH) private readonly push: PushPort,
  ) {}

  onModuleInit() {
    const sub = this.events.subscribeToAll({ fromPosition: 'end', filter: { streamPrefixes: ['bot-'], eventTypes: [...BOT_TRADING_EVENTS, 'BotDeleted'] } });
    this.sub = sub;
    this.loop = (async () => {
      try {
        for await (const e of sub) {
          const id = e.streamId.slice('bot-'.length);
          if (e.type === 'BotDeleted') this.forget(id);
          else this.schedule(id, e.type);
        }
      } catch (err) {
        this.logger.warn(`activity subscription ended: ${(err as Error).message}`);
      }
    })();
  }

  private schedule(id: string, type: string) {
    const queued = this.pending.get(id);
    if (queued) {
      queued.type = type;
      return;
    }
    const entry = { type, timer: setTimeout(() => void this.flush(id), COALESCE_MS) };
    entry.timer.unref?.();
    this.pending.set(id, entry);
  }

  /** A deleted bot: nothing more to tell about it. */
  private forget(id: string) {
    const queued = this.pending.get(id);
    if (queued) clearTimeout(queued.timer);
    this.pending.delete(id);
    this.owners.delete(id);
  }

  private async flush(id: string) {
    const entry = this.pending.get(id);
    this.pending.delete(id);
    if (!entry) return;
    try {
      const owner = await this.ownerOf(id);
      if (owner) this.push.toUser(owner, 'bot:activity', { id, type: entry.type });
    } catch (err) {
      this.logger.warn(`activity push for ${id}: ${(err as Error).message}`);
    }
  }

  private async ownerOf(id: string): Promise<string | null> {
    const known = this.owners.get(id);
    if (known) {
      this.owners.delete(id); // to the most recently used end
      this.owners.set(id, known);
      return known;
    }
    const doc = await this.reads.get<BotDoc>(BOT_LIST_COLLECTION, id);
    if (!doc) return null;
    this.owners.set(id, doc.userid);
    if (this.owners.size > this.ownersKept) this.owners.delete(this.owners.keys().next().value!);
    return doc.userid;
  }

  async beforeApplicationShutdown() {
    for (const { timer } of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
    await this.sub?.close();
    await this.loop;
  }
}
