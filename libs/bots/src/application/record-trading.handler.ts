import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EVENT_STORE, EventStore, NewEvent, StreamNotFoundError, WrongExpectedVersionError } from '@gridrocket/event-store';
import { toNewEvents } from '@gridrocket/shared';
import { botStream } from '../domain/bot.events';
import { RecordTradingCommand, RecordTradingResult } from './bot.commands';

/**
 * Appends the runner's order, fill and profit events with the expected revision, idempotently:
 * events whose ids the stream already holds are left out, so a retry or a replay after a crash
 * never counts a fill or a profit twice. On a conflict it re-reads the stream and tries again.
 */
@CommandHandler(RecordTradingCommand)
export class RecordTradingHandler implements ICommandHandler<RecordTradingCommand, RecordTradingResult> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute(c: RecordTradingCommand): Promise<RecordTradingResult> {
    return recordTrading(this.store, c);
  }
}

/** The handler's logic without Nest (the runner's direct command bus uses it too). */
export async function recordTrading(store: EventStore, c: RecordTradingCommand, maxAttempts = 25): Promise<RecordTradingResult> {
  const stream = botStream(c.botId);
  const built = toNewEvents(c.events.map(({ type, data }) => ({ type, data })), c.ctx);
  let pending: NewEvent[] = built.map((e, i) => ({ ...e, id: c.events[i].id }));
  if (pending.length === 0) return { appended: [], revision: c.knownRevision };
  let revision: bigint | null | undefined = c.knownRevision ?? undefined;
  for (let attempt = 1; ; attempt++) {
    if (revision === undefined) {
      // Unknown head: read the stream, drop what it already holds.
      const seen = new Set<string>();
      revision = null;
      try {
        for (const e of await store.readStream(stream)) {
          seen.add(e.id);
          revision = e.revision;
        }
      } catch (err) {
        if (!(err instanceof StreamNotFoundError)) throw err;
      }
      pending = pending.filter((e) => !seen.has(e.id));
      if (pending.length === 0) return { appended: [], revision };
    }
    try {
      const result = await store.append(stream, pending, revision === null ? 'no_stream' : revision);
      return { appended: pending.map((e) => e.id), revision: result.nextExpectedRevision };
    } catch (err) {
      if (!(err instanceof WrongExpectedVersionError) || attempt >= maxAttempts) throw err;
      revision = undefined;
      await new Promise((r) => setTimeout(r, Math.random() * Math.min(20, attempt * 2)));
    }
  }
}
