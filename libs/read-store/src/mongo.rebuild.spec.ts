// Over 400 lines: the Mongo rebuild against a scripted stand-in of the driver; the stand-in's notes and the cases read together.
import { randomUUID } from 'node:crypto';
import { Long, MongoBulkWriteError, MongoError, MongoErrorLabel, MongoInvalidArgumentError, MongoNetworkError, MongoServerError } from 'mongodb';
import { EventStore, NewEvent, SqliteEventStore } from '@gridrocket/event-store';
import { MongoReadStore } from './mongo.read-store';
import { Projection, Projector } from './projector';

/*
 * The Mongo read store's rebuild and large commits, driven through a scripted stand-in of the `mongodb`
 * driver (no MongoDB server can run here; the contract suite runs against a real one when MONGO_URL is
 * set). The stand-in keeps the collections in memory and behaves as the driver and server do where the
 * adapter depends on it, read from node_modules/mongodb/lib:
 * - `withTransaction` (sessions.js): runs the callback, commits; a callback error that is not a MongoError
 *   aborts and is thrown; a MongoError labelled TransientTransactionError runs the callback again; writes
 *   of an aborted transaction are not seen;
 * - an upsert whose filter misses an existing _id fails with E11000 (code 11000); bulk write errors are
 *   MongoBulkWriteError with `writeErrors` (code, index), as bulk/common.js builds them;
 * - `createCollection` of an existing name fails with NamespaceExists (48); `dropCollection` and
 *   `renameCollection` of a missing one with NamespaceNotFound (26); renameCollection with dropTarget
 *   replaces the target in one step (one oplog entry since MongoDB 3.6, SERVER-28285).
 * Faults are the driver's own error classes, thrown where a test scripts them.
 */

type Row = Record<string, any>;
type State = Map<string, Map<string, Row>>;
interface Op {
  kind: string;
  collection: string;
  inTransaction: boolean;
  docs?: number;
}

const norm = (v: unknown): unknown => (v instanceof Long ? v.toBigInt() : v);
const path = (row: Row, p: string): unknown => p.split('.').reduce<any>((o, k) => (o == null ? undefined : o[k]), row);
const isOps = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !(v instanceof Long) && Object.keys(v).some((k) => k.startsWith('$'));
const lt = (a: unknown, b: unknown) => {
  const x = norm(a);
  const y = norm(b);
  if (typeof x === 'bigint' || typeof y === 'bigint') return typeof x !== 'string' && typeof y !== 'string' && x != null && y != null && BigInt(x as any) < BigInt(y as any);
  return (x as any) < (y as any);
};
const eq = (a: unknown, b: unknown) => {
  const x = norm(a);
  const y = norm(b);
  if (y === null) return x === null || x === undefined;
  if (typeof x === 'bigint' || typeof y === 'bigint') return x != null && BigInt(x as any) === BigInt(y as any);
  return x === y;
};

function matches(row: Row, filter: Row): boolean {
  for (const [k, cond] of Object.entries(filter)) {
    if (k === '$or') {
      if (!(cond as Row[]).some((f) => matches(row, f))) return false;
      continue;
    }
    const v = path(row, k);
    if (isOps(cond)) {
      for (const [op, arg] of Object.entries(cond)) {
        if (op === '$in' && !(arg as unknown[]).some((a) => eq(v, a))) return false;
        if (op === '$lt' && !(v !== undefined && lt(v, arg))) return false;
        if (op === '$exists' && (v !== undefined) !== arg) return false;
        if (op === '$type' && !(arg === 'string' && typeof v === 'string')) return false;
      }
    } else if (!eq(v, cond)) return false;
  }
  return true;
}

const duplicate = (id: string) => new MongoServerError({ message: `E11000 duplicate key error collection: _id_ dup key: { _id: "${id}" }`, code: 11000, codeName: 'DuplicateKey' });

/** The server side: databases of collections, what was done, and the faults scripted. */
class ScriptedServer {
  state: State = new Map();
  readonly log: Op[] = [];
  /** Documents written by each transaction run (aborted ones too). */
  readonly transactions: number[] = [];
  /** Returns an error to throw instead of doing the operation. */
  fault: (op: Op) => Error | undefined = () => undefined;

