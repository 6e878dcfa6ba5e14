/**
 * A local lease: the runner believes it owns its partitions only until `ms` after the coordinator
 * last confirmed its membership (a heartbeat answered, a join). It is shorter than the group's
 * session timeout, so a runner whose heartbeats stop (a blocked event loop, a network split)
 * stops acting before the coordinator can hand its partitions to another runner.
 */
export class Lease {
  private until = 0;

  constructor(
    readonly ms: number,
    private readonly now: () => number = Date.now,
  ) {}

  renew(): void {
    this.until = this.now() + this.ms;
  }

  revoke(): void {
    this.until = 0;
  }

  get valid(): boolean {
    return this.now() < this.until;
  }

  /** Ms left (0 when lapsed). */
  get left(): number {
    return Math.max(0, this.until - this.now());
  }
}
