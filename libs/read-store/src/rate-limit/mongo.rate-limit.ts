import { MongoClient, type Collection, type Db } from 'mongodb';
import { RateLimitStore } from './rate-limit.port';

interface Slot {
  _id: string;
  tat: number;
  base: number;
  now: number;
  expiresAt: Date;
}

/**
 * The shared rate limit on MongoDB, for runners on several hosts. One reservation is one
 * findOneAndUpdate with an aggregation-pipeline update (atomic per document), on the server's clock
 * ($$NOW), so that the runners' clocks do not matter. A TTL index drops idle keys.
 */
export class MongoRateLimitStore implements RateLimitStore {
  readonly kind = 'mongodb';
  private readonly client: MongoClient;
  private db!: Db;
  private col!: Collection<Slot>;

  constructor(private readonly url: string, private readonly dbName = 'gridrocket') {
    this.client = new MongoClient(url);
  }

  async connect(): Promise<this> {
    await this.client.connect();
    this.db = this.client.db(this.dbName);
    this.col = this.db.collection<Slot>('rate_limits');
    await this.col.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 });
    return this;
  }

  async reserve(key: string, capacity: number, perSecond: number): Promise<number> {
    const interval = 1000 / perSecond;
    const tolerance = interval * (Math.max(1, capacity) - 1);
    const slot = await this.col.findOneAndUpdate(
      { _id: key },
      [
        { $set: { now: { $toLong: '$$NOW' } } },
        { $set: { base: { $max: [{ $ifNull: ['$tat', 0] }, '$now'] } } },
        { $set: { tat: { $add: ['$base', interval] }, expiresAt: { $add: ['$$NOW', 3_600_000] } } },
      ],
      { upsert: true, returnDocument: 'after', writeConcern: { w: 'majority' } },
    );
    if (!slot) throw new Error(`rate limit ${key}: no document returned`);
    return Math.max(0, Number(slot.base) - tolerance - Number(slot.now));
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
