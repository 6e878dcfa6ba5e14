import type * as Kurrent from '@kurrent/kurrentdb-client';
import type { AllStreamResolvedEvent, Filter, KurrentDBClient, Position, ResolvedEvent } from '@kurrent/kurrentdb-client';
import { AppendOptions, AppendResult, EventMetadata, EventStore, ExpectedRevision, NewEvent, ReadAllOptions, ReadStreamOptions, RecordedEvent, StreamDeletedError, StreamNotFoundError, SubscribeOptions, Subscription, SubscriptionFilter, WrongExpectedVersionError, matchesFilter, streamPartition, subscriptionOf } from './event-store.port';
import { Fence, FencedError } from './fence';

/**
 * The client library, loaded when the first KurrentDB store is built: 70 ms of module loading that a
 * process on the embedded SQLite store (and every projection-rebuild worker) no longer pays (issue 16).
 */
let loaded: typeof Kurrent | null = null;
const kurrent = (): typeof Kurrent => (loaded ??= require('@kurrent/kurrentdb-client') as typeof Kurrent);

/**
 * The client's errors after which the same call may be made again (`err.type`, the client's
 * ErrorType; every client error is named plain `Error`, so its name says nothing):
 * - `unavailable`: the server is away (restart, network; gRPC UNAVAILABLE, INTERNAL, DATA_LOSS, a
 *   failed connect). The client drops its channel and rediscovers on this error.
 * - `not-leader`: the node is a follower; the client reconnects to the leader it names.
 * - `cancelled`: the server cancelled the call (it is shutting down); the client reconnects. A
 *   cancellation by this process is never converted into this error.
 * - `deadline-exceeded`, `timeout` (the server's commit timeout): the answer did not come; the append
 *   may have been written. Made again with the same event ids and expected revision, it is answered
 *   idempotently by the server (or by the fenced append's own check, below), never written twice.
 * Not retried: `wrong-expected-version` (a conflict: the caller re-reads and decides again),
 * `stream-deleted`/`stream-not-found`, `access-denied`, `invalid-argument`, size limits, and
 * `unknown` (whatever the client could not classify: retrying blindly could repeat a bad request).
 */
const RETRIABLE_TYPES = new Set(['unavailable', 'not-leader', 'cancelled', 'deadline-exceeded', 'timeout']);

/**
 * True for an error of the KurrentDB client after which the call may simply be made again. Errors
 * without a retriable `type` are answered without loading the client; only such an error (which only
 * the client, once loaded, throws) is checked with `isCommandError`.
 */
export function isRetriableKurrentError(err: unknown): boolean {
  const type = (err as { type?: unknown } | null)?.type;
  return typeof type === 'string' && RETRIABLE_TYPES.has(type) && err instanceof Error && kurrent().isCommandError(err);
}

/**
 * Where a fenced append stamps its fence: a key of the event's metadata in KurrentDB, taken out again
 * when the event is read through the port (the fence is never part of the events' metadata).
 */
const STAMP = '$fence';
interface Stamp {
  stream: string;
  epoch: string;
}

/** How many events a fenced append reads back at a time to find the stream's last stamp. */
const STAMP_PAGE = 32;

/**
 * Production event store: KurrentDB (formerly EventStoreDB) through its
 * maintained gRPC client `@kurrent/kurrentdb-client`, the successor of
 * `@eventstore/db-client`. The global `position` is KurrentDB's commit position.
 *
 * Built from a connection string (production) or from a client (tests drive it with a scripted
 * stand-in of `KurrentDBClient`: testing/fake-kurrentdb.client.ts).
 */
export class KurrentDbEventStore implements EventStore {
  readonly kind = 'kurrentdb';
  private readonly client: KurrentDBClient;

  constructor(connection: string | KurrentDBClient) {
    this.client = typeof connection === 'string' ? kurrent().KurrentDBClient.connectionString(connection) : connection;
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision, options: AppendOptions = {}): Promise<AppendResult> {
    if (options.fence) return this.fencedAppend(streamId, events, expected, options.fence);
    return this.write(streamId, events, expected);
  }

