import { EventStore } from '@gridrocket/event-store';
import { CommandContext } from '../command-context';
import { executeCommand, loadState } from '../event-sourced.repository';
import { AllottedKind, SlotFreedReason, allotmentDecider, allotmentStream, reclaimCandidates } from './allotment.decider';
import { QuotaExceededError } from './quota';

/** Many creates at once all append to one allotment: decide again that many times if need be. */
const TAKE_CONFLICT = { onConflict: 'redecide', maxAttempts: 200 } as const;

/** A slot younger than this is never reclaimed: its create may still be under way. */
export const RECLAIM_GRACE_MS = 60_000;

export interface TakeSlotOptions {
  /** The ids the user holds today, for an allotment that has no stream yet (read once, at its first use). */
  seed: () => Promise<string[]>;
  /**
   * Whether the thing an id stands for is gone (deleted, or never created): asked, when the limit is
   * reached, of every slot old enough, so a slot that a crash left taken (between a create's slot and
   * its write, or a delete and its freeing) is found and freed.
   */
  isGone?: (id: string) => Promise<boolean>;
}

/**
 * Takes and frees the slots of a user's allotment (`quota-<uid>-<kind>`, allotment.decider.ts) on the
 * event store: the limit is decided on the allotment's stream and appended with its expected revision,
 * so it holds across requests and processes whatever the read model shows. Within one process the
 * takes of one allotment queue up (no storm of conflicts); across processes the revision check decides.
 */
export class AllotmentLedger {
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(private readonly store: EventStore) {}

  /**
   * Takes the slot of `id` or refuses with QuotaExceededError. `taken` is false when `id` held its slot
   * already (a retry of the same create): only a slot taken now is the caller's to free on failure.
   */
  take(kind: AllottedKind, ctx: CommandContext, id: string, limit: number, options: TakeSlotOptions): Promise<{ taken: boolean }> {
    return this.queued(allotmentStream(ctx.userId, kind), () => this.takeNow(kind, ctx, id, limit, options));
  }

  /** Frees the slots of these ids (those not held are ignored). */
  async free(kind: AllottedKind, ctx: CommandContext, ids: readonly string[], reason: SlotFreedReason): Promise<void> {
    await this.queued(allotmentStream(ctx.userId, kind), () =>
      executeCommand(this.store, allotmentStream(ctx.userId, kind), allotmentDecider, { type: 'FreeSlots', kind, ids, reason }, quotaCtx(ctx), TAKE_CONFLICT),
    );
  }

  private async takeNow(kind: AllottedKind, ctx: CommandContext, id: string, limit: number, options: TakeSlotOptions, reclaimed = false): Promise<{ taken: boolean }> {
    const stream = allotmentStream(ctx.userId, kind);
    const current = await loadState(this.store, stream, allotmentDecider);
    const seed = current ? undefined : await options.seed();
    const now = (ctx.now ?? new Date()).toISOString();
    try {
      const r = await executeCommand(this.store, stream, allotmentDecider, { type: 'TakeSlot', kind, id, limit, now, seed }, quotaCtx(ctx), TAKE_CONFLICT);
      return { taken: r.events.length > 0 };
    } catch (err) {
      if (!(err instanceof QuotaExceededError) || reclaimed || !options.isGone) throw err;
      const state = await loadState(this.store, stream, allotmentDecider);
      const gone: string[] = [];
      for (const held of state ? reclaimCandidates(state.state, now, RECLAIM_GRACE_MS) : []) if (await options.isGone(held)) gone.push(held);
      if (gone.length === 0) throw err;
      await executeCommand(this.store, stream, allotmentDecider, { type: 'FreeSlots', kind, ids: gone, reason: 'reclaimed' }, quotaCtx(ctx), TAKE_CONFLICT);
      return this.takeNow(kind, ctx, id, limit, options, true);
    }
  }

  private queued<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.queues.get(key) ?? Promise.resolve();
    const mine = before.then(work, work);
    const tail = mine.catch(() => undefined);
    this.queues.set(key, tail);
    void tail.then(() => {
      if (this.queues.get(key) === tail) this.queues.delete(key);
    });
    return mine;
  }
}

const ledgers = new WeakMap<EventStore, AllotmentLedger>();

/** The one ledger of an event store (its in-process queues are per store). */
export function allotmentLedgerOf(store: EventStore): AllotmentLedger {
  let l = ledgers.get(store);
  if (!l) ledgers.set(store, (l = new AllotmentLedger(store)));
  return l;
}

/** The allotment's events carry who asked, never a runner's fence. */
const quotaCtx = (ctx: CommandContext): CommandContext => ({ ...ctx, fence: null });
