import { MongoBulkWriteError, MongoError, MongoNetworkError, MongoNetworkTimeoutError, MongoServerError, MongoServerSelectionError, TopologyType } from 'mongodb';
import { FaultSchedule } from '@gridrocket/event-store/testing/fault-schedule';
import { isTransientMongoError, isTransientReadStoreError } from './mongo.errors';
import { SqliteReadStore } from './sqlite.read-store';
import { FaultyReadStore, injectedFault } from './testing/faulty.read-store';

/** The error an awaited call threw. */
async function thrown(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected a failure');
}

const cp = (position: bigint) => ({ name: 'cp', position });

describe('FaultyReadStore throws the MongoDB driver errors', () => {
  it('a refused commit: MongoNetworkError or a MongoServerError labelled TransientTransactionError, nothing written', async () => {
    const inner = new SqliteReadStore(':memory:');
    const reads = new FaultyReadStore(inner, new FaultSchedule(3), { rejectCommitRate: 1 });
    const first = await thrown(reads.commit('docs', [{ id: 'a', rev: 0, doc: { id: 'a' } }], cp(1n)));
    const second = await thrown(reads.commitMany([{ collection: 'docs', writes: [{ id: 'a', rev: 0, doc: { id: 'a' } }], checkpoint: cp(1n) }]));
    expect(first).toBeInstanceOf(MongoNetworkError);
    expect(second).toBeInstanceOf(MongoServerError);
    expect((second as MongoServerError).hasErrorLabel('TransientTransactionError')).toBe(true);
    expect((second as MongoServerError).code).toBe(112);
    for (const err of [first, second]) expect(injectedFault(err)).toEqual({ kind: 'commit.reject', applied: false });
    expect(await inner.get('docs', 'a')).toBeNull();
    expect(await inner.getCheckpoint('cp')).toBeNull();
    await inner.close();
  });

  it('a commit whose answer was lost: MongoNetworkTimeoutError after the write was applied, and the test can tell', async () => {
    const inner = new SqliteReadStore(':memory:');
    const reads = new FaultyReadStore(inner, new FaultSchedule(3), { commitTimeoutRate: 1 });
    const err = await thrown(reads.commit('docs', [{ id: 'a', rev: 0, doc: { id: 'a' } }], cp(5n)));
    expect(err).toBeInstanceOf(MongoNetworkTimeoutError);
    expect(err).toBeInstanceOf(MongoNetworkError);
    expect(injectedFault(err)).toEqual({ kind: 'commit.timeout', applied: true });
    expect(await inner.get('docs', 'a')).toEqual({ id: 'a' });
    expect(await inner.getCheckpoint('cp')).toBe(5n);
    await inner.close();
  });

  it('a failed read: MongoServerSelectionError (no primary) or MongoNetworkError', async () => {
    const inner = new SqliteReadStore(':memory:');
    const reads = new FaultyReadStore(inner, new FaultSchedule(3), { failReadRate: 1 });
    const errors = [await thrown(reads.get('docs', 'a')), await thrown(reads.find('docs', {})), await thrown(reads.getCheckpoint('cp'))];
    expect(errors[0]).toBeInstanceOf(MongoServerSelectionError);
    expect(errors[1]).toBeInstanceOf(MongoNetworkError);
    expect(errors[2]).toBeInstanceOf(MongoServerSelectionError);
    for (const err of errors) expect(injectedFault(err)).toEqual({ kind: 'read.fail', applied: false });
    await inner.close();
  });

  it('every fault it throws is transient to the read-store classifier', async () => {
    const inner = new SqliteReadStore(':memory:');
    const reads = new FaultyReadStore(inner, new FaultSchedule(3), { rejectCommitRate: 0.5, commitTimeoutRate: 0.5, failReadRate: 1 });
    for (let i = 0; i < 6; i++) {
      for (const err of [await thrown(reads.get('docs', 'a')), await thrown(reads.commit('docs', [], cp(BigInt(i + 1))))]) {
        expect(err).toBeInstanceOf(MongoError);
        expect(isTransientReadStoreError(err)).toBe(true);
      }
    }
    await inner.close();
  });
});

describe('isTransientMongoError: the driver vocabulary, not err.name', () => {
  const server = (fields: Record<string, unknown>) => new MongoServerError({ message: 'server error', ...fields });
  const noPrimary = () =>
    new MongoServerSelectionError('Server selection timed out after 30000 ms', { type: TopologyType.ReplicaSetNoPrimary, servers: new Map(), error: null } as never);

  it.each([
    ['a network error', new MongoNetworkError('connection closed')],
    ['a network timeout', new MongoNetworkTimeoutError('connection timed out')],
    ['no server selectable (an election)', noPrimary()],
    ['a transaction aborted by the server (TransientTransactionError)', server({ code: 251, codeName: 'NoSuchTransaction', errorLabels: ['TransientTransactionError'] })],
    ['a retryable write error', server({ code: 11602, codeName: 'InterruptedDueToReplStateChange', errorLabels: ['RetryableWriteError'] })],
    ['a commit whose result is unknown', server({ code: 50, codeName: 'MaxTimeMSExpired', errorLabels: ['UnknownTransactionCommitResult'] })],
    ['ExceededTimeLimit', server({ code: 262, codeName: 'ExceededTimeLimit' })],
    ['PrimarySteppedDown', server({ code: 189, codeName: 'PrimarySteppedDown' })],
    ['a write concern timeout', server({ code: 64, codeName: 'WriteConcernTimeout' })],
  ])('%s is transient', (_what, err) => {
    expect(isTransientMongoError(err)).toBe(true);
    expect(isTransientReadStoreError(err)).toBe(true);
  });

  it.each([
    ['a duplicate key', server({ code: 11000, codeName: 'DuplicateKey' })],
    ['a transaction too large', server({ code: 257, codeName: 'TransactionTooLarge' })],
    ['a bad query', server({ code: 2, codeName: 'BadValue' })],
    ['a bulk write with a duplicate key', new MongoBulkWriteError({ message: 'E11000', code: 11000, writeErrors: [] } as never, { getWriteConcernError: () => undefined } as never)],
    ['a plain error that only calls itself MongoNetworkError', Object.assign(new Error('connection closed'), { name: 'MongoNetworkError' })],
    ['nothing', undefined],
  ])('%s is not', (_what, err) => {
    expect(isTransientMongoError(err)).toBe(false);
  });

  it('a bulk write whose write concern timed out is transient', () => {
    const err = new MongoBulkWriteError({ message: 'waiting for replication timed out', code: 64 } as never, { getWriteConcernError: () => ({ code: 64 }) } as never);
    expect(isTransientMongoError(err)).toBe(true);
  });
});
