import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { EventStore, ReadStreamOptions, SqliteEventStore } from '@gridrocket/event-store';
import { systemContext } from '@gridrocket/shared';
import type { Decider } from '@gridrocket/shared';
import { executeCommand, loadState, setFoldedStateLimit } from '@gridrocket/shared/runtime';

type Ev = { type: 'Added'; data: { n: number } };
type Cmd = { type: 'Add'; n: number };
/** A list that evolves by mutating its inner array, as the bot's trading ledger does. */
interface List { items: number[]; count: number }
const list: Decider<Cmd, Ev, List> = {
  initialState: { items: [], count: 0 },
  decide: (c) => [{ type: 'Added', data: { n: c.n } }],
  evolve: (s, e) => {
    const items = s.items === list.initialState.items ? [] : s.items;
    items.push(e.data.n);
    return { items, count: s.count + 1 };
  },
};

describe('executeCommand keeps folded states: a command does not re-read its stream', () => {
  let dir: string;
  let store: SqliteEventStore;
  let reads: { from: bigint }[];
  let counted: EventStore;
  const ctx = systemContext('tester');

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gr-folded-'));
    store = new SqliteEventStore(join(dir, 'events.sqlite'));
    reads = [];
    counted = {
      kind: 'counted',
      append: (s, e, x, o) => store.append(s, e, x, o),
      readAll: (o) => store.readAll(o),
      subscribeToAll: (o) => store.subscribeToAll(o),
      headPosition: () => store.headPosition(),
      close: () => store.close(),
      async readStream(streamId: string, o: ReadStreamOptions = {}) {
        reads.push({ from: o.fromRevision ?? 0n });
        return store.readStream(streamId, o);
      },
    };
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('decides on the state in memory once the stream has been folded', async () => {
    for (let i = 0; i < 50; i++) await executeCommand(counted, 's', list, { type: 'Add', n: i }, ctx);
    expect(reads).toHaveLength(0); // the first command created the stream without reading it
    const r = await executeCommand(counted, 's', list, { type: 'Add', n: 50 }, ctx);
    expect(r.revision).toBe(50n);
    expect(r.state.items).toEqual(Array.from({ length: 51 }, (_, i) => i));
  });

  it('decides on the stream, not on a blank state, when a stream it never folded already exists', async () => {
    const meta = { userId: 'x', correlationId: 'c', causationId: null, occurredAt: new Date().toISOString(), schemaVersion: 1 };
    // written by another process: this process has no fold of 's'
    await store.append('s', [5, 6, 7].map((n) => ({ id: randomUUID(), type: 'Added', data: { n }, metadata: meta })), 'no_stream');
    const r = await executeCommand(counted, 's', list, { type: 'Add', n: 8 }, ctx);
    expect(r.revision).toBe(3n);
    expect(r.state.items).toEqual([5, 6, 7, 8]);
    expect((await store.readStream('s')).map((e) => (e.data as { n: number }).n)).toEqual([5, 6, 7, 8]);
  });

  it('catches up with another writer on a conflict by reading only the events it missed', async () => {
    for (let i = 0; i < 10; i++) await executeCommand(counted, 's', list, { type: 'Add', n: i }, ctx);
    // another process appends (not through this cache)
    await store.append('s', [{ id: randomUUID(), type: 'Added', data: { n: 100 }, metadata: { userId: 'x', correlationId: 'c', causationId: null, occurredAt: new Date().toISOString(), schemaVersion: 1 } }], 9n);
    reads = [];
    const r = await executeCommand(counted, 's', list, { type: 'Add', n: 11 }, ctx);
    expect(r.revision).toBe(11n);
    expect(r.state.items).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 100, 11]);
    expect(reads).toEqual([{ from: 10n }]);
  });

  it('never folds an event twice when readers and writers of one stream overlap', async () => {
    await executeCommand(counted, 's', list, { type: 'Add', n: 0 }, ctx);
    await store.append('s', [{ id: randomUUID(), type: 'Added', data: { n: 1 }, metadata: { userId: 'x', correlationId: 'c', causationId: null, occurredAt: new Date().toISOString(), schemaVersion: 1 } }], 0n);
    const [a, b, c] = await Promise.all([
      loadState(counted, 's', list),
      loadState(counted, 's', list),
      executeCommand(counted, 's', list, { type: 'Add', n: 2 }, ctx),
    ]);
    expect(a!.state.items.slice(0, 2)).toEqual([0, 1]);
    expect(b!.state.items.slice(0, 2)).toEqual([0, 1]);
    expect(c.state.items).toEqual([0, 1, 2]);
    expect((await loadState(counted, 's', list))!.state.items).toEqual([0, 1, 2]);
  });

  it('gives a reader that needs only a given revision the fold in memory without a read, and reads when the fold is behind it', async () => {
    for (let i = 0; i < 3; i++) await executeCommand(counted, 's', list, { type: 'Add', n: i }, ctx);
    // a reactor handling the event at revision 2 (this process's own): the fold has it
    expect((await loadState(counted, 's', list, { atLeast: 2n }))!.state.items).toEqual([0, 1, 2]);
    expect(reads).toEqual([]);
    // another process appends revision 3; a reactor handling it needs that revision: caught up by a read
    await store.append('s', [{ id: randomUUID(), type: 'Added', data: { n: 30 }, metadata: { userId: 'x', correlationId: 'c', causationId: null, occurredAt: new Date().toISOString(), schemaVersion: 1 } }], 2n);
    const r = await loadState(counted, 's', list, { atLeast: 3n });
    expect(r).toMatchObject({ revision: 3n, state: { items: [0, 1, 2, 30] } });
    expect(reads).toEqual([{ from: 3n }]);
    // without the hint a load still checks the store (one indexed read, empty here)
    await loadState(counted, 's', list);
    expect(reads).toHaveLength(2);
  });

  it('re-reads the whole stream every time when the cache is off (the comparison)', async () => {
    setFoldedStateLimit(counted, 0);
    for (let i = 0; i < 5; i++) await executeCommand(counted, 's', list, { type: 'Add', n: i }, ctx);
    expect(reads).toHaveLength(5);
    expect((await loadState(counted, 's', list))!.state.items).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('a refusal decided on the state in memory is confirmed on the stream', () => {
  type Door = { open: boolean };
  type DoorEv = { type: 'Opened' | 'Closed'; data: Record<string, never> };
  const door: Decider<'open', DoorEv, Door> = {
    initialState: { open: false },
    decide: (_c, s) => {
      if (s.open) throw new Error('already open');
      return [{ type: 'Opened', data: {} }];
    },
    evolve: (_s, e) => ({ open: e.type === 'Opened' }),
  };
  const meta = { userId: 'x', correlationId: 'c', causationId: null, occurredAt: new Date().toISOString(), schemaVersion: 1 };

  it('decides again when another process changed the stream since it was folded', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gr-folded-refuse-'));
    const store = new SqliteEventStore(join(dir, 'events.sqlite'));
    const ctx = systemContext('tester');
    await executeCommand(store, 'door', door, 'open', ctx); // folded: open
    // another process closes it (not through this cache)
    await store.append('door', [{ id: randomUUID(), type: 'Closed', data: {}, metadata: meta }], 0n);
    const r = await executeCommand(store, 'door', door, 'open', ctx);
    expect(r.revision).toBe(2n);
    await expect(executeCommand(store, 'door', door, 'open', ctx)).rejects.toThrow('already open');
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