  client(): any {
    return new ScriptedClient(this);
  }

  rows(name: string, state = this.state): Map<string, Row> {
    let c = state.get(name);
    if (!c) state.set(name, (c = new Map()));
    return c;
  }

  clone(): State {
    return new Map([...this.state].map(([k, c]) => [k, new Map([...c].map(([id, r]) => [id, { ...r }]))]));
  }

  /**
   * Records an operation and throws the fault scripted for it, if any; a network error inside a
   * transaction is labelled TransientTransactionError, as sdam/server.js labels it.
   */
  op(op: Op): void {
    this.log.push(op);
    const err = this.fault(op);
    if (err instanceof MongoNetworkError && op.inTransaction && op.kind !== 'commitTransaction') err.addErrorLabel(MongoErrorLabel.TransientTransactionError);
    if (err) throw err;
  }
}

class ScriptedSession {
  tx: State | null = null;
  written = 0;
  constructor(private readonly server: ScriptedServer) {}

  get inTransaction() {
    return this.tx !== null;
  }

  // as sessions.js's withTransaction; its 120 s of retries are 5 attempts here
  async withTransaction(fn: (s: ScriptedSession) => Promise<unknown>): Promise<unknown> {
    for (let attempt = 1; ; attempt++) {
      this.tx = this.server.clone();
      this.written = 0;
      try {
        await fn(this);
      } catch (err) {
        this.server.transactions.push(this.written);
        this.tx = null; // aborted: nothing of it is seen
        if (!(err instanceof MongoError) || err instanceof MongoInvalidArgumentError) throw err;
        if (err.hasErrorLabel(MongoErrorLabel.TransientTransactionError) && attempt < 5) continue;
        throw err;
      }
      this.server.transactions.push(this.written);
      const tx = this.tx;
      this.tx = null;
      this.server.op({ kind: 'commitTransaction', collection: '', inTransaction: true, docs: this.written });
      this.server.state = tx;
      return;
    }
  }

  async endSession() {}
}

class ScriptedClient {
  constructor(private readonly server: ScriptedServer) {}
  async connect() {
    return this;
  }
  db(name: string) {
    return new ScriptedDb(this.server, name);
  }
  startSession() {
    return new ScriptedSession(this.server);
  }
  async close() {}
}

class ScriptedDb {
  constructor(
    private readonly server: ScriptedServer,
    private readonly name: string,
  ) {}
  private ns = (c: string) => `${this.name}.${c}`;
  collection(c: string) {
    return new ScriptedCollection(this.server, this.ns(c));
  }
  async command(cmd: Row) {
    if (cmd.hello) return { isWritablePrimary: true, setName: 'rs0' };
    throw new Error(`command ${JSON.stringify(cmd)} not scripted`);
  }
  listCollections(filter: { name: string }) {
    return { toArray: async () => (this.server.state.has(this.ns(filter.name)) ? [{ name: filter.name, type: 'collection' }] : []) };
  }
  async createCollection(c: string) {
    this.server.op({ kind: 'create', collection: c, inTransaction: false });
    if (this.server.state.has(this.ns(c))) throw new MongoServerError({ message: `Collection ${this.ns(c)} already exists.`, code: 48, codeName: 'NamespaceExists' });
    this.server.rows(this.ns(c));
    return this.collection(c);
  }
  async dropCollection(c: string) {
    this.server.op({ kind: 'drop', collection: c, inTransaction: false });
    if (!this.server.state.delete(this.ns(c))) throw new MongoServerError({ message: 'ns not found', code: 26, codeName: 'NamespaceNotFound' });
    return true;
  }
  async renameCollection(from: string, to: string, options: { dropTarget?: boolean } = {}) {
    this.server.op({ kind: 'rename', collection: `${from}->${to}`, inTransaction: false });
    const rows = this.server.state.get(this.ns(from));
    if (!rows) throw new MongoServerError({ message: 'source namespace does not exist', code: 26, codeName: 'NamespaceNotFound' });
    if (this.server.state.has(this.ns(to)) && !options.dropTarget) throw new MongoServerError({ message: 'target namespace exists', code: 48, codeName: 'NamespaceExists' });
    this.server.state.delete(this.ns(from));
    this.server.state.set(this.ns(to), rows);
    return this.collection(to);
  }
}

