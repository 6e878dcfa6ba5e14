import { MongoClient, MongoServerError, type Collection } from 'mongodb';
import type { Sealed } from '@gridrocket/shared/runtime';
import { KeyStore } from './key-store.port';

const KEY_ID = /^[A-Za-z0-9_-]{1,64}$/;

interface DataKey {
  _id: string;
  wrapped: Sealed;
  createdAt: Date;
}

/**
 * The key store on MongoDB, for deployments whose API and runners run on several hosts (they all
 * need to open credentials). Writes and deletes are acknowledged by a majority, so a key that was
 * acknowledged is not lost in a fail-over and a destroyed key does not come back.
 *
 * What shredding reaches here (docs/credentials.md): the document is deleted at once and the key is
 * useless without the master key that wrapped it; but MongoDB keeps the insert in its oplog until
 * the oplog rolls over, and in backups. Size the oplog window and the backup retention accordingly,
 * or keep the key store on the embedded adapter where a TRUNCATE checkpoint removes it from disk.
 */
export class MongoKeyStore implements KeyStore {
  readonly kind = 'mongodb';
  private readonly client: MongoClient;
  private col!: Collection<DataKey>;

  constructor(private readonly url: string, private readonly dbName = 'gridrocket_keys') {
    this.client = new MongoClient(url, { writeConcern: { w: 'majority' }, readConcern: { level: 'majority' } });
  }

  async connect(): Promise<this> {
    await this.client.connect();
    this.col = this.client.db(this.dbName).collection<DataKey>('data_keys');
    return this;
  }

  async put(keyId: string, wrapped: Sealed): Promise<boolean> {
    if (!KEY_ID.test(keyId)) throw new Error('Bad key id');
    try {
      await this.col.insertOne({ _id: keyId, wrapped, createdAt: new Date() });
      return true;
    } catch (err) {
      if (err instanceof MongoServerError && err.code === 11000) return false; // never overwritten
      throw err;
    }
  }

  async get(keyId: string): Promise<Sealed | null> {
    if (!KEY_ID.test(keyId)) return null;
    return (await this.col.findOne({ _id: keyId }))?.wrapped ?? null;
  }

  async destroy(keyId: string): Promise<boolean> {
    if (!KEY_ID.test(keyId)) return false;
    return (await this.col.deleteOne({ _id: keyId })).deletedCount === 1;
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
