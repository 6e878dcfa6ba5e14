import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventStore, SqliteEventStore, WrongExpectedVersionError } from '@gridrocket/event-store';
import { PreconditionFailedError, REDECIDE, conflictPolicy, parseIfMatch, revisionTag, systemContext } from '@gridrocket/shared';
import type { Decider } from '@gridrocket/shared';
import { executeCommand } from '@gridrocket/shared/runtime';

type Ev = { type: 'Set'; data: { value: number; seen: number } };
type Cmd = { type: 'Set'; value: number };
/** A register: each Set records the value it replaces, so a decision shows which state it was made on. */
const register: Decider<Cmd, Ev, number> = {
  initialState: 0,
  decide: (c, s) => [{ type: 'Set', data: { value: c.value, seen: s } }],
  evolve: (_s, e) => e.data.value,
};

describe('executeCommand: how a command meets a concurrent writer', () => {
  let dir: string;
  let store: SqliteEventStore;
  const ctx = systemContext('tester');
  const set = (value: number): Cmd => ({ type: 'Set', value });

  /**
   * A store where another writer appends `value` right before this command's first append to the
   * stream as it read it (a `no_stream` append is only the probe for a stream that does not exist yet).
   */
  function racing(value: number): EventStore & { raced: number } {
    let raced = 0;
    const wrapper = Object.create(store) as EventStore & { raced: number };
    wrapper.append = async (streamId, events, expected) => {
      if (expected !== 'no_stream' && raced++ === 0) await executeCommand(store, streamId, register, set(value), ctx);
      return store.append(streamId, events, expected);
    };
    Object.defineProperty(wrapper, 'raced', { get: () => raced });
    return wrapper;
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gr-exec-'));
    store = new SqliteEventStore(join(dir, 'events.sqlite'));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const values = async (streamId: string) => (await store.readStream(streamId)).map((e) => (e.data as Ev['data']));

  it('re-decides on the fresh state when the command is safe to re-decide (the default)', async () => {
    await executeCommand(store, 's', register, set(1), ctx);
    const decision = await executeCommand(racing(2), 's', register, set(3), ctx, REDECIDE);
    expect(decision.revision).toBe(2n);
    // the second decision saw the other writer's 2, not the 1 it first read
    expect(await values('s')).toEqual([{ value: 1, seen: 0 }, { value: 2, seen: 1 }, { value: 3, seen: 2 }]);
  });

  it('refuses, writing nothing, when the client named a revision that is no longer current', async () => {
    await executeCommand(store, 's', register, set(1), ctx);
    await executeCommand(store, 's', register, set(2), ctx);
    await expect(executeCommand(store, 's', register, set(9), ctx, conflictPolicy([0n]))).rejects.toBeInstanceOf(PreconditionFailedError);
    expect(await values('s')).toHaveLength(2);
  });

  it('refuses when another writer appends between its read and its append, although the read matched', async () => {
    await executeCommand(store, 's', register, set(1), ctx);
    const err = await executeCommand(racing(2), 's', register, set(9), ctx, conflictPolicy([0n])).catch((e) => e);
    expect(err).toBeInstanceOf(PreconditionFailedError);
    expect(err.status).toBe(412);
    expect(await values('s')).toEqual([{ value: 1, seen: 0 }, { value: 2, seen: 1 }]);
  });

  it('applies the command when the stream is at one of the named revisions', async () => {
    await executeCommand(store, 's', register, set(1), ctx);
    await executeCommand(store, 's', register, set(2), ctx);
    const decision = await executeCommand(store, 's', register, set(3), ctx, conflictPolicy([5n, 1n]));
    expect(decision.revision).toBe(2n);
  });

  it('gives up after maxAttempts conflicts with the store\'s own error', async () => {
    await executeCommand(store, 's', register, set(1), ctx);
    await expect(executeCommand(racing(2), 's', register, set(3), ctx, { onConflict: 'redecide', maxAttempts: 1 })).rejects.toBeInstanceOf(WrongExpectedVersionError);
  });
});

describe('revision tags (ETag / If-Match)', () => {
  it('writes a revision as a strong tag and reads it back', () => {
    expect(revisionTag(7n)).toBe('"7"');
    expect(parseIfMatch(revisionTag(7n))).toEqual([7n]);
  });
  it('reads no precondition from an absent, empty or * header', () => {
    expect(parseIfMatch(undefined)).toBeNull();
    expect(parseIfMatch('')).toBeNull();
    expect(parseIfMatch(' * ')).toBeNull();
  });
  it('reads a list, and ignores weak and foreign tags (strong comparison)', () => {
    expect(parseIfMatch('"1", W/"2" ,"x", "3"')).toEqual([1n, 3n]);
    expect(parseIfMatch('W/"2"')).toEqual([]);
    expect(parseIfMatch(['"4"', '"5"'])).toEqual([4n, 5n]);
    expect(parseIfMatch('"01"')).toEqual([]);
  });
});
