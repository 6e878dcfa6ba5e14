import { BotOwnership, OwnershipListener, OwnershipState } from './ownership.port';

/** One runner runs every bot: one partition, always owned while started. */
export class EmbeddedOwnership implements BotOwnership {
  readonly kind = 'embedded';
  readonly partitionCount = 1;
  private readonly state = new OwnershipState();
  private listener: OwnershipListener | null = null;

  partitionOf(_botId: string): number {
    return 0;
  }

  owns(botId: string): boolean {
    return this.state.has(this.partitionOf(botId));
  }

  owned(): number[] {
    return this.state.owned();
  }

  async start(listener: OwnershipListener): Promise<void> {
    this.listener = listener;
    await this.state.moveTo([0], listener);
  }

  async stop(): Promise<void> {
    await this.state.moveTo([], this.listener);
    this.listener = null;
  }
}
