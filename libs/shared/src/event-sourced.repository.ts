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

/**
 * Load → decide → append with the expected revision read. On a concurrency conflict, `conflict` says
 * what happens: `redecide` decides again on the fresh state (up to `maxAttempts` times); `reject`
 * fails with PreconditionFailedError unless the stream is (still) at one of the client's revisions.
 */
export async function executeCommand<C, E extends { type: string; data: unknown }, S>(
  store: EventStore,
  streamId: string,
  decider: Decider<C, E, S>,
  command: C,
  ctx: CommandContext,
  conflict: ConflictPolicy = REDECIDE,
): Promise<DecisionResult<S, E>> {
  for (let attempt = 1; ; attempt++) {
    let state = decider.initialState;
    let revision: bigint | null = null;
    try {
      for (const e of await store.readStream(streamId)) {
        state = decider.evolve(state, { type: e.type, data: e.data } as E);
        revision = e.revision;
      }
    } catch (err) {
      if (!(err instanceof StreamNotFoundError)) throw err;
    }
    // A stream that does not exist yet is left to the decider (a missing aggregate is its 404).
    if (conflict.onConflict === 'reject' && revision !== null && !conflict.expectedRevisions.includes(revision)) {
      throw new PreconditionFailedError();
    }
    const events = decider.decide(command, state);
    if (events.length === 0) return { state, events, position: null, revision };
    let result: AppendResult;
    try {
      result = await store.append(streamId, toNewEvents(events, ctx), revision === null ? 'no_stream' : revision);
    } catch (err) {
      if (!(err instanceof WrongExpectedVersionError)) throw err;
      if (conflict.onConflict === 'reject') throw new PreconditionFailedError();
      if (attempt >= conflict.maxAttempts) throw err;
      await new Promise((r) => setTimeout(r, Math.random() * Math.min(50, attempt * 5)));
      continue;
    }
    return {
      state: events.reduce((s, e) => decider.evolve(s, e), state),
      events,
      position: result.position,
      revision: result.nextExpectedRevision,
    };
  }
}
