import { Long, MongoClient, MongoServerError, type AnyBulkWriteOperation, type ClientSession, type Db, type Document, MongoBulkWriteError } from 'mongodb';
import { CollectionCommit, Doc, DocWrite, FindOptions, ReadStore, StoredDoc, Where } from './read-store.port';

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
  private async writeDocs(collection: string, writes: DocWrite<any>[]): Promise<string[]> {
    if (!writes.length) return [];
    const ops: AnyBulkWriteOperation<Stored>[] = writes.map((w) => ({
      updateOne: {
        filter: { _id: w.id, $or: [{ _rev: { $lt: w.rev } }, { _rev: { $exists: false } }] },
        update: { $set: { _rev: w.rev, _deleted: w.doc === null, doc: w.doc }, $setOnInsert: { _seq: Date.now() } },
        upsert: true,
      },
    }));
    try {
      await this.col(collection).bulkWrite(ops, { ordered: false });
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

  /** Every projection's documents and checkpoint in one transaction where the deployment has them. */
  async commitMany(commits: CollectionCommit[]): Promise<void> {
    if (!this.transactions) {
      // a standalone server: the revision guard makes a partial commit harmless on replay
      for (const c of commits) await this.commit(c.collection, c.writes, c.checkpoint);
      return;
    }
    const session = this.client.startSession();
    try {
      // withTransaction retries on TransientTransactionError and UnknownTransactionCommitResult
      await session.withTransaction(
        async () => {
          for (const c of commits) {
            await this.writeDocsIn(session, c.collection, c.writes);
            await this.moveCheckpoint(c.checkpoint.name, c.checkpoint.position, session);
          }
        },
        { writeConcern: { w: 'majority' }, readConcern: { level: 'snapshot' } },
      );
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

  async close(): Promise<void> {
    await this.client.close();
  }
}

function toBigInt(position: Long | string): bigint {
  return typeof position === 'string' ? BigInt(position) : position.toBigInt();
}
