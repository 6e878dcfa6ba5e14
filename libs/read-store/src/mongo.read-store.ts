import {
  Long,
  MongoBulkWriteError,
  MongoClient,
  MongoServerError,
  type AnyBulkWriteOperation,
  type ClientSession,
  type Collection,
  type Db,
  type Document,
} from 'mongodb';
import { CollectionCommit, Doc, DocWrite, FindOptions, ReadStore, RebuildSession, RebuildWrite, StoredDoc, Where } from './read-store.port';
import { MONGO_BATCH, planTransactions, slices } from './mongo.batching';

/** The collection a rebuild writes beside the served `c_<collection>`, renamed over it at the end. */
const freshName = (collection: string) => `r_${collection}`;
const servedName = (collection: string) => `c_${collection}`;
/** The one swap under way (a document in `rebuild_swaps`): what a restart finishes. */
const SWAP_ID = 'swap';

interface SwapPlan {
  _id: string;
  collections: string[];
  checkpoints: { name: string; position: Long }[];
  at: Date;
}

interface Stored extends Document {
  _id: string;
  _rev: number;
  _deleted: boolean;
  doc: Doc | null;
}

interface Checkpoint {
  _id: string;
  /** A 64-bit integer (Long); older deployments stored a decimal string. */
  position: Long | string;
}

/**
 * Production read store on MongoDB (a replica set in docker-compose). Each
 * document carries `_rev`; a write only replaces an older revision, so
 * replays are harmless. `commitMany` writes every projection's documents and
 * checkpoint in one transaction where the deployment has them (a replica set
 * or a sharded cluster); a checkpoint only ever moves forwards (a conditional
 * update), and a write-concern error is an error, not a success.
 */
export class MongoReadStore implements ReadStore {
  readonly kind = 'mongodb';
  private readonly client: MongoClient;
  private db!: Db;
  /** True when the deployment runs multi-document transactions (replica set, sharded cluster). */
  transactions = false;

  constructor(private readonly url: string, private readonly dbName = 'gridrocket') {
    this.client = new MongoClient(url);
  }

  async connect(): Promise<this> {
    await this.client.connect();
    this.db = this.client.db(this.dbName);
    const hello = await this.client.db('admin').command({ hello: 1 });
    this.transactions = typeof hello.setName === 'string' || hello.msg === 'isdbgrid';
    // a rebuild's swap that a crash interrupted is finished before anything is served
    await this.finishSwap();
    return this;
  }

  private col(collection: string) {
    return this.db.collection<Stored>(`c_${collection}`);
  }

  async ensureCollection(collection: string, indexedFields: string[] = []): Promise<void> {
    for (const f of indexedFields) await this.col(collection).createIndex({ [`doc.${f}`]: 1 });
  }

  async get<D extends Doc>(collection: string, id: string): Promise<D | null> {
    const row = await this.col(collection).findOne({ _id: id, _deleted: false });
    return (row?.doc as D) ?? null;
  }

  async getMany<D extends Doc>(collection: string, ids: string[]): Promise<Map<string, StoredDoc<D>>> {
    const out = new Map<string, StoredDoc<D>>();
    for (const row of await this.col(collection).find({ _id: { $in: ids } }).toArray()) {
      out.set(row._id, { rev: row._rev, doc: row._deleted ? null : (row.doc as D) });
    }
    return out;
  }

  private filter(where: Where): Document {
    const f: Document = { _deleted: false };
    for (const [k, v] of Object.entries(where)) f[`doc.${k}`] = v;
    return f;
  }

  async find<D extends Doc>(collection: string, where: Where, options: FindOptions = {}): Promise<D[]> {
    let cursor = this.col(collection).find(this.filter(where));
    cursor = options.orderBy
      ? cursor.sort({ [`doc.${options.orderBy.field}`]: options.orderBy.direction === 'desc' ? -1 : 1, _id: 1 })
      : cursor.sort({ _seq: 1, _id: 1 });
    if (options.offset) cursor = cursor.skip(options.offset);
    if (options.limit !== undefined) cursor = cursor.limit(options.limit);
    return (await cursor.toArray()).map((r) => r.doc as D);
  }

  async count(collection: string, where: Where): Promise<number> {
    return this.col(collection).countDocuments(this.filter(where));
  }

  async commit(collection: string, writes: DocWrite<any>[], checkpoint: { name: string; position: bigint }): Promise<string[]> {
    const written = await this.writeDocs(collection, writes);
    await this.moveCheckpoint(checkpoint.name, checkpoint.position);
    return written;
  }

