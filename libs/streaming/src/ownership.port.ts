import type { Fence } from '@gridrocket/event-store';

/**
 * Which runner runs which bot. Bots are spread over a fixed number of
 * partitions by id; a runner owns a set of partitions at a time and runs the
 * bots that fall in them. The embedded adapter owns everything; the Kafka
 * adapter (consumer group) spreads partitions over the runners of one group
 * and moves them when runners come and go.
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
  onRevoked(partitions: number[]): Promise<void> | void;
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
  moveTo(next: Iterable<number>, listener: OwnershipListener | null): Promise<void> {
    const target = new Set(next);
    const revoked = [...this.current].filter((p) => !target.has(p)).sort((a, b) => a - b);
    const assigned = [...target].filter((p) => !this.current.has(p)).sort((a, b) => a - b);
    this.current = target;
    if (!listener) return this.queue;
    if (revoked.length) this.enqueue(() => listener.onRevoked(revoked));
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
