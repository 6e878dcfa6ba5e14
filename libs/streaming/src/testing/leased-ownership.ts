/**
 * Test double of a leased ownership adapter (what KafkaOwnership is with its coordinator): the test
 * plays the coordinator (assigns partitions) and the network (answers heartbeats or not). owns() is
 * true for an assigned partition while the lease, renewed by `heartbeat()`, has not lapsed.
 */
import { createHash } from 'node:crypto';
import { Lease } from '../lease';
import { OwnershipState, type BotOwnership, type OwnershipListener } from '../ownership.port';

export class LeasedTestOwnership implements BotOwnership {
  readonly kind = 'test-leased';
  private readonly state = new OwnershipState((err) => {
    throw err;
  });
  private listener: OwnershipListener | null = null;
  private readonly lease: Lease;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    readonly partitionCount: number,
    private readonly initial: number[],
    leaseMs: number,
  ) {
    this.lease = new Lease(leaseMs);
  }

  partitionOf(botId: string): number {
    return createHash('sha1').update(botId).digest().readUInt32BE(0) % this.partitionCount;
  }

  owns(botId: string): boolean {
    return this.lease.valid && this.state.has(this.partitionOf(botId));
  }

  owned(): number[] {
    return this.state.owned();
  }

  /** Heartbeats answered every `everyMs` (until stopHeartbeats). */
  heartbeats(everyMs: number): void {
    this.lease.renew();
    this.timer = setInterval(() => this.lease.renew(), everyMs);
    this.timer.unref?.();
  }

  /** The coordinator stops answering: the lease lapses after its length. */
  stopHeartbeats(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  get leaseValid(): boolean {
    return this.lease.valid;
  }

  async start(listener: OwnershipListener): Promise<void> {
    this.listener = listener;
    this.lease.renew();
    await this.state.moveTo(this.initial, listener);
  }

  /** The coordinator's decision, delivered to this runner (revocation first, then assignment). */
  moveTo(partitions: number[]): Promise<void> {
    return this.state.moveTo(partitions, this.listener);
  }

  async stop(): Promise<void> {
    this.stopHeartbeats();
    await this.state.moveTo([], this.listener);
    this.listener = null;
  }
}
