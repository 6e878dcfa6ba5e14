import { Readable } from 'node:stream';
import type { AllStreamResolvedEvent, Filter, Position } from '@kurrent/kurrentdb-client';
import { kurrentClient } from './kurrentdb-errors';

/**
 * A scripted, in-memory stand-in for the client's `KurrentDBClient` (test-only), answering as the
 * client does against a server, as read from the client's source (1.3.x):
 * - appendToStream: the server's expected-revision check (an exact revision below the head is an
 *   idempotent re-append when the same ids are there, `any` is idempotent by id), the client's real
 *   WrongExpectedVersionError;
 * - readStream / readAll: async iterables of resolved events; a missing stream fails on iteration with
 *   the client's StreamNotFoundError; readAll applies the server-side filter (one expression, on the
 *   stream name or the event type, prefixes or regex) and counts `maxCount` in matching events; a
 *   position is read inclusively;
 * - subscribeToAll: the client's own `Subscription` class over a scripted gRPC stream of ReadResp
 *   messages (events after the position, then live ones; a checkpoint every `checkpointInterval` × 32
 *   events looked at; `drop(err)` fails the gRPC stream as a server restart does).
 * `beforeAppend` runs at the start of every append: a test schedules another writer there.
 */
interface Stored {
  streamId: string;
  id: string;
  revision: bigint;
  type: string;
  data: unknown;
  metadata: unknown;
  position: Position;
  created: Date;
}

const START = 'start';
const END = 'end';
const SEARCH_WINDOW = 32;

export class FakeKurrentDbClient {
  readonly log: Stored[] = [];
  private next = 1000n;
  private readonly live = new Set<(e: Stored) => void>();
  private readonly streams = new Set<Readable>();
  beforeAppend: ((streamId: string) => Promise<void> | void) | null = null;

  private stream(id: string): Stored[] {
    return this.log.filter((e) => e.streamId === id);
  }

  /** Appends as the server does (used by the tests to write "as another process"). */
  async appendToStream(streamId: string, events: { id: string; type: string; data: unknown; metadata?: unknown }[], options: { streamState?: unknown } = {}) {
    const hook = this.beforeAppend;
    if (hook) {
      this.beforeAppend = null;
      await hook(streamId);
    }
    const k = kurrentClient();
    const state = (options.streamState ?? 'any') as 'any' | 'no_stream' | 'stream_exists' | bigint;
    const existing = this.stream(streamId);
    const head: bigint | 'no_stream' = existing.length ? existing[existing.length - 1].revision : 'no_stream';
    const wrong = () => new k.WrongExpectedVersionError(undefined, { streamName: streamId, expected: state, current: head });
    const same = (from: number) => events.every((e, i) => existing[from + i]?.id === e.id);
    const answer = (last: Stored) => ({ success: true, nextExpectedRevision: last.revision, position: last.position });
    if (state === 'any' || state === 'stream_exists') {
      if (state === 'stream_exists' && head === 'no_stream') throw wrong();
      const at = existing.findIndex((e) => e.id === events[0]?.id);
      if (at >= 0 && same(at)) return answer(existing[at + events.length - 1]);
    } else if (state === 'no_stream') {
      if (head !== 'no_stream') {
        if (same(0)) return answer(existing[events.length - 1]);
        throw wrong();
      }
    } else {
      if (head === 'no_stream' || state > head) throw wrong();
      if (state < head) {
        if (same(Number(state) + 1)) return answer(existing[Number(state) + events.length]);
        throw wrong();
      }
    }
    let revision = head === 'no_stream' ? -1n : head;
    let last: Stored | null = null;
    for (const e of events) {
      this.next += 100n;
      last = { streamId, id: e.id, revision: ++revision, type: e.type, data: e.data, metadata: e.metadata, position: { commit: this.next, prepare: this.next }, created: new Date() };
      this.log.push(last);
      for (const l of this.live) l(last);
    }
    return { success: true, nextExpectedRevision: revision, position: last?.position };
  }

  readStream(streamId: string, options: { fromRevision?: unknown; direction?: string; maxCount?: number | bigint } = {}): AsyncIterableIterator<AllStreamResolvedEvent> {
    const self = this;
    return (async function* () {
      const events = self.stream(streamId);
      if (events.length === 0) {
        const bridge = Object.assign(new Error(`${streamId} not found`), { name: 'StreamNotFoundError', metadata: {} });
        throw new (kurrentClient().StreamNotFoundError)(bridge as never, streamId);
      }
      const backwards = options.direction === 'backwards';
      const from = options.fromRevision;
      let list = backwards ? [...events].reverse() : events;
      if (typeof from === 'bigint') list = list.filter((e) => (backwards ? e.revision <= from : e.revision >= from));
      const max = Number(options.maxCount ?? Number.MAX_SAFE_INTEGER);
      for (const e of list.slice(0, max)) yield resolved(e);
    })();
  }

