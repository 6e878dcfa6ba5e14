/**
 * The event-store port. It mirrors KurrentDB's client semantics so that the
 * SQLite adapter (embedded default) and the KurrentDB adapter (production)
 * are interchangeable and pass one contract suite (event-store.contract.ts).
 *
 * - Stream revisions start at 0; `append` checks the expected revision.
 * - Every event gets a global, strictly increasing `position`.
 * - Re-appending events whose ids are already stored, at the same place,
 *   is idempotent: nothing is written twice and the original result returns.
 * - `subscribeToAll` starts after `fromPosition` (exclusive), catches up,
 *   then goes live.
 */
import type { Fence } from './fence';
export type ExpectedRevision = 'no_stream' | 'any' | 'stream_exists' | bigint;

export interface EventMetadata {
  userId: string;
  correlationId: string;
  causationId: string | null;
  occurredAt: string; // ISO-8601
  schemaVersion: number;
  [extra: string]: unknown;
}

export interface NewEvent<T extends string = string, D = unknown> {
  id: string; // uuid, supplied by the writer so that retries are idempotent
  type: T;
  data: D;
  metadata: EventMetadata;
}

export interface RecordedEvent<T extends string = string, D = unknown> extends NewEvent<T, D> {
  streamId: string;
  revision: bigint;
  position: bigint;
  created: string; // ISO time at which the store wrote it
}

export interface AppendResult {
  nextExpectedRevision: bigint;
  position: bigint; // position of the last event appended
}

export interface ReadStreamOptions {
  fromRevision?: bigint; // inclusive, default 0
  maxCount?: number;
  direction?: 'forwards' | 'backwards';
  /**
   * Read what every acknowledged append left (KurrentDB: `requiresLeader`, not a follower's copy that may lag):
   * the ownership leases decide on it (lease.ownership.ts). The embedded store always does.
   */
  fromLeader?: boolean;
}

export interface ReadAllOptions {
  fromPosition?: bigint; // exclusive; default: the start
  maxCount?: number;
  /** Only the events that match (a projection rebuild reads only what its projections handle). */
  filter?: SubscriptionFilter;
  /** Only the streams of one partition (`streamPartition`): a rebuild splits streams across threads. */
  partition?: { count: number; index: number };
}

/** The partition of a stream among `count` (from its last character: a uuid's hex digit spreads evenly). */
export function streamPartition(streamId: string, count: number): number {
  return (streamId.charCodeAt(streamId.length - 1) || 0) % count;
}

export interface SubscriptionFilter {
  streamPrefixes?: string[];
  eventTypes?: string[];
}

export interface SubscribeOptions {
  fromPosition?: bigint | 'start' | 'end'; // exclusive when a bigint
  filter?: SubscriptionFilter;
  /**
   * Called when every event up to `position` has been delivered or did not match the filter: lets a
   * filtered subscriber checkpoint past events it never sees. Adapters may not call it.
   */
  onProgress?(position: bigint): void;
}

export interface AppendOptions {
  /** Append only while the fence's stream is still at its revision (a runner's ownership epoch). */
  fence?: Fence | null;
}

/** An async-iterable subscription that can be closed from outside. */
export interface Subscription extends AsyncIterable<RecordedEvent> {
  close(): Promise<void>;
}

/** The subscription of a generator: `close()` runs `stop` (which ends what the generator waits on), then ends the generator. */
export function subscriptionOf(gen: AsyncGenerator<RecordedEvent>, stop: () => void | Promise<void>): Subscription {
  return {
    [Symbol.asyncIterator]: () => gen,
    async close() {
      const stopping = stop();
      if (stopping) await stopping;
      await gen.return(undefined);
    },
  };
}

export interface EventStore {
  readonly kind: string;
  /**
   * Appends with an expected revision. With `options.fence` (fence.ts) the append is also refused
   * with FencedError unless the fence stream is still at the fence's revision.
   */
  append(streamId: string, events: NewEvent[], expected: ExpectedRevision, options?: AppendOptions): Promise<AppendResult>;
  /** Throws StreamNotFoundError when the stream does not exist. */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  subscribeToAll(options?: SubscribeOptions): Subscription;
  /** Position of the newest event, 0n when empty. */
  headPosition(): Promise<bigint>;
  close(): Promise<void>;
}

export const EVENT_STORE = Symbol('EVENT_STORE');

export class WrongExpectedVersionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: bigint | 'no_stream',
  ) {
    super(`Wrong expected version on ${streamId}: expected ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedVersionError';
  }
}

/** The stream was deleted (KurrentDB: soft-deleted or tombstoned). */
export class StreamDeletedError extends Error {
  constructor(readonly streamId: string) {
    super(`Stream ${streamId} is deleted`);
    this.name = 'StreamDeletedError';
  }
}

export class StreamNotFoundError extends Error {
  constructor(readonly streamId: string) {
    super(`Stream ${streamId} not found`);
    this.name = 'StreamNotFoundError';
  }
}

/** Whether the stream has an event (false when it does not exist); other errors are thrown. */
export async function streamHasEvents(events: Pick<EventStore, 'readStream'>, streamId: string): Promise<boolean> {
  try {
    return (await events.readStream(streamId, { maxCount: 1 })).length > 0;
  } catch (err) {
    if (err instanceof StreamNotFoundError) return false;
    throw err;
  }
}

export function matchesFilter(event: { streamId: string; type: string }, filter?: SubscriptionFilter): boolean {
  if (!filter) return true;
  if (filter.streamPrefixes?.length && !filter.streamPrefixes.some((p) => event.streamId.startsWith(p))) return false;
  if (filter.eventTypes?.length && !filter.eventTypes.includes(event.type)) return false;
  return true;
}
