/**
 * What a checkpointed consumer of the log (projector, reactor, forwarder) reports about itself in
 * /api/health and /metrics: whether it is live, catching up or retrying, its position and lag, and
 * the last error it met.
 */
/** `stopped` until the consumer runs; `retrying` while it fails; else `catching-up` (behind the head) or `live`. */
export type ConsumerState = 'live' | 'catching-up' | 'retrying' | 'stopped';

export interface ConsumerStatus {
  name: string;
  kind: 'projector' | 'reactor' | 'forwarder';
  state: ConsumerState;
  position: string;
  head: string;
  lag: string;
  /** Failures in a row (0 once the consumer is through). */
  retries: number;
  /** Failures since start-up (subscription drops, rejected commits, refused publishes). */
  failures: number;
  lastError: string | null;
  lastErrorAt: string | null;
}

export interface ReportsStatus {
  status(): Promise<ConsumerStatus>;
}

/** The failure bookkeeping every consumer shares. */
export class ConsumerHealth {
  retries = 0;
  failures = 0;
  lastError: string | null = null;
  lastErrorAt: string | null = null;
  running = false;

  constructor(
    readonly name: string,
    readonly kind: ConsumerStatus['kind'],
  ) {}

  failed(err: Error): number {
    this.retries++;
    this.failures++;
    this.lastError = err.message;
    this.lastErrorAt = new Date().toISOString();
    return this.retries;
  }

  recovered(): void {
    this.retries = 0;
  }

  snapshot(position: bigint, head: bigint): ConsumerStatus {
    const lag = head > position ? head - position : 0n;
    const state: ConsumerState = !this.running ? 'stopped' : this.retries > 0 ? 'retrying' : lag > 0n ? 'catching-up' : 'live';
    return {
      name: this.name,
      kind: this.kind,
      state,
      position: position.toString(),
      head: head.toString(),
      lag: lag.toString(),
      retries: this.retries,
      failures: this.failures,
      lastError: this.lastError,
      lastErrorAt: this.lastErrorAt,
    };
  }
}

/** Back-off for a failed batch: 50 ms doubling, at most 5 s, jittered. */
export function batchBackoff(attempt: number): number {
  const ms = Math.min(5_000, 50 * 2 ** Math.min(attempt - 1, 10));
  return ms / 2 + Math.random() * (ms / 2);
}

/** A sleep that `wake()` cuts short (stop() must not wait out a back-off). */
export class Sleeper {
  private wakeFn: (() => void) | null = null;

  sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      const self = this;
      function done() {
        clearTimeout(timer);
        if (self.wakeFn === done) self.wakeFn = null;
        resolve();
      }
      this.wakeFn = done;
    });
  }

  wake(): void {
    this.wakeFn?.();
  }
}