  readAll(options: { fromPosition?: unknown; direction?: string; maxCount?: number | bigint; filter?: Filter } = {}): AsyncIterableIterator<AllStreamResolvedEvent> {
    const self = this;
    return (async function* () {
      const backwards = options.direction === 'backwards';
      const from = options.fromPosition as Position | typeof START | typeof END | undefined;
      let list = backwards ? [...self.log].reverse() : [...self.log];
      if (from && typeof from === 'object') list = list.filter((e) => (backwards ? e.position.commit <= from.commit : e.position.commit >= from.commit));
      else if (from === END && !backwards) list = [];
      const max = Number(options.maxCount ?? Number.MAX_SAFE_INTEGER);
      let n = 0;
      for (const e of list) {
        if (n >= max) return;
        if (!passes(e, options.filter)) continue;
        n++;
        yield resolved(e);
      }
    })();
  }

  subscribeToAll(options: { fromPosition?: unknown; filter?: Filter } = {}) {
    // the client's own Subscription class (dist/streams/utils/Subscription.js), fed by a scripted gRPC stream
    // eslint-disable-next-line @typescript-eslint/no-var-requires
    const { Subscription } = require('@kurrent/kurrentdb-client/dist/streams/utils/Subscription');
    const from = options.fromPosition as Position | typeof START | typeof END | undefined;
    const filter = options.filter;
    const grpc = new Readable({ objectMode: true, read() {} }) as Readable & { cancel(): void };
    grpc.cancel = () => {
      this.live.delete(feed);
      this.streams.delete(grpc);
      grpc.push(null);
    };
    this.streams.add(grpc);
    const every = filter ? (filter.checkpointInterval ?? 1) * SEARCH_WINDOW : Infinity;
    let looked = 0;
    const feed = (e: Stored) => {
      looked++;
      if (passes(e, filter)) grpc.push(eventResp(e));
      if (looked % every === 0) grpc.push(checkpointResp(e.position));
    };
    const start = from === END ? (this.log.at(-1)?.position.commit ?? 0n) : from && typeof from === 'object' ? from.commit : -1n;
    for (const e of this.log) if (e.position.commit > start) feed(e); // a subscription starts after its position
    this.live.add(feed);
    return new Subscription(async () => grpc, (x: AllStreamResolvedEvent) => x, {}, filter?.checkpointReached);
  }

  /** Fails every open subscription's gRPC stream with `err` (a server restart: UNAVAILABLE). */
  drop(err: Error): void {
    for (const s of [...this.streams]) {
      this.streams.delete(s);
      s.destroy(err);
    }
    this.live.clear();
  }

  async dispose(): Promise<void> {
    for (const s of [...this.streams]) (s as Readable & { cancel(): void }).cancel();
  }
}

function passes(e: Stored, filter?: Filter): boolean {
  if (!filter) return true;
  const subject = filter.filterOn === 'streamName' ? e.streamId : e.type;
  if ('prefixes' in filter && filter.prefixes) return filter.prefixes.some((p: string) => subject.startsWith(p));
  if ('regex' in filter && filter.regex) return new RegExp(filter.regex).test(subject);
  return true;
}

function record(e: Stored) {
  return { streamId: e.streamId, id: e.id, revision: e.revision, type: e.type, data: e.data, metadata: e.metadata, isJson: true, created: e.created, position: e.position };
}

function resolved(e: Stored): AllStreamResolvedEvent {
  return { event: record(e) } as unknown as AllStreamResolvedEvent;
}

const no = () => false;
/** A ReadResp message as the Subscription class reads it (only the has…/get… it calls). */
function eventResp(e: Stored) {
  return { hasConfirmation: no, hasCaughtUp: no, hasFellBehind: no, hasCheckpoint: no, hasEvent: () => true, getEvent: () => resolved(e) };
}
function checkpointResp(p: Position) {
  return {
    hasConfirmation: no,
    hasCaughtUp: no,
    hasFellBehind: no,
    hasEvent: no,
    hasCheckpoint: () => true,
    getCheckpoint: () => ({ getCommitPosition: () => p.commit.toString(), getPreparePosition: () => p.prepare.toString() }),
  };
}
