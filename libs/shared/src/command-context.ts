import { randomUUID } from 'node:crypto';
import { v7 as timeOrderedUuid } from 'uuid';
import type { EventMetadata, Fence, NewEvent } from '@gridrocket/event-store';

/** Who asks for a change and why: becomes every resulting event's metadata. */
export interface CommandContext {
  userId: string;
  correlationId: string;
  causationId?: string | null;
  /** Overrides the clock (tests, replays). */
  now?: Date;
  /**
   * The appends of this command are refused (FencedError) unless the fence's stream is still at its
   * revision: a runner's ownership epoch (event-store fence.ts). Recorded in the events' metadata as
   * `fence: {streamId, revision}` (revision as a decimal string), so the log itself says under which
   * ownership epoch each runner append was made: an auditor (and test/scale-out-kafka.spec.ts) can
   * check that on a bot's stream the epochs never go back, i.e. that no two runners wrote for it at once.
   */
  fence?: Fence | null;
}

export const SCHEMA_VERSION = 1;

/**
 * A log message for the request or command it is written for: the JSON line then carries its
 * `correlationId` (`new Logger('X').warn(correlated('…', ctx.correlationId))`). Passed explicitly at
 * each call (issue 16): an AsyncLocalStorage carried it before, which on Node 20 puts a hook on every
 * promise of the process.
 */
export function correlated(msg: string, correlationId: string | undefined): string | { msg: string; correlationId: string } {
  return correlationId ? { msg, correlationId } : msg;
}

export function systemContext(userId = 'system', causationId: string | null = null, correlationId = randomUUID()): CommandContext {
  return { userId, correlationId, causationId };
}

/**
 * Event ids are time-ordered UUIDs (v7): the event store's unique index on ids then grows at its end
 * instead of at a random page per event, so a commit of a few hundred appends writes a few pages of
 * that index, not hundreds (issue 16: with the WAL checkpoints off the writer thread, its commit of a fleet
 * tick went from ~20 to ~5 ms).
 */
export function toNewEvents<E extends { type: string; data: unknown }>(events: E[], ctx: CommandContext): NewEvent[] {
  const occurredAt = (ctx.now ?? new Date()).toISOString();
  return events.map((e) => {
    const metadata: EventMetadata = {
      userId: ctx.userId,
      correlationId: ctx.correlationId,
      causationId: ctx.causationId ?? null,
      occurredAt,
      schemaVersion: SCHEMA_VERSION,
    };
    if (ctx.fence) metadata.fence = { streamId: ctx.fence.streamId, revision: String(ctx.fence.revision) };
    return { id: timeOrderedUuid(), type: e.type, data: e.data, metadata };
  });
}
