import type { AppendOptions, AppendResult, EventStore, ExpectedRevision, NewEvent, ReadAllOptions, ReadStreamOptions, RecordedEvent, SubscribeOptions, Subscription } from './event-store.port';
import { isRetriableKurrentError } from './kurrentdb.event-store';
import { defaultBackoff, resubscribing } from './resubscribe';

/**
 * Errors after which the same call may simply be made again (the server was away or slow), in the
 * vocabulary of the store's own driver:
 * - KurrentDB: the client's UnavailableError, NotLeaderError, CancelledError (server side),
 *   DeadlineExceededError and TimeoutError, told by their `type` (isRetriableKurrentError says
 *   which and why; every error of that client is named `Error`, so its name cannot tell);
 * - SQLite: `SQLITE_BUSY` (another connection holds the write lock longer than the busy timeout).
 * The fault-injecting wrappers throw these same classes (FaultyEventStore: the KurrentDB client's;
 * FaultyReadStore: the MongoDB driver's, told by read-store's isTransientMongoError; FaultySink:
 * kafkajs's), so what the resilience suites prove is what the real clients do.
 */
export function isTransient(err: unknown): boolean {
  const e = err as { name?: string; code?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  return e.code === 'SQLITE_BUSY' || isRetriableKurrentError(err);
}

export interface ResilienceOptions {
  /** Attempts of an append or a read whose error is transient (default 6). */
  attempts?: number;
  retryDelay?(attempt: number): number;
  onRetry?(what: string, err: Error, attempt: number): void;
}

/**
 * Any event store, made to survive its server: subscriptions resubscribe from the last delivered
 * position, and appends and reads whose error is transient are made again. Re-appending is safe
 * because the port makes appends idempotent by event id (a timed-out append that was written is
 * answered with its original result, not written twice).
 */
export class ResilientEventStore implements EventStore {
  readonly kind: string;

  constructor(
    readonly inner: EventStore,
    private readonly options: ResilienceOptions = {},
  ) {
    this.kind = inner.kind;
  }

  private async retry<T>(what: string, fn: () => Promise<T>): Promise<T> {
    const attempts = this.options.attempts ?? 6;
    for (let attempt = 1; ; attempt++) {
      try {
        return await fn();
      } catch (err) {
        if (!isTransient(err) || attempt >= attempts) throw err;
        this.options.onRetry?.(what, err as Error, attempt);
        await new Promise((r) => setTimeout(r, (this.options.retryDelay ?? defaultBackoff)(attempt)));
      }
    }
  }

  /** The store below (for consumers that resubscribe themselves and report their drops). */
  get direct(): EventStore {
    return this.inner;
  }

  append(streamId: string, events: NewEvent[], expected: ExpectedRevision, options?: AppendOptions): Promise<AppendResult> {
    return this.retry(`append to ${streamId}`, () => this.inner.append(streamId, events, expected, options));
  }

  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    return this.retry(`read of ${streamId}`, () => this.inner.readStream(streamId, options));
  }

  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]> {
    return this.retry('read of $all', () => this.inner.readAll(options));
  }

  headPosition(): Promise<bigint> {
    return this.retry('head position', () => this.inner.headPosition());
  }

  subscribeToAll(options: SubscribeOptions = {}): Subscription {
    return resubscribing(this.inner, {
      fromPosition: options.fromPosition,
      filter: options.filter,
      onProgress: options.onProgress,
      retryDelay: this.options.retryDelay,
      onDrop: (err, attempt) => this.options.onRetry?.('subscription', err, attempt),
    });
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