class ScriptedCollection {
  constructor(
    private readonly server: ScriptedServer,
    private readonly ns: string,
  ) {}
  private short = () => this.ns.slice(this.ns.indexOf('.') + 1);
  private rows(options?: { session?: ScriptedSession }) {
    return this.server.rows(this.ns, options?.session?.tx ?? this.server.state);
  }
  private op(kind: string, options?: { session?: ScriptedSession }, docs?: number) {
    this.server.op({ kind, collection: this.short(), inTransaction: !!options?.session?.tx, docs });
    if (docs && options?.session?.tx) options.session.written += docs;
  }

  async findOne(filter: Row, options?: { session?: ScriptedSession }) {
    this.op('find', options);
    for (const r of this.rows(options).values()) if (matches(r, filter)) return { ...r };
    return null;
  }

  find(filter: Row, options?: { session?: ScriptedSession }) {
    let sort: [string, number][] = [];
    let skip = 0;
    let limit = Infinity;
    const cursor = {
      sort: (s: Record<string, number>) => ((sort = Object.entries(s)), cursor),
      skip: (n: number) => ((skip = n), cursor),
      limit: (n: number) => ((limit = n), cursor),
      toArray: async () => {
        this.op('find', options);
        const out = [...this.rows(options).values()].filter((r) => matches(r, filter)).map((r) => ({ ...r }));
        out.sort((a, b) => {
          for (const [k, d] of sort) {
            const x = path(a, k) as any;
            const y = path(b, k) as any;
            if (x !== y) return (x === undefined ? -1 : y === undefined ? 1 : x < y ? -1 : 1) * d;
          }
          return 0;
        });
        return out.slice(skip, skip + limit);
      },
    };
    return cursor;
  }

  async countDocuments(filter: Row) {
    this.op('count');
    return [...this.rows().values()].filter((r) => matches(r, filter)).length;
  }

  async createIndex(keys: Row) {
    this.op('createIndex');
    return Object.keys(keys).join('_');
  }

  /** One update; throws E11000 when an upsert's filter misses an _id that exists. */
  private update(rows: Map<string, Row>, filter: Row, update: Row, upsert: boolean): void {
    const hit = [...rows.values()].find((r) => matches(r, filter));
    if (hit) {
      rows.set(hit._id, { ...hit, ...(update.$set ?? {}) });
      return;
    }
    if (!upsert) return;
    const id = filter._id as string;
    if (rows.has(id)) throw duplicate(id);
    rows.set(id, { _id: id, ...(update.$set ?? {}), ...(update.$setOnInsert ?? {}) });
  }

  async updateOne(filter: Row, update: Row, options?: { upsert?: boolean; session?: ScriptedSession }) {
    this.op('updateOne', options, 1);
    this.update(this.rows(options), filter, update, !!options?.upsert);
    return { acknowledged: true };
  }

  async replaceOne(filter: Row, doc: Row, options?: { upsert?: boolean; session?: ScriptedSession }) {
    this.op('replaceOne', options, 1);
    const rows = this.rows(options);
    const hit = [...rows.values()].find((r) => matches(r, filter));
    if (hit || options?.upsert) rows.set(hit?._id ?? filter._id, { ...doc, _id: hit?._id ?? filter._id });
    return { acknowledged: true };
  }

  async deleteOne(filter: Row, options?: { session?: ScriptedSession }) {
    this.op('deleteOne', options, 1);
    const rows = this.rows(options);
    const hit = [...rows.values()].find((r) => matches(r, filter));
    if (hit) rows.delete(hit._id);
    return { deletedCount: hit ? 1 : 0 };
  }