  private async write(streamId: string, events: NewEvent[], expected: ExpectedRevision, stamp?: Stamp): Promise<AppendResult> {
    try {
      const result = await this.client.appendToStream(
        streamId,
        events.map((e) =>
          kurrent().jsonEvent({ id: e.id, type: e.type, data: e.data as never, metadata: (stamp ? { ...e.metadata, [STAMP]: stamp } : e.metadata) as never }),
        ),
        { streamState: expected },
      );
      return { nextExpectedRevision: result.nextExpectedRevision, position: result.position?.commit ?? 0n };
    } catch (err) {
      if (err instanceof kurrent().WrongExpectedVersionError) {
        const actual = typeof err.actualState === 'bigint' ? err.actualState : 'no_stream';
        throw new WrongExpectedVersionError(streamId, expected, actual);
      }
      if (err instanceof kurrent().StreamDeletedError) throw new StreamDeletedError(streamId);
      throw err;
    }
  }

  /**
   * The fence on KurrentDB (docs/resilience.md, "The fence on KurrentDB"). A server before 26.1 has
   * no append conditional on another stream, so the epoch is made atomic per bot stream instead:
   * every fenced append stamps its fence in the events' metadata and is made with the exact expected
   * revision of the bot stream at which its last stamp was read; an append whose epoch is older than
   * that stamp is refused. The server's expected-revision check makes "read the stamp, append after
   * it" one atomic step, so on each stream the epochs never go down: once the new owner has appended
   * to a bot's stream, nothing of the deposed owner is accepted there, and whatever the deposed owner
   * appended before that is in the stream the new owner decides on. The ownership stream is also
   * read (in parallel) so that a deposed runner is refused as soon as the claim is in the log.
   */
  private async fencedAppend(streamId: string, events: NewEvent[], expected: ExpectedRevision, fence: Fence): Promise<AppendResult> {
    const [owner, tail] = await Promise.all([this.headOf(fence.streamId), this.tailOf(streamId, Math.max(STAMP_PAGE, events.length))]);
    if (owner !== fence.revision) throw new FencedError(fence, owner);
    const { head, stamp, recent } = tail;
    if (stamp && stamp.stream === fence.streamId && BigInt(stamp.epoch) > fence.revision) throw new FencedError(fence, BigInt(stamp.epoch));
    let against: ExpectedRevision;
    if (expected === 'any' || expected === 'stream_exists') {
      if (head === 'no_stream') {
        if (expected === 'stream_exists') throw new WrongExpectedVersionError(streamId, expected, 'no_stream');
        against = 'no_stream';
      } else {
        // the server checks ids only for `any`: an exact revision must not write a retried append twice
        const at = recent.findIndex((e) => e.id === events[0]?.id);
        if (at >= 0 && events.every((e, i) => recent[at + i]?.id === e.id)) {
          const last = recent[at + events.length - 1];
          return { nextExpectedRevision: last.revision, position: last.position };
        }
        against = head;
      }
    } else if (expected === 'no_stream') {
      against = 'no_stream'; // written only if the stream does not exist (no stamp to outrank); else idempotent or refused
    } else {
      if (head === 'no_stream' || expected > head) throw new WrongExpectedVersionError(streamId, expected, head);
      against = expected; // at the head: the stamp read is the stream's last; below it the server writes nothing (idempotent or refused)
    }
    return this.write(streamId, events, against, { stream: fence.streamId, epoch: fence.revision.toString() });
  }

  /** The revision of a stream's last event, read from the leader. */
  private async headOf(streamId: string): Promise<bigint | 'no_stream'> {
    try {
      for await (const resolved of this.client.readStream(streamId, { fromRevision: kurrent().END, direction: kurrent().BACKWARDS, maxCount: 1, requiresLeader: true })) {
        if (resolved.event) return resolved.event.revision;
      }
      return 'no_stream';
    } catch (err) {
      if (err instanceof kurrent().StreamNotFoundError) return 'no_stream';
      throw err;
    }
  }

