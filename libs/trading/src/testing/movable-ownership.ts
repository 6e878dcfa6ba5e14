/**
 * Test double of the ownership port: the test plays the group coordinator and moves partitions
 * between runners by hand (revocation first, then assignment, as a Kafka rebalance does).
 */
import { OwnershipState, type BotOwnership, type OwnershipListener } from '@gridrocket/streaming';
import { botHash } from '../grid/client-order-id';

export class MovableOwnership implements BotOwnership {
  readonly kind = 'test';
  private readonly state = new OwnershipState((err) => {
    throw err;
  });
  private listener: OwnershipListener | null = null;
  private initial: number[];

  constructor(readonly partitionCount: number, initial: number[] = []) {
    this.initial = initial;
  }

  partitionOf(botId: string): number {
    return parseInt(botHash(botId), 36) % this.partitionCount;
  }

  owns(botId: string): boolean {
    return this.state.has(this.partitionOf(botId));
  }

  owned(): number[] {
    return this.state.owned();
  }

  async start(listener: OwnershipListener): Promise<void> {
    this.listener = listener;
    await this.state.moveTo(this.initial, listener);
  }

  /** Sets the owned partitions now; resolves when the runner's callbacks have finished. */
  moveTo(partitions: number[]): Promise<void> {
    return this.state.moveTo(partitions, this.listener);
  }

  async stop(): Promise<void> {
    await this.state.moveTo([], this.listener);
    this.listener = null;
  }
}

/** Moves `partitions` from one runner's ownership to another's: revoke (and wait), then assign. */
export async function handOver(partitions: number[], from: MovableOwnership, to: MovableOwnership): Promise<void> {
  const moving = new Set(partitions);
  await from.moveTo(from.owned().filter((p) => !moving.has(p)));
  await to.moveTo([...new Set([...to.owned(), ...partitions])]);
}