  async deleteMany(filter: Row, options?: { session?: ScriptedSession }) {
    const rows = this.rows(options);
    const hits = [...rows.values()].filter((r) => matches(r, filter));
    this.op('deleteMany', options, hits.length);
    for (const r of hits) rows.delete(r._id);
    return { deletedCount: hits.length };
  }

  async bulkWrite(ops: Row[], options?: { ordered?: boolean; session?: ScriptedSession }) {
    this.op('bulkWrite', options, ops.length);
    const rows = this.rows(options);
    const writeErrors: { index: number; code: number; errmsg: string }[] = [];
    for (const [index, op] of ops.entries()) {
      try {
        if (op.updateOne) this.update(rows, op.updateOne.filter, op.updateOne.update, !!op.updateOne.upsert);
        else if (op.insertOne) {
          if (rows.has(op.insertOne.document._id)) throw duplicate(op.insertOne.document._id);
          rows.set(op.insertOne.document._id, { ...op.insertOne.document });
        } else throw new Error(`bulk op ${Object.keys(op)} not scripted`);
      } catch (err) {
        writeErrors.push({ index, code: (err as MongoServerError).code as number, errmsg: (err as Error).message });
        if (options?.ordered !== false) break;
      }
    }
    if (writeErrors.length) {
      throw new MongoBulkWriteError({ message: writeErrors[0].errmsg, code: writeErrors[0].code, writeErrors } as any, { getWriteConcernError: () => undefined } as any);
    }
    return { ok: 1 };
  }
}

/** A MongoReadStore whose driver is the scripted stand-in (the store builds its own client: replaced before connect). */
async function storeOn(server: ScriptedServer): Promise<MongoReadStore> {
  const store = new MongoReadStore('mongodb://stand-in.invalid:27017/?replicaSet=rs0', 'gridrocket');
  (store as any).client = server.client();
  return store.connect();
}

const ev = (n: number): NewEvent => ({
  id: randomUUID(),
  type: 'T',
  data: { n },
  metadata: { userId: 'u', correlationId: 'c', causationId: null, occurredAt: new Date().toISOString(), schemaVersion: 1 },
});

type Counter = { id: string; n: number; count: number };
const byId = <T extends { id: string }>(docs: T[]) => [...docs].sort((a, b) => (a.id < b.id ? -1 : 1));

const counter = (collection: string): Projection<Counter> => ({
  name: `${collection}-projection`,
  collection,
  indexes: ['n'],
  filter: { streamPrefixes: ['c-'] },
  docId: (e) => e.streamId,
  reduce: (doc, e) => ({ id: e.streamId, n: (e.data as { n: number }).n, count: (doc?.count ?? 0) + 1 }),
});

/** `streams` streams of `perStream` events each, appended in rounds (streams interleaved). */
async function logOf(streams: number, perStream: number): Promise<SqliteEventStore> {
  const events = new SqliteEventStore(':memory:', 10, 'OFF');
  for (let round = 1; round <= perStream; round++) {
    for (let s = 0; s < streams; s++) await events.append(`c-${s}`, [ev(round)], 'any');
  }
  return events;
}

/** The read model as incremental projection left it: `counters` projected up to the head. */
async function projected(server: ScriptedServer, events: EventStore, projections: Projection<any>[]): Promise<void> {
  const store = await storeOn(server);
  const projector = new Projector(events, store, projections, () => undefined);
  await projector.start();
  expect(await projector.waitFor(await events.headPosition(), 10_000)).toBe(true);
  await projector.stop();
}

