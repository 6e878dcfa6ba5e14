import { MongoCollectionStore } from '../mongo.collection-store';
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
export class MongoRateLimitStore extends MongoCollectionStore<Slot> implements RateLimitStore {
  constructor(url: string, dbName = 'gridrocket') {
    super(url, dbName, 'rate_limits');
  }

  protected async prepare(): Promise<void> {
    await this.col.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 });
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
}
