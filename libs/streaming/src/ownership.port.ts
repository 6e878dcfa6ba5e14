import type { Fence } from '@gridrocket/event-store';

/**
 * Which runner runs which bot. Bots are spread over a fixed number of
 * partitions by id; a runner owns a set of partitions at a time and runs the
 * bots that fall in them. The embedded adapter owns everything; the lease
 * adapter (lease.ownership.ts: leases in the event store, issue 41) spreads
 * partitions over the live runners of one group and moves them when runners
 * come and go.
 *
 * What a runner does with it:
 * - `onAssigned(p)`: resume the running bots whose `partitionOf(id)` is in p
 *   (the crash-safe resume: reconcile open orders with the exchange, then
 *   carry on), and from now on act on their lifecycle requests.
 * - `onRevoked(p)`: let those bots go WITHOUT cancelling their orders (the next
 *   owner picks the orders up); append nothing more for them.
 * - before every exchange call or append for a bot, check `owns(botId)`: it
 *   turns false synchronously the moment a hand-over begins, before
 *   `onRevoked` is even called, so a revoked runner stops at once.
 *
 * - append with `ownership.fenceFor(botId)` as the fence (event-store fence.ts): once another
 *   runner has claimed the partition, the event store refuses the deposed runner's appends
 *   (FencedError), even those already on their way (FencedOwnership, fenced.ownership.ts).
 *
 * Callbacks are serialised: the next one starts after the previous one
 * resolved. A revocation of everything happens on `stop()`.
 */
export interface OwnershipListener {
  onAssigned(partitions: number[]): Promise<void> | void;
  /** `reason` (where the adapter knows it): see RevokeReason. */
  onRevoked(partitions: number[], reason?: RevokeReason): Promise<void> | void;
}

/**
 * Why partitions were taken away: `lapsed`, this runner's lease ran out (it cannot reach the store its
 * lease lives in): nobody runs these bots until it or another runner claims them, so they are paused;
 * `handover`, given to another live runner (balancing); `lost`, another runner claimed them; `stopped`.
 */
export type RevokeReason = 'lapsed' | 'handover' | 'lost' | 'stopped';

/** What an adapter says about itself (runner /health and /metrics). */
export interface OwnershipStatus {
  kind: string;
  /** True while this runner may act for the partitions it owns (started and, where there is one, its lease valid). */
  trading: boolean;
  partitions: number;
  owned: number[];
  /** The epoch held on each owned partition. */
  epochs: Record<number, string>;
  /** Partitions held when the lease lapsed and not yet claimed again by anyone this runner has seen. */
  lapsed: number[];
  /** The lease (null where there is none): its length, ms left, ms since the renewal it runs from was sent. */
  lease: { ms: number; leftMs: number; ageMs: number | null; renewedAt: string | null } | null;
  lastError: string | null;
}

export interface BotOwnership {
  readonly kind: string;
  /** How many partitions bots are spread over. */
  readonly partitionCount: number;
  /** The partition a bot belongs to: a pure function of its id. */
  partitionOf(botId: string): number;
  /** True while this runner owns the bot's partition (and, where there is one, its lease has not lapsed). */
  owns(botId: string): boolean;
  /** The epoch fence to append with for this bot (null when not owned); adapters without fencing leave it out. */
  fenceFor?(botId: string): Fence | null;
  /** The partitions owned now, ascending. */
  owned(): number[];
  /** Health of the adapter (optional). */
  status?(): OwnershipStatus;
  /** What the runner says about itself in the adapter's heartbeats, where it has them (the fleet's health). */
  reportWith?(report: () => Record<string, unknown>): void;
  start(listener: OwnershipListener): Promise<void>;
  /** Revokes everything (calls onRevoked) and leaves. */
  stop(): Promise<void>;
}

export const BOT_OWNERSHIP = Symbol('BOT_OWNERSHIP');

/** Runs listener callbacks one after another and remembers what is owned. */
export class OwnershipState {
  private current = new Set<number>();
  private queue: Promise<void> = Promise.resolve();
  constructor(private readonly onError: (err: Error) => void = (err) => console.error(err)) {}

  owned(): number[] {
    return [...this.current].sort((a, b) => a - b);
  }

  has(partition: number): boolean {
    return this.current.has(partition);
  }

  /** Sets what is owned now (synchronously) and queues the callbacks for the difference. */
  moveTo(next: Iterable<number>, listener: OwnershipListener | null, reason?: RevokeReason): Promise<void> {
    const target = new Set(next);
    const revoked = [...this.current].filter((p) => !target.has(p)).sort((a, b) => a - b);
    const assigned = [...target].filter((p) => !this.current.has(p)).sort((a, b) => a - b);
    this.current = target;
    if (!listener) return this.queue;
    if (revoked.length) this.enqueue(() => (reason ? listener.onRevoked(revoked, reason) : listener.onRevoked(revoked)));
    if (assigned.length) this.enqueue(() => listener.onAssigned(assigned));
    return this.queue;
  }

  private enqueue(fn: () => Promise<void> | void) {
    this.queue = this.queue.then(async () => {
      try {
        await fn();
      } catch (err) {
        this.onError(err as Error);
      }
    });
  }

  settled(): Promise<void> {
    return this.queue;
  }
}
