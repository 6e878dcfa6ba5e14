import type * as Kurrent from '@kurrent/kurrentdb-client';
import type { AllStreamResolvedEvent, KurrentDBClient, Position, ResolvedEvent } from '@kurrent/kurrentdb-client';
import {
  AppendOptions,
  AppendResult,
  EventMetadata,
  EventStore,
  ExpectedRevision,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  StreamDeletedError,
  StreamNotFoundError,
  SubscribeOptions,
  Subscription,
  WrongExpectedVersionError,
  matchesFilter,
  streamPartition,
} from './event-store.port';
import { FencedError } from './fence';

/**
 * The client library, loaded when the first KurrentDB store is built: 70 ms of module loading that a
 * process on the embedded SQLite store (and every projection-rebuild worker) no longer pays (issue 16).
 */
let loaded: typeof Kurrent | null = null;
const kurrent = (): typeof Kurrent => (loaded ??= require('@kurrent/kurrentdb-client') as typeof Kurrent);

/**
 * Production event store: KurrentDB (formerly EventStoreDB) through its
 * maintained gRPC client `@kurrent/kurrentdb-client`, the successor of
 * `@eventstore/db-client`. The global `position` is KurrentDB's commit position.
 */
export class KurrentDbEventStore implements EventStore {
  readonly kind = 'kurrentdb';
  private readonly client: KurrentDBClient;

  constructor(connectionString: string) {
    this.client = kurrent().KurrentDBClient.connectionString(connectionString);
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision, options: AppendOptions = {}): Promise<AppendResult> {
    const fence = options.fence;
    if (fence) {
      // KurrentDB has no conditional append on another stream's revision, so the fence is read
      // just before the append. The window of one round trip that remains is covered by the
      // runner's local lease, which lapses before the group can hand the partition to another
      // runner (docs/resilience.md).
      const [head] = await this.readStream(fence.streamId, { direction: 'backwards', maxCount: 1 }).catch((err) => {
        if (err instanceof StreamNotFoundError) return [];
        throw err;
      });
      if (!head || head.revision !== fence.revision) throw new FencedError(fence, head ? head.revision : 'no_stream');
    }
    try {
      const result = await this.client.appendToStream(
        streamId,
        events.map((e) => kurrent().jsonEvent({ id: e.id, type: e.type, data: e.data as never, metadata: e.metadata as never })),
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

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    try {
      const backwards = options.direction === 'backwards';
      for await (const resolved of this.client.readStream(streamId, {
        fromRevision: options.fromRevision ?? (backwards ? kurrent().END : kurrent().START),
        direction: backwards ? kurrent().BACKWARDS : kurrent().FORWARDS,
        maxCount: options.maxCount ?? Number.MAX_SAFE_INTEGER,
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

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const from = options.fromPosition;
    const out: RecordedEvent[] = [];
    const max = options.maxCount ?? Number.MAX_SAFE_INTEGER;
    for await (const resolved of this.client.readAll({
      fromPosition: from === undefined || from === 0n ? kurrent().START : position(from),
      direction: kurrent().FORWARDS,
      maxCount: max + 1,
      filter: kurrent().excludeSystemEvents(),
    })) {
      const e = toRecorded(resolved);
      if (!e || (from !== undefined && e.position <= from)) continue; // KurrentDB reads from a position inclusively
      if (!matchesFilter(e, options.filter)) continue;
      if (options.partition && streamPartition(e.streamId, options.partition.count) !== options.partition.index) continue;
      out.push(e);
      if (out.length >= max) break;
    }
    return out;
  }

  async headPosition(): Promise<bigint> {
    for await (const resolved of this.client.readAll({ fromPosition: kurrent().END, direction: kurrent().BACKWARDS, maxCount: 1, filter: kurrent().excludeSystemEvents() })) {
      return resolved.event?.position?.commit ?? 0n;
    }
    return 0n;
  }

  subscribeToAll(options: SubscribeOptions = {}): Subscription {
    const from = options.fromPosition;
    const prefixes = options.filter?.streamPrefixes;
    const sub = this.client.subscribeToAll({
      fromPosition: from === undefined || from === 'start' || from === 0n ? kurrent().START : from === 'end' ? kurrent().END : position(from),
      filter: prefixes?.length ? kurrent().streamNameFilter({ prefixes }) : kurrent().excludeSystemEvents(),
    });
    async function* iterate(): AsyncGenerator<RecordedEvent> {
      for await (const resolved of sub) {
        const e = toRecorded(resolved as AllStreamResolvedEvent);
        if (e && matchesFilter(e, options.filter)) yield e;
      }
    }
    const gen = iterate();
    return {
      [Symbol.asyncIterator]: () => gen,
      async close() {
        await sub.unsubscribe();
        await gen.return(undefined);
      },
    };
  }

  async close(): Promise<void> {
    await this.client.dispose();
  }
}

function position(commit: bigint): Position {
  return { commit, prepare: commit };
}

function toRecorded(resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent | null {
  const e = resolved.event;
  if (!e || e.type.startsWith('$') || e.streamId.startsWith('$')) return null;
  return {
    id: e.id,
    streamId: e.streamId,
    revision: e.revision,
    position: e.position?.commit ?? 0n,
    type: e.type,
    data: e.data,
    metadata: e.metadata as EventMetadata,
    created: e.created instanceof Date ? e.created.toISOString() : String(e.created),
  };
}
