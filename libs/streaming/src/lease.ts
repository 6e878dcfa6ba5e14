import { performance } from 'node:perf_hooks';

/** When a confirming request left this process, read on both clocks (ms). */
export interface SentAt {
  /** The monotonic clock (performance.now): immune to wall-clock steps. */
  mono: number;
  /** The wall clock (Date.now): the only one of the two that runs on while the machine is suspended. */
  wall: number;
}

/**
 * A local lease: the runner believes it owns its partitions only until `ms` after it SENT the last
 * request the coordinator confirmed (a heartbeat answered without error, a SyncGroup), never after the
 * answer was handled: the coordinator restarts its session timer when it receives the request, which
 * is after we sent it, so an answer read late (a paused or blocked event loop) cannot stretch the lease
 * past the session. `ms` is shorter than the group's session timeout, so a runner whose heartbeats
 * stop (a blocked event loop, a network split) stops acting before the coordinator can hand its
 * partitions to another runner.
 *
 * The lease is measured on the monotonic clock AND on the wall clock, and is valid only while both say
 * so: the monotonic clock does not move with wall-clock steps (NTP, an operator), and the wall clock
 * counts a suspended machine or VM, which Linux's CLOCK_MONOTONIC does not. A forward step of the wall
 * clock can only shorten the lease; backward steps are the caller's to detect (kafka.ownership.ts).
 */
export class Lease {
  private untilMono = -Infinity;
  private untilWall = -Infinity;

  constructor(
    readonly ms: number,
    private readonly now: () => number = () => performance.now(),
    private readonly wall: () => number = Date.now,
  ) {}

  /** Renewed by a confirmation whose request left at `sent`: valid until `sent + ms` (never shortened). */
  renewFrom(sent: SentAt): void {
    this.untilMono = Math.max(this.untilMono, sent.mono + this.ms);
    this.untilWall = Math.max(this.untilWall, sent.wall + this.ms);
  }

  /** Renewed as of now (a confirmation whose request left just now: the test double's heartbeats). */
  renew(): void {
    this.renewFrom({ mono: this.now(), wall: this.wall() });
  }

  revoke(): void {
    this.untilMono = -Infinity;
    this.untilWall = -Infinity;
  }

  get valid(): boolean {
    return this.now() < this.untilMono && this.wall() < this.untilWall;
  }

  /** Ms left (0 when lapsed). */
  get left(): number {
    return Math.max(0, Math.min(this.untilMono - this.now(), this.untilWall - this.wall()));
  }
}