  /** A stream's head, its newest events (oldest first) and its last fence stamp, read from the leader. */
  private async tailOf(streamId: string, page: number): Promise<{ head: bigint | 'no_stream'; stamp: Stamp | null; recent: RecordedEvent[] }> {
    let head: bigint | 'no_stream' = 'no_stream';
    let stamp: Stamp | null = null;
    const recent: RecordedEvent[] = [];
    let from: bigint | typeof Kurrent.END = kurrent().END;
    try {
      for (;;) {
        let read = 0;
        let lowest: bigint | null = null;
        const reading: AsyncIterable<ResolvedEvent> = this.client.readStream(streamId, { fromRevision: from, direction: kurrent().BACKWARDS, maxCount: page, requiresLeader: true });
        for await (const resolved of reading) {
          const e = resolved.event;
          if (!e) continue;
          read++;
          lowest = e.revision;
          if (head === 'no_stream') head = e.revision;
          if (recent.length < page) {
            const r = toRecorded(resolved);
            if (r) recent.unshift(r);
          }
          const s = (e.metadata as Record<string, unknown> | undefined)?.[STAMP] as Stamp | undefined;
          if (s && typeof s.stream === 'string' && typeof s.epoch === 'string') {
            stamp = s;
            break;
          }
        }
        if (stamp || read < page || lowest === null || lowest === 0n) break;
        from = lowest - 1n;
      }
    } catch (err) {
      if (err instanceof kurrent().StreamNotFoundError) return { head: 'no_stream', stamp: null, recent: [] };
      if (err instanceof kurrent().StreamDeletedError) throw new StreamDeletedError(streamId);
      throw err;
    }
    return { head, stamp, recent };
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    try {
      const backwards = options.direction === 'backwards';
      for await (const resolved of this.client.readStream(streamId, {
        fromRevision: options.fromRevision ?? (backwards ? kurrent().END : kurrent().START),
        direction: backwards ? kurrent().BACKWARDS : kurrent().FORWARDS,
        maxCount: options.maxCount ?? Number.MAX_SAFE_INTEGER,
        ...(options.fromLeader ? { requiresLeader: true } : {}),
      })) {
        const e = toRecorded(resolved);
        if (e) out.push(e);
      }
    } catch (err) {
      if (err instanceof kurrent().StreamNotFoundError) throw new StreamNotFoundError(streamId);
      if (err instanceof kurrent().StreamDeletedError) throw new StreamDeletedError(streamId);
      throw err;
    }
    return out;
  }

