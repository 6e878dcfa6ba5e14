import { FaultSchedule, InjectedFault } from '@gridrocket/event-store/testing/fault-schedule';
import type { CollectionCommit, Doc, DocWrite, FindOptions, ReadStore, StoredDoc, Where } from '../read-store.port';

export interface ReadStoreFaults {
  /** Share of commits (commit, commitMany) refused before anything is written (Mongo: a write-concern or network error). */
  rejectCommitRate?: number;
  /** Share of commits written whose answer is lost (the caller sees an error and commits again). */
  commitTimeoutRate?: number;
  /** Share of reads (get, getMany, find, count, getCheckpoint) that fail. */
  failReadRate?: number;
}

/** The read-store port with faults injected on a schedule (what MongoDB does during an election or a network blip). */
export class FaultyReadStore implements ReadStore {
  readonly kind: string;

  constructor(
    readonly inner: ReadStore,
    readonly schedule: FaultSchedule,
    readonly faults: ReadStoreFaults = {},
  ) {
    this.kind = inner.kind;
  }

  private read<T>(what: string, fn: () => Promise<T>): Promise<T> {
    if (this.schedule.hit('read.fail', this.faults.failReadRate)) return Promise.reject(new InjectedFault(`${what} failed`, 'read.fail'));
    return fn();
  }

  private async write<T>(what: string, fn: () => Promise<T>): Promise<T> {
    if (this.schedule.hit('commit.reject', this.faults.rejectCommitRate)) throw new InjectedFault(`${what} rejected`, 'commit.reject');
    if (this.schedule.hit('commit.timeout', this.faults.commitTimeoutRate)) {
      await fn();
      throw new InjectedFault(`${what} timed out (written)`, 'commit.timeout', true);
    }
    return fn();
  }

  ensureCollection(collection: string, indexedFields?: string[]): Promise<void> {
    return this.inner.ensureCollection(collection, indexedFields);
  }

  get<D extends Doc>(collection: string, id: string): Promise<D | null> {
    return this.read(`get ${collection}`, () => this.inner.get<D>(collection, id));
  }

  getMany<D extends Doc>(collection: string, ids: string[]): Promise<Map<string, StoredDoc<D>>> {
    return this.read(`getMany ${collection}`, () => this.inner.getMany<D>(collection, ids));
  }

  find<D extends Doc>(collection: string, where: Where, options?: FindOptions): Promise<D[]> {
    return this.read(`find ${collection}`, () => this.inner.find<D>(collection, where, options));
  }

  count(collection: string, where: Where): Promise<number> {
    return this.read(`count ${collection}`, () => this.inner.count(collection, where));
  }

  commit(collection: string, writes: DocWrite<any>[], checkpoint: { name: string; position: bigint }): Promise<string[]> {
    return this.write(`commit to ${collection}`, () => this.inner.commit(collection, writes, checkpoint));
  }

  commitMany(commits: CollectionCommit[]): Promise<void> {
    return this.write('commitMany', () => this.inner.commitMany(commits));
  }

  getCheckpoint(name: string): Promise<bigint | null> {
    return this.read(`checkpoint ${name}`, () => this.inner.getCheckpoint(name));
  }

  reset(collections: string[], checkpoints: string[]): Promise<void> {
    return this.inner.reset(collections, checkpoints);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