  /** Outside a transaction: conditional upserts; a duplicate key means the stored revision was newer. */
  private async writeDocs(collection: string | Collection<Stored>, writes: DocWrite<any>[], seq: (w: DocWrite<any>) => number = () => Date.now()): Promise<string[]> {
    if (!writes.length) return [];
    const ops: AnyBulkWriteOperation<Stored>[] = writes.map((w) => ({
      updateOne: {
        filter: { _id: w.id, $or: [{ _rev: { $lt: w.rev } }, { _rev: { $exists: false } }] },
        update: { $set: { _rev: w.rev, _deleted: w.doc === null, doc: w.doc }, $setOnInsert: { _seq: seq(w) } },
        upsert: true,
      },
    }));
    try {
      await (typeof collection === 'string' ? this.col(collection) : collection).bulkWrite(ops, { ordered: false });
      return writes.map((w) => w.id);
    } catch (err) {
      if (!(err instanceof MongoBulkWriteError)) throw err;
      // A write-concern error (not enough replicas acknowledged) is a failure, whatever else happened.
      if (err.result?.getWriteConcernError?.() || (Array.isArray(err.writeErrors) && err.writeErrors.length === 0)) throw err;
      const failed = new Set(
        (Array.isArray(err.writeErrors) ? err.writeErrors : [err.writeErrors]).map((e) => {
          if (e.code !== 11000) throw err;
          return writes[e.index].id;
        }),
      );
      return writes.map((w) => w.id).filter((id) => !failed.has(id));
    }
  }

  /** Inside a transaction a duplicate key would abort it: read the revisions first, write only newer ones. */
  private async writeDocsIn(session: ClientSession, collection: string, writes: DocWrite<any>[]): Promise<void> {
    if (!writes.length) return;
    const col = this.col(collection);
    const stored = new Map<string, number>();
    for (const row of await col.find({ _id: { $in: writes.map((w) => w.id) } }, { session, projection: { _rev: 1 } }).toArray()) stored.set(row._id, row._rev);
    const newest = new Map<string, DocWrite<any>>();
    for (const w of writes) if (w.rev > (stored.get(w.id) ?? -Infinity) && w.rev > (newest.get(w.id)?.rev ?? -Infinity)) newest.set(w.id, w);
    const ops: AnyBulkWriteOperation<Stored>[] = [...newest.values()].map((w) =>
      stored.has(w.id)
        ? { updateOne: { filter: { _id: w.id, _rev: stored.get(w.id)! }, update: { $set: { _rev: w.rev, _deleted: w.doc === null, doc: w.doc } } } }
        : { insertOne: { document: { _id: w.id, _rev: w.rev, _deleted: w.doc === null, doc: w.doc, _seq: Date.now() } } },
    );
    if (ops.length) await col.bulkWrite(ops, { ordered: true, session });
  }

  private checkpoints() {
    return this.db.collection<Checkpoint>('checkpoints');
  }

  /** Moves a checkpoint forwards only: a slower writer with an older position changes nothing. */
  private async moveCheckpoint(name: string, position: bigint, session?: ClientSession): Promise<void> {
    const pos = Long.fromBigInt(position);
    if (session) {
      const row = await this.checkpoints().findOne({ _id: name }, { session });
      if (row && toBigInt(row.position) >= position) return;
      await this.checkpoints().updateOne({ _id: name }, { $set: { position: pos } }, { upsert: true, session });
      return;
    }
    try {
      await this.checkpoints().updateOne(
        { _id: name, $or: [{ position: { $lt: pos } }, { position: { $type: 'string' } }] },
        { $set: { position: pos } },
        { upsert: true },
      );
    } catch (err) {
      // the filter did not match because the stored position is newer: the upsert hit the _id
      if (err instanceof MongoServerError && err.code === 11000) return;
      throw err;
    }
  }

  /**
   * Every projection's documents and checkpoint in transactions where the deployment has them: one
   * transaction for an ordinary batch, several of at most MONGO_BATCH.docsPerTransaction documents for a
   * large one (see planTransactions: a checkpoint is written with, never before, its last documents).
   */
  async commitMany(commits: CollectionCommit[]): Promise<void> {
    if (!this.transactions) {
      // a standalone server: the revision guard makes a partial commit harmless on replay
      for (const c of commits) await this.commit(c.collection, c.writes, c.checkpoint);
      return;
    }
    const session = this.client.startSession();
    try {
      for (const part of planTransactions(commits, MONGO_BATCH.docsPerTransaction)) {
        // withTransaction retries on TransientTransactionError and UnknownTransactionCommitResult
        await session.withTransaction(
          async () => {
            for (const c of part) {
              await this.writeDocsIn(session, c.collection, c.writes);
              if (c.checkpoint) await this.moveCheckpoint(c.checkpoint.name, c.checkpoint.position, session);
            }
          },
          { writeConcern: { w: 'majority' }, readConcern: { level: 'snapshot' } },
        );
      }
    } finally {
      await session.endSession();
    }
  }

  async getCheckpoint(name: string): Promise<bigint | null> {
    const row = await this.checkpoints().findOne({ _id: name });
    return row ? toBigInt(row.position) : null;
  }

  async reset(collections: string[], checkpoints: string[]): Promise<void> {
    for (const c of collections) await this.col(c).deleteMany({});
    await this.checkpoints().deleteMany({ _id: { $in: checkpoints } });
  }

  private swaps() {
    return this.db.collection<SwapPlan>('rebuild_swaps');
  }

  private async exists(name: string): Promise<boolean> {
    return (await this.db.listCollections({ name }, { nameOnly: true }).toArray()).length > 0;
  }

