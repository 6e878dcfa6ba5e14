import {
  AppendResult,
  EventStore,
  StreamNotFoundError,
  WrongExpectedVersionError,
} from '@gridrocket/event-store';
import { ConflictPolicy, PreconditionFailedError, REDECIDE } from './command';
import { CommandContext, toNewEvents } from './command-context';
import { Decider } from './decider';

export interface DecisionResult<S, E> {
  state: S;
  events: E[];
  /** Global position of the last appended event, or null when nothing was appended. */
  position: bigint | null;
  revision: bigint | null;
}

// ---------------------------------------------------------------------------------------------
// Folded states kept in memory (issue 16: stop re-reading streams)

/** An aggregate's state folded up to `revision` by `decider`. */
interface Folded {
  decider: object;
  state: unknown;
  revision: bigint;
}

/**
 * Per event store, per stream: the last folded state (bounded, least recently used out). A command
 * decides on it and appends with its revision; the store's revision check is what keeps it honest:
 * on a conflict (another process appended) the entry is caught up by reading only the events after
 * its revision. Deciders may mutate a state's inner objects as they evolve it (the bot's trading
 * ledger does), so an entry is evolved only by whoever still finds that very entry in the cache, and
 * a state is never folded twice.
 */
class FoldedStates {
  private readonly entries = new Map<string, Folded>();
  constructor(public limit: number) {}

  get(streamId: string, decider: object): Folded | undefined {
    const e = this.entries.get(streamId);
    if (!e || e.decider !== decider) return undefined;
    this.entries.delete(streamId); // most recently used last
    this.entries.set(streamId, e);
    return e;
  }

  peek(streamId: string): Folded | undefined {
    return this.entries.get(streamId);
  }

  set(streamId: string, entry: Folded): void {
    this.entries.delete(streamId);
    this.entries.set(streamId, entry);
    this.trim();
  }

  trim(): void {
    while (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value as string);
  }

  delete(streamId: string): void {
    this.entries.delete(streamId);
  }

  get size(): number {
    return this.entries.size;
  }
}

const DEFAULT_LIMIT = Number(process.env.AGGREGATE_CACHE_SIZE ?? 20_000);
const caches = new WeakMap<EventStore, FoldedStates>();

function cacheOf(store: EventStore): FoldedStates {
  let c = caches.get(store);
  if (!c) caches.set(store, (c = new FoldedStates(DEFAULT_LIMIT)));
  return c;
}

/** How many folded states are kept per event store (0 turns the cache off); tests and benchmarks. */
export function setFoldedStateLimit(store: EventStore, limit: number): void {
  const c = cacheOf(store);
  c.limit = limit;
  c.trim();
}

/**
 * The stream's current state: the cached fold caught up with the events after its revision (one
 * indexed read, usually empty), or a full read on a miss. Null when the stream does not exist.
 *
 * `atLeast`: a reader that only needs a state that has folded this revision (a reactor handling the
 * event at that revision, which will be handed every later event of the stream too) takes the fold in
 * memory without the read when it has got that far (issue 16: the runner read every bot's stream again
 * on each lifecycle event, although the command that appended it had just folded it).
 */
export async function loadState<E extends { type: string; data: unknown }, S>(
  store: EventStore,
  streamId: string,
  decider: Pick<Decider<unknown, E, S>, 'initialState' | 'evolve'>,
  options: { atLeast?: bigint } = {},
): Promise<{ state: S; revision: bigint } | null> {
  const cache = cacheOf(store);
  const known = options.atLeast === undefined ? undefined : cache.get(streamId, decider);
  const folded = known && known.revision >= options.atLeast! ? known : await catchUp(cache, store, streamId, decider);
  return folded && { state: folded.state as S, revision: folded.revision };
}

/**
 * Decides `command` on the stream's current state without appending anything: the decider's refusal is
 * thrown, its events returned. For checks that must run before a confirmation is spent (a two-factor code,
 * issue 40): the command itself is decided again, on the revision it appends with, when it runs.
 */
export async function wouldDecide<C, E extends { type: string; data: unknown }, S>(store: EventStore, streamId: string, decider: Decider<C, E, S>, command: C): Promise<E[]> {
  const loaded = await loadState(store, streamId, decider);
  return decider.decide(command, loaded ? loaded.state : decider.initialState);
}

async function catchUp<E extends { type: string; data: unknown }, S>(
  cache: FoldedStates,
  store: EventStore,
  streamId: string,
  decider: Pick<Decider<unknown, E, S>, 'initialState' | 'evolve'>,
): Promise<Folded | null> {
  for (;;) {
    const start = cache.get(streamId, decider);
    let read;
    try {
      read = await store.readStream(streamId, start ? { fromRevision: start.revision + 1n } : {});
    } catch (err) {
      if (!(err instanceof StreamNotFoundError)) throw err;
      return null;
    }
    // Someone else moved the entry on while this read was under way: start again from theirs.
    if (start ? cache.peek(streamId) !== start : cache.get(streamId, decider) !== undefined) continue;
    let state = (start ? start.state : decider.initialState) as S;
    let revision = start ? start.revision : null;
    for (const e of read) {
      state = decider.evolve(state, { type: e.type, data: e.data } as E);
      revision = e.revision;
    }
    if (revision === null) return null;
    if (start && read.length === 0) return start;
    const folded = { decider, state, revision };
    cache.set(streamId, folded);
    return folded;
  }
}