  /**
   * Up to `maxCount` matching events after `fromPosition`, fewer only at the end of the log. The filter
   * is applied by the server (serverFilter) and, for what it cannot express (both prefixes and types,
   * a partition), here; a window that matched nothing here is read on from where it ended, so an empty
   * answer always means the end of the log (a projection rebuild stops on one).
   */
  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const max = options.maxCount ?? Number.MAX_SAFE_INTEGER;
    const out: RecordedEvent[] = [];
    const filter = serverFilter(options.filter);
    let cursor = options.fromPosition; // exclusive
    while (out.length < max) {
      const want = max - out.length;
      let fresh = 0;
      for await (const resolved of this.client.readAll({
        fromPosition: cursor === undefined || cursor === 0n ? kurrent().START : position(cursor),
        direction: kurrent().FORWARDS,
        maxCount: want >= Number.MAX_SAFE_INTEGER ? want : want + 1, // KurrentDB reads from a position inclusively
        filter,
      })) {
        const at = resolved.event?.position?.commit;
        if (at === undefined || (cursor !== undefined && at <= cursor)) continue;
        fresh++;
        cursor = at;
        const e = toRecorded(resolved);
        if (!e || !matchesFilter(e, options.filter)) continue;
        if (options.partition && streamPartition(e.streamId, options.partition.count) !== options.partition.index) continue;
        out.push(e);
        if (out.length >= max) break;
      }
      if (fresh === 0) break; // nothing after the cursor: the end of the log
    }
    return out;
  }

  async headPosition(): Promise<bigint> {
    for await (const resolved of this.client.readAll({ fromPosition: kurrent().END, direction: kurrent().BACKWARDS, maxCount: 1, filter: kurrent().excludeSystemEvents() })) {
      return resolved.event?.position?.commit ?? 0n;
    }
    return 0n;
  }

  /**
   * With `onProgress`, the server's checkpoints (`checkpointReached`, sent every
   * CHECKPOINT_INTERVAL × 32 events it looked at, matching or not) are reported, in order with the
   * events: a checkpoint is reported only once every event the client received before it has been
   * delivered, and as the position just before it (the event at the checkpoint itself is delivered
   * again after a restart from there, never skipped), never below what was already delivered.
   */
  subscribeToAll(options: SubscribeOptions = {}): Subscription {
    const from = options.fromPosition;
    const onProgress = options.onProgress;
    let delivered = from === undefined || from === 'start' || from === 'end' ? -1n : from;
    let holding = false;
    let waiting: { at: bigint; resolve: () => void } | null = null;
    let closed = false;
    const flush = () => {
      if (!waiting || holding || sub.readableLength > 0) return;
      const { at, resolve } = waiting;
      waiting = null;
      if (!closed && at > delivered) {
        delivered = at;
        onProgress?.(at);
      }
      resolve();
    };
    const base = serverFilter(options.filter);
    const filter: Filter | undefined = onProgress
      ? {
          ...base,
          checkpointInterval: CHECKPOINT_INTERVAL,
          checkpointReached: (_s, p) =>
            new Promise<void>((resolve) => {
              waiting = { at: p.commit - 1n, resolve };
              flush();
            }),
        }
      : base;
    const sub = this.client.subscribeToAll({
      fromPosition: from === undefined || from === 'start' || from === 0n ? kurrent().START : from === 'end' ? kurrent().END : position(from),
      filter,
    });
    async function* iterate(): AsyncGenerator<RecordedEvent> {
      const it = sub[Symbol.asyncIterator]() as AsyncIterator<AllStreamResolvedEvent>;
      try {
        for (;;) {
          flush();
          const next = await it.next();
          if (next.done || closed) return;
          holding = true;
          const e = toRecorded(next.value);
          if (e && matchesFilter(e, options.filter)) {
            if (e.position > delivered) delivered = e.position;
            holding = false;
            // a waiting checkpoint goes out once the consumer has this event (after its microtasks)
            if (waiting) setImmediate(flush);
            yield e;
          }
          holding = false;
        }
      } catch (err) {
        if (!closed) throw err;
      } finally {
        holding = false;
        waiting?.resolve();
      }
    }
    return subscriptionOf(iterate(), async () => {
      closed = true;
      waiting?.resolve();
      await sub.unsubscribe();
    });
  }

  async close(): Promise<void> {
    await this.client.dispose();
  }
}

/** The server's checkpoint interval, in multiples of its search window (32 events): every 320 events looked at. */
const CHECKPOINT_INTERVAL = 10;

/**
 * The port's filter as a KurrentDB server-side filter (one expression, on event types or on stream
 * names): the event types when given (the more selective, and they leave out the system events), else
 * the stream prefixes, else every non-system event. What it leaves in is filtered again on the client.
 */
function serverFilter(filter?: SubscriptionFilter): Filter {
  if (filter?.eventTypes?.length) return kurrent().eventTypeFilter({ regex: `^(?:${filter.eventTypes.map(escapeRegex).join('|')})$` });
  if (filter?.streamPrefixes?.length) return kurrent().streamNameFilter({ prefixes: filter.streamPrefixes });
  return kurrent().excludeSystemEvents();
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function position(commit: bigint): Position {
  return { commit, prepare: commit };
}

function toRecorded(resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent | null {
  const e = resolved.event;
  if (!e || e.type.startsWith('$') || e.streamId.startsWith('$')) return null;
  let metadata = e.metadata as EventMetadata;
  if (metadata && typeof metadata === 'object' && STAMP in metadata) {
    const { [STAMP]: _stamp, ...rest } = metadata;
    metadata = rest as EventMetadata;
  }
  return {
    id: e.id,
    streamId: e.streamId,
    revision: e.revision,
    position: e.position?.commit ?? 0n,
    type: e.type,
    data: e.data,
    metadata,
    created: e.created instanceof Date ? e.created.toISOString() : String(e.created),
  };
}
