import { MongoClient, type AnyBulkWriteOperation, type Db, type Document, MongoBulkWriteError } from 'mongodb';
import { CollectionCommit, Doc, DocWrite, FindOptions, ReadStore, StoredDoc, Where } from './read-store.port';

interface Stored extends Document {
  _id: string;
  _rev: number;
  _deleted: boolean;
  doc: Doc | null;
}

/**
 * Production read store on MongoDB (a replica set in docker-compose). Each
 * document carries `_rev`; a write only replaces an older revision, so
 * replays are harmless even though documents and checkpoint are not written
 * in one transaction.
 */
export class MongoReadStore implements ReadStore {
  readonly kind = 'mongodb';
  private readonly client: MongoClient;
  private db!: Db;

  constructor(private readonly url: string, private readonly dbName = 'gridrocket') {
    this.client = new MongoClient(url);
  }

  async connect(): Promise<this> {
    await this.client.connect();
    this.db = this.client.db(this.dbName);
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
    const written: string[] = [];
    if (writes.length) {
      const ops: AnyBulkWriteOperation<Stored>[] = writes.map((w) => ({
        updateOne: {
          filter: { _id: w.id, $or: [{ _rev: { $lt: w.rev } }, { _rev: { $exists: false } }] },
          update: { $set: { _rev: w.rev, _deleted: w.doc === null, doc: w.doc }, $setOnInsert: { _seq: Date.now() } },
          upsert: true,
        },
      }));
      try {
        await this.col(collection).bulkWrite(ops, { ordered: false });
        written.push(...writes.map((w) => w.id));
      } catch (err) {
        // A duplicate key means the stored revision was already newer: skipped, as intended.
        if (!(err instanceof MongoBulkWriteError)) throw err;
        const failed = new Set(
          (Array.isArray(err.writeErrors) ? err.writeErrors : [err.writeErrors]).map((e) => {
            if (e.code !== 11000) throw err;
            return writes[e.index].id;
          }),
        );
        written.push(...writes.map((w) => w.id).filter((id) => !failed.has(id)));
      }
    }
    await this.db
      .collection<{ _id: string; position: string }>('checkpoints')
      .updateOne({ _id: checkpoint.name }, { $set: { position: checkpoint.position.toString() } }, { upsert: true });
    return written;
  }

  /** No cross-collection transaction needed: the revision guard makes a partial commit harmless on replay. */
  async commitMany(commits: CollectionCommit[]): Promise<void> {
    for (const c of commits) await this.commit(c.collection, c.writes, c.checkpoint);
  }

  async getCheckpoint(name: string): Promise<bigint | null> {
    const row = await this.db.collection<{ _id: string; position: string }>('checkpoints').findOne({ _id: name });
    return row ? BigInt(row.position) : null;
  }

  async reset(collections: string[], checkpoints: string[]): Promise<void> {
    for (const c of collections) await this.col(c).deleteMany({});
    await this.db.collection<{ _id: string }>('checkpoints').deleteMany({ _id: { $in: checkpoints } });
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