/**
 * Load → decide → append with the expected revision read. On a concurrency conflict, `conflict` says
 * what happens: `redecide` decides again on the fresh state (up to `maxAttempts` times); `reject`
 * fails with PreconditionFailedError unless the stream is (still) at one of the client's revisions.
 * The state comes from the in-memory fold when there is one (see FoldedStates): a conflict, or a
 * client revision it does not show, catches it up first.
 */
export async function executeCommand<C, E extends { type: string; data: unknown }, S>(
  store: EventStore,
  streamId: string,
  decider: Decider<C, E, S>,
  command: C,
  ctx: CommandContext,
  conflict: ConflictPolicy = REDECIDE,
): Promise<DecisionResult<S, E>> {
  const cache = cacheOf(store);
  // A stream this process has not folded is most often one the command creates: try that first,
  // guarded by `no_stream`, instead of reading a stream that does not exist (issue 16).
  if (conflict.onConflict !== 'reject' && cache.limit > 0 && cache.peek(streamId) === undefined) {
    const created = await createOptimistically(cache, store, streamId, decider, command, ctx);
    if (created) return created;
  }
  let stale = false; // a conflict showed the fold is behind the store
  for (let attempt = 1; ; attempt++) {
    let entry: Folded | null | undefined = cache.limit > 0 && !stale ? cache.get(streamId, decider) : undefined;
    if (entry && conflict.onConflict === 'reject' && !conflict.expectedRevisions.includes(entry.revision)) entry = undefined;
    const cached = !!entry; // decided on the state in memory, not on a read made just now
    if (!entry) entry = await catchUp(cache, store, streamId, decider);
    stale = false;
    const state = (entry ? entry.state : decider.initialState) as S;
    const revision = entry ? entry.revision : null;
    // A stream that does not exist yet is left to the decider (a missing aggregate is its 404).
    if (conflict.onConflict === 'reject' && revision !== null && !conflict.expectedRevisions.includes(revision)) {
      throw new PreconditionFailedError();
    }
    // A refusal or a no-op decided on the state in memory writes nothing, so no revision check would
    // catch a stale state (another process appended): it is confirmed on the stream's latest events.
    const movedOn = async () => cached && (await catchUp(cache, store, streamId, decider))?.revision !== revision;
    let events: E[];
    try {
      events = decider.decide(command, state);
    } catch (err) {
      if (await movedOn()) {
        stale = true;
        continue;
      }
      throw err;
    }
    if (events.length === 0) {
      if (await movedOn()) {
        stale = true;
        continue;
      }
      return { state, events, position: null, revision };
    }
    let result: AppendResult;
    try {
      result = await store.append(streamId, toNewEvents(events, ctx), revision === null ? 'no_stream' : revision, { fence: ctx.fence });
    } catch (err) {
      if (!(err instanceof WrongExpectedVersionError)) {
        if (entry && cache.peek(streamId) === entry) cache.delete(streamId); // written or not: unknown
        throw err;
      }
      if (conflict.onConflict === 'reject') throw new PreconditionFailedError();
      if (attempt >= conflict.maxAttempts) throw err;
      await new Promise((r) => setTimeout(r, Math.random() * Math.min(50, attempt * 5)));
      stale = true;
      continue;
    }
    let next: S;
    const untouched = entry ? cache.peek(streamId) === entry : cache.peek(streamId) === undefined;
    if (untouched || cache.limit === 0) {
      next = events.reduce((s, e) => decider.evolve(s, e), state);
      if (cache.limit > 0) cache.set(streamId, { decider, state: next, revision: result.nextExpectedRevision });
    } else {
      // a reader folded our events (or more) meanwhile: go on from its fold rather than fold twice
      next = (await catchUp(cache, store, streamId, decider))!.state as S;
    }
    return { state: next, events, position: result.position, revision: result.nextExpectedRevision };
  }
}

/**
 * Decides on the initial state and appends with `no_stream`. Null (nothing written) when the decider
 * refuses or does nothing on a missing aggregate, or when the stream turns out to exist: the caller
 * then reads it and decides as usual, so an existing aggregate is never decided on a blank state.
 */
async function createOptimistically<C, E extends { type: string; data: unknown }, S>(
  cache: FoldedStates,
  store: EventStore,
  streamId: string,
  decider: Decider<C, E, S>,
  command: C,
  ctx: CommandContext,
): Promise<DecisionResult<S, E> | null> {
  let events: E[];
  try {
    events = decider.decide(command, decider.initialState);
  } catch {
    return null;
  }
  if (events.length === 0) return null;
  let result: AppendResult;
  try {
    result = await store.append(streamId, toNewEvents(events, ctx), 'no_stream', { fence: ctx.fence });
  } catch (err) {
    if (err instanceof WrongExpectedVersionError) return null;
    throw err;
  }
  const state = events.reduce((s, e) => decider.evolve(s, e), decider.initialState);
  if (cache.peek(streamId) === undefined) cache.set(streamId, { decider, state, revision: result.nextExpectedRevision });
  return { state, events, position: result.position, revision: result.nextExpectedRevision };
}