/** An event store whose reads stop answering after `reads` of them: the process killed mid-rebuild. */
function stallingAfter(events: EventStore, reads: number): { events: EventStore; stalled: Promise<void> } {
  let signal!: () => void;
  const stalled = new Promise<void>((resolve) => (signal = resolve));
  let n = 0;
  const wrapped = new Proxy(events, {
    get(target, prop, receiver) {
      if (prop === 'readAll') {
        return (...args: unknown[]) => {
          if (++n > reads) {
            signal();
            return new Promise(() => undefined); // never answers
          }
          return (target.readAll as (...a: unknown[]) => unknown)(...args);
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { events: wrapped, stalled };
}

/** A scripted server holding the `counters` projection of a log of `streams` × `perStream` events, and what it holds. */
async function countersProjected(streams: number, perStream: number) {
  const server = new ScriptedServer();
  const log = await logOf(streams, perStream);
  const p = counter('counters');
  await projected(server, log, [p]);
  const store = await storeOn(server);
  return { server, log, p, store, before: await store.find<Counter>('counters', {}) };
}

describe('MongoDB read store rebuild (scripted driver)', () => {
  it('a rebuild killed midway leaves the old read model served and its checkpoint as it was; the next rebuild replaces it', async () => {
    const { server, log, p, store, before } = await countersProjected(40, 5);
    expect(before).toHaveLength(40);
    const checkpoint = await store.getCheckpoint(p.name);
    expect(checkpoint).toBe(await log.headPosition());

    // killed: the rebuild's reads stop answering after 3 windows of 20 events, flushing every 10 documents
    const { events, stalled } = stallingAfter(log, 3);
    const rebuilding = new Projector(events, store, [p], () => undefined);
    void rebuilding.rebuild(undefined, { events: 20, docs: 10, threads: 1 });
    await stalled;
    await new Promise((r) => setImmediate(r));
    // what a restarted process finds: the old documents, the old checkpoint
    const restarted = await storeOn(server);
    expect(await restarted.get<Counter>('counters', 'c-7')).toEqual({ id: 'c-7', n: 5, count: 5 });
    expect(byId(await restarted.find<Counter>('counters', {}))).toEqual(byId(before));
    expect(await restarted.count('counters', { n: 5 })).toBe(40);
    expect(await restarted.getCheckpoint(p.name)).toBe(checkpoint);

    // the next rebuild drops the leftovers and swaps its own collection in
    await log.append('c-99', [ev(1)], 'any');
    const again = new Projector(log, restarted, [p], () => undefined);
    expect(await again.rebuild(undefined, { events: 20, docs: 10, threads: 1 })).toBe(201);
    expect(byId(await restarted.find<Counter>('counters', {}))).toEqual(byId([...before, { id: 'c-99', n: 1, count: 1 }]));
    expect(await restarted.getCheckpoint(p.name)).toBe(await log.headPosition());
    expect([...server.state.keys()].filter((k) => k.includes('r_'))).toEqual([]);
    await log.close();
  });

  it('a rebuild failing on a write (MongoNetworkError) leaves the old documents readable and drops its fresh copy', async () => {
    const { server, log, p, store, before } = await countersProjected(30, 4);
    let writes = 0;
    server.fault = (op) => {
      const write = ['bulkWrite', 'updateOne', 'deleteMany'].includes(op.kind) && op.collection !== 'checkpoints';
      // from the second write on, the primary is unreachable (the driver's retries are over)
      if (write && ++writes >= 2) return new MongoNetworkError('connection 4 to 10.0.0.3:27017 closed');
      return undefined;
    };
    const projector = new Projector(log, store, [p], () => undefined);
    await expect(projector.rebuild(undefined, { events: 10, docs: 5, threads: 1 })).rejects.toThrow(MongoNetworkError);
    server.fault = () => undefined;
    expect(byId(await store.find<Counter>('counters', {}))).toEqual(byId(before));
    expect(await store.get<Counter>('counters', 'c-3')).toEqual({ id: 'c-3', n: 4, count: 4 });
    expect(await store.getCheckpoint(p.name)).toBe(await log.headPosition());
    expect([...server.state.keys()].filter((k) => k.includes('r_'))).toEqual([]);
    await log.close();
  });

  it(`a large rebuild never puts more than 1,000 documents in one transaction or one bulk write`, async () => {
    const server = new ScriptedServer();
    const log = await logOf(2_500, 1);
    const projections = [counter('counters'), { ...counter('others'), name: 'others-projection' }];
    await projected(server, log, projections);
    const store = await storeOn(server);
    server.transactions.length = 0;
    server.log.length = 0;
    // the default window: 100,000 documents held in memory, written at the end
    const projector = new Projector(log, store, projections, () => undefined);
    expect(await projector.rebuild()).toBe(2_500);
    const largest = Math.max(0, ...server.transactions);
    expect(largest).toBeLessThanOrEqual(1_000);
    expect(Math.max(...server.log.filter((o) => o.kind === 'bulkWrite').map((o) => o.docs ?? 0))).toBeLessThanOrEqual(1_000);
    expect(await store.count('counters', {})).toBe(2_500);
    expect(await store.count('others', { n: 1 })).toBe(2_500);
    await log.close();
  });

  it('a commit of 2,500 documents is written in transactions of at most 1,000, its checkpoint with the last of them', async () => {
    const server = new ScriptedServer();
    const store = await storeOn(server);
    const writes = Array.from({ length: 2_500 }, (_, i) => ({ id: `d-${i}`, rev: 0, doc: { id: `d-${i}` } }));
    server.transactions.length = 0;
    await store.commitMany([{ collection: 'big', writes, checkpoint: { name: 'big', position: 42n } }]);
    expect(Math.max(...server.transactions)).toBeLessThanOrEqual(1_000);
    expect(await store.count('big', {})).toBe(2_500);
    expect(await store.getCheckpoint('big')).toBe(42n);

    // the third transaction keeps failing (the driver's retries run out): its checkpoint is not written before its documents
    let commits = 0;
    server.fault = (op) => {
      if (op.kind === 'commitTransaction') commits++;
      return commits >= 2 && op.inTransaction && op.kind === 'bulkWrite' ? new MongoNetworkError('connection reset by peer') : undefined;
    };
    const more = writes.map((w) => ({ ...w, id: `e-${w.id}` }));
    await expect(store.commitMany([{ collection: 'big', writes: more, checkpoint: { name: 'big', position: 43n } }])).rejects.toThrow(MongoNetworkError);
    expect(await store.getCheckpoint('big')).toBe(42n); // documents ahead of their checkpoint: applied again harmlessly
    expect(await store.count('big', {})).toBe(4_500);
    server.fault = () => undefined;
    await store.commitMany([{ collection: 'big', writes: more, checkpoint: { name: 'big', position: 43n } }]);
    expect(await store.count('big', {})).toBe(5_000);
    expect(await store.getCheckpoint('big')).toBe(43n);
  });

  it('a swap interrupted midway (the process died between two renames) is finished by the next connect', async () => {
    const server = new ScriptedServer();
    const log = await logOf(10, 3);
    const a = counter('alpha');
    const b = counter('beta');
    await projected(server, log, [a, b]);
    const store = await storeOn(server);
    await log.append('c-0', [ev(4)], 'any');
    let renames = 0;
    server.fault = (op) => (op.kind === 'rename' && ++renames === 2 ? new MongoNetworkError('connection closed: the process died') : undefined);
    const projector = new Projector(log, store, [a, b], () => undefined);
    await expect(projector.rebuild(undefined, { events: 10, docs: 100, threads: 1 })).rejects.toThrow(MongoNetworkError);
    server.fault = () => undefined;
    // alpha is the rebuilt one already, beta the old one: each consistent with (ahead of or at) its checkpoint
    expect(await store.get<Counter>('alpha', 'c-0')).toEqual({ id: 'c-0', n: 4, count: 4 });
    expect(await store.get<Counter>('beta', 'c-0')).toEqual({ id: 'c-0', n: 3, count: 3 });
    expect(server.state.has('gridrocket.r_beta')).toBe(true); // kept for the swap, not dropped
    const restarted = await storeOn(server);
    expect(await restarted.get<Counter>('beta', 'c-0')).toEqual({ id: 'c-0', n: 4, count: 4 });
    expect(await restarted.getCheckpoint(a.name)).toBe(await log.headPosition());
    expect(await restarted.getCheckpoint(b.name)).toBe(await log.headPosition());
    expect([...server.state.keys()].filter((k) => k.includes('r_'))).toEqual([]);
    expect(await (await storeOn(server)).get<Counter>('alpha', 'c-9')).toEqual({ id: 'c-9', n: 3, count: 3 });
    await log.close();
  });
});
