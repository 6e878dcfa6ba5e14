/**
 * Drives a paper venue's price feed from a clock on a timer (the app's embedded mode). Tests call
 * `tick()` or `venue.advanceTo()` directly.
 */
import { CsvReplayFeed, type FeedTick } from './paper-price-feed';
import type { PaperVenue } from './paper-venue';

export interface PaperFeedDriverOptions {
  /** Injected clock (ms). */
  clock?: () => number;
  intervalMs?: number;
  /**
   * 'wall': feed time = clock time (the random walk). 'elapsed': feed time moves by the clock's
   * elapsed time × speed from wherever the feed stands (CSV replay; resumes after a restart).
   */
  mode?: 'wall' | 'elapsed';
  speed?: number;
}

/** Drives a venue's feed from a clock. */
export class PaperFeedDriver {
  private timer: NodeJS.Timeout | undefined;
  private lastWall: number | undefined;
  private readonly clock: () => number;
  private readonly mode: 'wall' | 'elapsed';

  constructor(
    private readonly venue: PaperVenue,
    private readonly options: PaperFeedDriverOptions = {},
  ) {
    this.clock = options.clock ?? Date.now;
    this.mode = options.mode ?? (venue.feed instanceof CsvReplayFeed ? 'elapsed' : 'wall');
  }

  tick(): FeedTick[] {
    const now = this.clock();
    if (this.mode === 'wall') return this.venue.advanceTo(now);
    const elapsed = this.lastWall === undefined ? 0 : Math.max(0, now - this.lastWall);
    this.lastWall = now;
    if (elapsed === 0) return [];
    return this.venue.advanceTo(this.venue.nowMs() + elapsed * (this.options.speed ?? 1));
  }

  start(): void {
    if (this.timer) return;
    this.tick();
    this.timer = setInterval(() => this.tick(), this.options.intervalMs ?? 1000);
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