  private async drop(name: string): Promise<void> {
    try {
      await this.db.dropCollection(name);
    } catch (err) {
      if (!(err instanceof MongoServerError && err.code === 26)) throw err; // NamespaceNotFound (servers before 7.0)
    }
  }

  /**
   * Finishes the swap a rebuild recorded (`rebuild_swaps`), if one is there: each fresh collection still
   * present is renamed over the served one (renameCollection with dropTarget: one oplog entry, so a reader
   * sees the old collection or the new one, never none), then the checkpoints are set, then the record is
   * removed. Every step can be done again, so a crash anywhere in it is finished by the next call
   * (connect, beginRebuild). Renames come before checkpoints: until its checkpoint is set, a swapped
   * collection is ahead of it, and events applied again change nothing; a checkpoint is never ahead of
   * its collection. Returns whether there was one.
   */
  async finishSwap(): Promise<boolean> {
    const plan = await this.swaps().findOne({ _id: SWAP_ID });
    if (!plan) return false;
    for (const c of plan.collections) {
      if (!(await this.exists(freshName(c)))) continue; // renamed before the crash
      try {
        await this.db.renameCollection(freshName(c), servedName(c), { dropTarget: true });
      } catch (err) {
        if (!(err instanceof MongoServerError && err.code === 26)) throw err; // renamed meanwhile by another finisher
      }
    }
    for (const cp of plan.checkpoints) {
      await this.checkpoints().updateOne({ _id: cp.name }, { $set: { position: cp.position } }, { upsert: true, writeConcern: { w: 'majority' } });
    }
    await this.swaps().deleteOne({ _id: SWAP_ID }, { writeConcern: { w: 'majority' } });
    return true;
  }

  /**
   * A rebuild into fresh collections `r_<collection>` beside the served `c_<collection>`, which are
   * served unchanged until `complete`: a rebuild that fails or is killed leaves the old read model and its
   * checkpoints as they were (the leftovers are dropped by the next rebuild). The fresh collections are
   * written outside transactions (nothing reads them), in bulk writes of MONGO_BATCH.docsPerBulkWrite;
   * `complete` builds their indexes, records the swap, then does it (finishSwap).
   */
  async beginRebuild(collections: { collection: string; indexes?: string[] }[]): Promise<RebuildSession> {
    await this.finishSwap(); // an earlier rebuild's swap is finished, not overtaken
    const names = new Set(collections.map((c) => c.collection));
    for (const { collection } of collections) {
      await this.drop(freshName(collection));
      // created even if nothing is written to it: an empty read model replaces the old one too
      await this.db.createCollection(freshName(collection));
    }
    const fresh = (collection: string) => {
      if (!names.has(collection)) throw new Error(`${collection} is not being rebuilt`);
      return this.db.collection<Stored>(freshName(collection));
    };
    let open = true;
    return {
      getMany: async <D extends Doc>(collection: string, ids: string[]) => {
        const out = new Map<string, StoredDoc<D>>();
        for (const part of slices(ids, MONGO_BATCH.docsPerBulkWrite)) {
          for (const row of await fresh(collection).find({ _id: { $in: part } }).toArray()) {
            out.set(row._id, { rev: row._rev, doc: row._deleted ? null : (row.doc as D) });
          }
        }
        return out;
      },
      write: async (commits) => {
        for (const c of commits) {
          const writes = c.writes.map(decode);
          // _seq: the position of the document's first event, the order incremental projection inserts in
          for (const part of slices(writes, MONGO_BATCH.docsPerBulkWrite)) await this.writeDocs(fresh(c.collection), part, (w) => (w as RebuildWrite).first ?? Date.now());
        }
      },
      complete: async (checkpoints) => {
        for (const { collection, indexes } of collections) {
          for (const f of indexes ?? []) await fresh(collection).createIndex({ [`doc.${f}`]: 1 });
        }
        const plan: SwapPlan = {
          _id: SWAP_ID,
          collections: collections.map((c) => c.collection),
          checkpoints: checkpoints.map((c) => ({ name: c.name, position: Long.fromBigInt(c.position) })),
          at: new Date(),
        };
        // from here on the swap is done, now or by the next connect: the fresh collections are kept
        await this.swaps().replaceOne({ _id: SWAP_ID }, plan, { upsert: true, writeConcern: { w: 'majority' } });
        open = false;
        await this.finishSwap();
      },
      abandon: async () => {
        if (!open || (await this.swaps().findOne({ _id: SWAP_ID }))) return; // recorded: finished, not dropped
        open = false;
        for (const { collection } of collections) await this.drop(freshName(collection));
      },
    };
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

/** A rebuild's write as stored: encoded by a worker thread (`json`) or not. */
function decode(w: RebuildWrite): RebuildWrite {
  if (w.json === undefined) return w;
  return { id: w.id, rev: w.rev, first: w.first, doc: w.json === null ? null : JSON.parse(w.json) };
}

function toBigInt(position: Long | string): bigint {
  return typeof position === 'string' ? BigInt(position) : position.toBigInt();
}
