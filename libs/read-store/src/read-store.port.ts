/**
 * The read-store port: documents that projections build and GET routes serve.
 * Every document belongs to one stream and remembers the stream revision it
 * reflects (`_rev`), so re-applying an event that is already reflected changes
 * nothing (idempotent projections). A projection's documents and its
 * checkpoint are written together in `commit`.
 */
export interface Doc {
  id: string;
}

export interface StoredDoc<D extends Doc = Doc> {
  doc: D | null; // null: deleted (a tombstone keeps its revision)
  rev: number;
}

export interface DocWrite<D extends Doc = Doc> {
  id: string;
  rev: number;
  doc: D | null; // null deletes
}

export interface CollectionCommit {
  collection: string;
  writes: DocWrite<any>[];
  checkpoint: { name: string; position: bigint };
}

export type Where = Record<string, string | number | boolean | null>;

export interface FindOptions {
  limit?: number;
  offset?: number;
  orderBy?: { field: string; direction?: 'asc' | 'desc' };
}

export interface ReadStore {
  readonly kind: string;
  /** Creates what a collection needs (tables, indexes on the fields queried by). */
  ensureCollection(collection: string, indexedFields?: string[]): Promise<void>;
  get<D extends Doc>(collection: string, id: string): Promise<D | null>;
  getMany<D extends Doc>(collection: string, ids: string[]): Promise<Map<string, StoredDoc<D>>>;
  find<D extends Doc>(collection: string, where: Where, options?: FindOptions): Promise<D[]>;
  count(collection: string, where: Where): Promise<number>;
  /**
   * Writes documents whose revision is newer than the stored one (older or equal
   * ones are skipped) and moves the checkpoint, atomically where the engine can.
   * Returns the ids actually written.
   */
  commit(collection: string, writes: DocWrite<any>[], checkpoint: { name: string; position: bigint }): Promise<string[]>;
  /** Several projections' writes and checkpoints at once: one transaction where the engine has them. */
  commitMany(commits: CollectionCommit[]): Promise<void>;
  getCheckpoint(name: string): Promise<bigint | null>;
  /** Empties collections and checkpoints, for a rebuild from zero. */
  reset(collections: string[], checkpoints: string[]): Promise<void>;
  /**
   * Optional: builds fresh copies of collections beside the ones served, swapped in whole by
   * `complete` (one transaction with the checkpoints). Until then the old read model is served
   * unchanged, and a crash mid-rebuild leaves it as it was. Stores without it are rebuilt in place.
   */
  beginRebuild?(collections: { collection: string; indexes?: string[] }[]): Promise<RebuildSession>;
  close(): Promise<void>;
}

/**
 * A document a rebuild writes; `first`: the position of its first event, which orders the documents as
 * incremental projection creates them (where the store keeps an order) even when threads write them;
 * `json`: the document already encoded as JSON by the thread that folded it (null: deleted).
 */
export interface RebuildWrite<D extends Doc = Doc> extends DocWrite<D> {
  first?: number;
  json?: string | null;
}

/** A rebuild under way (see `ReadStore.beginRebuild`). */
export interface RebuildSession {
  /** Documents already written to the fresh copy (tombstones as `doc: null`). */
  getMany<D extends Doc>(collection: string, ids: string[]): Promise<Map<string, StoredDoc<D>>>;
  /**
   * Writes folded documents that reflect every event up to `upTo` into the fresh copy (a store rebuilt
   * in place moves the checkpoints with them; the fresh copy's count only once `complete` is called).
   */
  write(writes: { collection: string; writes: RebuildWrite[] }[], upTo: bigint): Promise<void>;
  /** Puts the fresh copies in place of the old ones and sets the checkpoints, atomically. */
  complete(checkpoints: { name: string; position: bigint }[]): Promise<void>;
  /** Drops the fresh copies; the old read model stays. */
  abandon(): Promise<void>;
}

export const READ_STORE = Symbol('READ_STORE');
