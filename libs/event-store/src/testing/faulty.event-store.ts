import { subscriptionOf, type AppendOptions, type AppendResult, type EventStore, type ExpectedRevision, type NewEvent, type ReadAllOptions, type ReadStreamOptions, type RecordedEvent, type SubscribeOptions, type Subscription } from '../event-store.port';
import { FaultSchedule } from './fault-schedule';
import { deadlineExceeded, readUnavailable, unavailable } from './kurrentdb-errors';

/** The timed-out appends that had been written before their answer was lost. */
const applied = new WeakSet<Error>();

/** True when `err` is a timed-out append of a FaultyEventStore that was in fact written. */
export function appliedBeforeFault(err: unknown): boolean {
  return err instanceof Error && applied.has(err);
}

export interface EventStoreFaults {
  /** Every live subscription is dropped after this many ms (± half, from the schedule). */
  dropSubscriptionsEveryMs?: number;
  /** Share of appends that fail before anything is written. */
  failAppendRate?: number;
  /** Share of appends that time out: written, but the answer is lost (the caller must retry idempotently). */
  appendTimeoutRate?: number;
  /** How long a timed-out append hangs before it fails (ms). */
  appendTimeoutMs?: number;
  /** Share of reads (readStream, readAll) that fail. */
  failReadRate?: number;
}

/**
 * The event store port with faults injected on a schedule: what KurrentDB does on a restart, a
 * leader change or a keep-alive timeout (the subscription errors out), and on a slow or lost
 * answer (the append times out, having been written or not). The faults are the KurrentDB client's
 * own errors, made as the client makes them (testing/kurrentdb-errors.ts): a refused append or a
 * dropped subscription is its UnavailableError (gRPC UNAVAILABLE), a failed read the
 * UnavailableError of its native reader, a timed-out append its DeadlineExceededError (written or
 * not: `appliedBeforeFault(err)`).
 */
export class FaultyEventStore implements EventStore {
  readonly kind: string;
  private readonly subscriptions = new Set<() => void>();

  constructor(
    readonly inner: EventStore,
    readonly schedule: FaultSchedule,
    readonly faults: EventStoreFaults = {},
  ) {
    this.kind = inner.kind;
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision, options?: AppendOptions): Promise<AppendResult> {
    if (this.schedule.hit('append.fail', this.faults.failAppendRate)) throw unavailable(`injected fault: append to ${streamId} refused`);
    if (this.schedule.hit('append.timeout', this.faults.appendTimeoutRate)) {
      const result = await this.inner.append(streamId, events, expected, options).catch(() => null);
      await new Promise((r) => setTimeout(r, this.faults.appendTimeoutMs ?? 50));
      const err = deadlineExceeded(`injected fault: append to ${streamId} timed out${result ? ' (written)' : ''}`);
      if (result) applied.add(err);
      throw err;
    }
    return this.inner.append(streamId, events, expected, options);
  }

  async readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    if (this.schedule.hit('read.fail', this.faults.failReadRate)) throw readUnavailable(`injected fault: read of ${streamId} failed`);
    return this.inner.readStream(streamId, options);
  }

  async readAll(options?: ReadAllOptions): Promise<RecordedEvent[]> {
    if (this.schedule.hit('read.fail', this.faults.failReadRate)) throw readUnavailable('injected fault: read of $all failed');
    return this.inner.readAll(options);
  }

  headPosition(): Promise<bigint> {
    return this.inner.headPosition();
  }

  subscribeToAll(options?: SubscribeOptions): Subscription {
    const inner = this.inner.subscribeToAll(options);
    const every = this.faults.dropSubscriptionsEveryMs;
    const schedule = this.schedule;
    const subscriptions = this.subscriptions;
    let fail: ((err: Error) => void) | null = null;
    let dropped: Error | null = null;
    let timer: NodeJS.Timeout | null = null;
    const drop = () => {
      if (!schedule.active) return arm();
      schedule.hit('subscription.drop', 1);
      dropped = unavailable('injected fault: subscription dropped');
      fail?.(dropped);
    };
    const arm = () => {
      if (every) timer = setTimeout(drop, schedule.between(every / 2, (every * 3) / 2));
    };
    arm();
    subscriptions.add(drop);
    const it = inner[Symbol.asyncIterator]();
    const cleanup = () => {
      if (timer) clearTimeout(timer);
      subscriptions.delete(drop);
    };
    async function* iterate(): AsyncGenerator<RecordedEvent> {
      try {
        for (;;) {
          if (dropped) throw dropped;
          const failed = new Promise<never>((_, reject) => (fail = reject));
          failed.catch(() => undefined);
          const next = await Promise.race([it.next(), failed]);
          fail = null;
          if (next.done) return;
          yield next.value;
        }
      } finally {
        cleanup();
        await inner.close();
      }
    }
    return subscriptionOf(iterate(), async () => {
      cleanup();
      await inner.close();
    });
  }

  /** Drops every live subscription now. */
  dropAll(): void {
    for (const drop of [...this.subscriptions]) drop();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
