/**
 * A seeded fault schedule for the fault-injecting wrappers of the embedded adapters
 * (faulty.event-store.ts, read-store's faulty.read-store.ts, streaming's faulty.sink.ts).
 * The same seed gives the same sequence of decisions, so a failing run can be replayed.
 */
export class FaultSchedule {
  private state: number;
  readonly counts = new Map<string, number>();
  private enabled = true;

  constructor(readonly seed = 1) {
    this.state = seed >>> 0 || 1;
  }

  /** mulberry32: a small, well-known seeded generator (uniform in [0, 1)). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** True with probability `rate` (and counts it under `kind`) while the schedule is on. */
  hit(kind: string, rate: number | undefined): boolean {
    if (!this.enabled || !rate || this.next() >= rate) return false;
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
    return true;
  }

  /** A value in [min, max) from the schedule. */
  between(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  /** Stops injecting (the end of a test lets everything settle). */
  off(): void {
    this.enabled = false;
  }

  on(): void {
    this.enabled = true;
  }

  get active(): boolean {
    return this.enabled;
  }

  summary(): Record<string, number> {
    return Object.fromEntries([...this.counts].sort());
  }
}
