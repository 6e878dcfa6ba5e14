import { MongoError, MongoNetworkError, MongoNetworkTimeoutError, MongoServerError, MongoServerSelectionError, TopologyType } from 'mongodb';
import { FaultSchedule } from '@gridrocket/event-store/testing/fault-schedule';
import type { CollectionCommit, Doc, DocWrite, FindOptions, ReadStore, StoredDoc, Where } from '../read-store.port';

/** What a test can learn of an error the wrapper threw: which fault, and whether the write had been applied. */
export interface InjectedReadStoreFault {
  kind: 'read.fail' | 'commit.reject' | 'commit.timeout';
  applied: boolean;
}

const injected = new WeakMap<Error, InjectedReadStoreFault>();

/** The fault behind an error FaultyReadStore threw (undefined: not one of its faults). */
export function injectedFault(err: unknown): InjectedReadStoreFault | undefined {
  return err instanceof Error ? injected.get(err) : undefined;
}

function mark<E extends MongoError>(err: E, fault: InjectedReadStoreFault): E {
  injected.set(err, fault);
  return err;
}

/**
 * The errors the MongoDB driver (6.x) throws in these cases, built as it builds them (node_modules/mongodb/lib:
 * error.js, sdam/server.js, sdam/topology.js), with "injected fault" in the message for the logs.
 */
export const mongoFaults = {
  /** A refused commit, nothing written: the connection closed before the write was sent, or the transaction aborted. */
  refusedCommit(what: string, n: number): MongoError {
    const message = `injected fault: ${what} rejected`;
    return n % 2 === 0
      ? new MongoNetworkError(`${message} (connection 7 to 10.0.0.3:27017 closed)`)
      : new MongoServerError({ message: `${message} (WriteConflict)`, code: 112, codeName: 'WriteConflict', errorLabels: ['TransientTransactionError'] });
  },
  /** A commit applied whose answer was lost: the socket timed out waiting for the reply. */
  lostAnswer(what: string): MongoError {
    return new MongoNetworkTimeoutError(`injected fault: ${what} timed out (written): connection 7 to 10.0.0.3:27017 timed out`);
  },
  /** A failed read: no primary selectable during an election, or the connection reset. */
  failedRead(what: string, n: number): MongoError {
    const message = `injected fault: ${what} failed`;
    if (n % 2 === 1) return new MongoNetworkError(`${message} (connection 5 to 10.0.0.2:27017 reset)`);
    // the reason is the topology description the driver passes (sdam/topology.js): no server selectable
    const topology = { type: TopologyType.ReplicaSetNoPrimary, setName: 'rs0', servers: new Map(), stale: false, compatible: true, error: null };
    return new MongoServerSelectionError(`${message} (Server selection timed out after 30000 ms)`, topology as never);
  },
};

export interface ReadStoreFaults {
  /** Share of commits (commit, commitMany) refused before anything is written (MongoNetworkError, or a MongoServerError labelled TransientTransactionError). */
  rejectCommitRate?: number;
  /** Share of commits written whose answer is lost (a MongoNetworkTimeoutError; the caller sees it and commits again). */
  commitTimeoutRate?: number;
  /** Share of reads (get, getMany, find, count, getCheckpoint) that fail (MongoServerSelectionError or MongoNetworkError). */
  failReadRate?: number;
}

/**
 * The read-store port with faults injected on a schedule (what MongoDB does during an election or a network
 * blip), thrown as the MongoDB driver's own error classes; `injectedFault(err)` tells a test which fault
 * it was and whether the write had been applied.
 */
export class FaultyReadStore implements ReadStore {
  readonly kind: string;
  private n = 0;

  constructor(
    readonly inner: ReadStore,
    readonly schedule: FaultSchedule,
    readonly faults: ReadStoreFaults = {},
  ) {
    this.kind = inner.kind;
  }

  private read<T>(what: string, fn: () => Promise<T>): Promise<T> {
    if (this.schedule.hit('read.fail', this.faults.failReadRate)) return Promise.reject(mark(mongoFaults.failedRead(what, this.n++), { kind: 'read.fail', applied: false }));
    return fn();
  }

  private async write<T>(what: string, fn: () => Promise<T>): Promise<T> {
    if (this.schedule.hit('commit.reject', this.faults.rejectCommitRate)) throw mark(mongoFaults.refusedCommit(what, this.n++), { kind: 'commit.reject', applied: false });
    if (this.schedule.hit('commit.timeout', this.faults.commitTimeoutRate)) {
      await fn();
      throw mark(mongoFaults.lostAnswer(what), { kind: 'commit.timeout', applied: true });
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
