import { MongoServerError } from 'mongodb';
import { MongoCollectionStore } from '@gridrocket/read-store';
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
export class MongoKeyStore extends MongoCollectionStore<DataKey> implements KeyStore {
  constructor(url: string, dbName = 'gridrocket_keys') {
    super(url, dbName, 'data_keys', { writeConcern: { w: 'majority' }, readConcern: { level: 'majority' } });
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
}
