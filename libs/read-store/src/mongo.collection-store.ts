import { MongoClient, type Collection, type Document, type MongoClientOptions } from 'mongodb';

/**
 * A store kept in one MongoDB collection (a key store, the shared rate limits, the venues' figures): its
 * client, `connect()` (the collection, then what the store prepares on it, such as an index) and `close()`.
 */
export abstract class MongoCollectionStore<Doc extends Document> {
  readonly kind = 'mongodb';
  private readonly client: MongoClient;
  protected col!: Collection<Doc>;

  constructor(url: string, private readonly dbName: string, private readonly collection: string, options?: MongoClientOptions) {
    this.client = new MongoClient(url, options);
  }

  async connect(): Promise<this> {
    await this.client.connect();
    this.col = this.client.db(this.dbName).collection<Doc>(this.collection);
    await this.prepare();
    return this;
  }

  /** What the store needs on its collection before it is used (nothing unless it says). */
  protected async prepare(): Promise<void> {}

  async close(): Promise<void> {
    await this.client.close();
  }
}
