import { randomUUID } from 'node:crypto';
import type { EventStore, Fence, NewEvent } from '@gridrocket/event-store';
import { StreamNotFoundError, WrongExpectedVersionError } from '@gridrocket/event-store';
import type { BotOwnership, OwnershipListener, OwnershipStatus } from './ownership.port';

export interface FencedOwnershipOptions {
  /** Names the ownership streams (`ownership-<scope>-p<n>`); one per runner group. */
  scope?: string;
  /** Who claims (logs, the claim event). */
  owner?: string;
  onError?(err: Error): void;
  retryDelay?(attempt: number): number;
}

export const PARTITION_CLAIMED = 'PartitionClaimed';

/**
 * Bot ownership with a fence in the event store, around an adapter that has none of its own (the embedded
 * one; the lease adapter, lease.ownership.ts, claims in the store itself). When the inner adapter
 * assigns a partition, this runner first appends a `PartitionClaimed` event to the partition's
 * ownership stream, with the expected revision it read: the revision of that claim is its epoch.
 * Only then are the partition's bots resumed. The runner appends with `fenceFor(botId)` as its
 * commands' fence (CommandContext.fence): the event store refuses the append once the ownership stream
 * has moved past the epoch, that is once another runner has claimed the partition. So a deposed
 * runner (its session expired, its lease lapsed, its exchange call still in flight) cannot record
 * anything after the new owner took over, whatever its local view says.
 */
export class FencedOwnership implements BotOwnership {
  readonly kind: string;
  private readonly epochs = new Map<number, bigint>();
  private readonly scope: string;
  private readonly owner: string;

  constructor(
    readonly inner: BotOwnership,
    private readonly events: EventStore,
    private readonly options: FencedOwnershipOptions = {},
  ) {
    this.kind = inner.kind;
    this.scope = options.scope ?? 'runners';
    this.owner = options.owner ?? `runner-${process.pid}`;
  }

  get partitionCount(): number {
    return this.inner.partitionCount;
  }

  partitionOf(botId: string): number {
    return this.inner.partitionOf(botId);
  }

  owns(botId: string): boolean {
    return this.epochs.has(this.partitionOf(botId)) && this.inner.owns(botId);
  }

  owned(): number[] {
    return this.inner.owned().filter((p) => this.epochs.has(p));
  }

  /** The ownership stream of a partition. */
  streamOf(partition: number): string {
    return `ownership-${this.scope}-p${partition}`;
  }

  fenceFor(botId: string): Fence | null {
    const p = this.partitionOf(botId);
    const epoch = this.epochs.get(p);
    return epoch === undefined || !this.inner.owns(botId) ? null : { streamId: this.streamOf(p), revision: epoch };
  }

  /** The epoch this runner holds on a partition (tests, health). */
  epochOf(partition: number): bigint | undefined {
    return this.epochs.get(partition);
  }

  status(): OwnershipStatus {
    const owned = this.owned();
    const inner = this.inner.status?.();
    return {
      kind: this.kind,
      trading: inner ? inner.trading : this.started,
      partitions: this.partitionCount,
      owned,
      epochs: Object.fromEntries(owned.map((p) => [p, String(this.epochs.get(p))])),
      lapsed: inner?.lapsed ?? [],
      lease: inner?.lease ?? null,
      lastError: inner?.lastError ?? null,
    };
  }

  private started = false;

  async start(listener: OwnershipListener): Promise<void> {
    this.started = true;
    await this.inner.start({
      onAssigned: async (partitions) => {
        const claimed: number[] = [];
        for (const p of partitions) {
          if (!this.inner.owned().includes(p)) continue; // already taken away again
          const epoch = await this.claim(p);
          if (epoch === null) continue;
          this.epochs.set(p, epoch);
          claimed.push(p);
        }
        if (claimed.length) await listener.onAssigned(claimed);
      },
      onRevoked: async (partitions, reason) => {
        for (const p of partitions) this.epochs.delete(p);
        await listener.onRevoked(partitions, reason);
      },
    });
  }

  /** Appends this runner's claim on top of whatever the stream holds; its revision is the epoch. */
  private async claim(partition: number): Promise<bigint | null> {
    const stream = this.streamOf(partition);
    const event: NewEvent = {
      id: randomUUID(),
      type: PARTITION_CLAIMED,
      data: { partition, scope: this.scope, owner: this.owner },
      metadata: { userId: 'runner', correlationId: randomUUID(), causationId: null, occurredAt: new Date().toISOString(), schemaVersion: 1 },
    };
    for (let attempt = 1; ; attempt++) {
      if (!this.inner.owned().includes(partition)) return null;
      try {
        let expected: bigint | 'no_stream' = 'no_stream';
        try {
          const [head] = await this.events.readStream(stream, { direction: 'backwards', maxCount: 1 });
          if (head?.id === event.id) return head.revision; // our claim went through, its answer was lost
          if (head) expected = head.revision;
        } catch (err) {
          if (!(err instanceof StreamNotFoundError)) throw err;
        }
        const result = await this.events.append(stream, [event], expected);
        return result.nextExpectedRevision;
      } catch (err) {
        if (err instanceof WrongExpectedVersionError) continue; // another claim landed in between: claim on top
        this.options.onError?.(new Error(`Could not claim partition ${partition} (attempt ${attempt}): ${(err as Error).message}`));
        await new Promise((r) => setTimeout(r, this.options.retryDelay?.(attempt) ?? Math.min(5_000, 100 * 2 ** Math.min(attempt, 6))));
      }
    }
  }

  async stop(): Promise<void> {
    this.started = false;
    await this.inner.stop();
    this.epochs.clear();
  }
}
