import { MongoBulkWriteError, MongoError, MongoErrorLabel, MongoNetworkError, MongoServerSelectionError } from 'mongodb';

/**
 * Server codes after which the same operation may simply be made again: the driver's retryable read and
 * write codes (node_modules/mongodb/lib/error.js: HostUnreachable 6, HostNotFound 7, NetworkTimeout 89,
 * ShutdownInProgress 91, PrimarySteppedDown 189, ExceededTimeLimit 262, SocketException 9001,
 * NotWritablePrimary 10107, InterruptedAtShutdown 11600, InterruptedDueToReplStateChange 11602,
 * NotPrimaryNoSecondaryOk 13435, NotPrimaryOrSecondary 13436, ReadConcernMajorityNotAvailableYet 134),
 * plus WriteConcernTimeout 64 (not enough members acknowledged in time: our writes are idempotent) and
 * WriteConflict 112.
 */
const TRANSIENT_CODES = new Set([6, 7, 89, 91, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436, 134, 64, 112]);

/**
 * True when a MongoDB driver error means "the server was away, busy or changing primary: make the same
 * call again", in the driver's own vocabulary (classes and labels, not `err.name`): a network error
 * (MongoNetworkError, MongoNetworkTimeoutError), no server selectable (MongoServerSelectionError, an
 * election), a server error labelled TransientTransactionError, RetryableWriteError or
 * UnknownTransactionCommitResult, or one of the retryable codes above (also inside a bulk write's
 * write-concern error). Not transient: duplicate keys, validation, TransactionTooLarge (257), bad queries.
 */
export function isTransientMongoError(err: unknown): boolean {
  if (err instanceof MongoNetworkError || err instanceof MongoServerSelectionError) return true;
  if (!(err instanceof MongoError)) return false;
  if (
    err.hasErrorLabel(MongoErrorLabel.TransientTransactionError) ||
    err.hasErrorLabel(MongoErrorLabel.RetryableWriteError) ||
    err.hasErrorLabel(MongoErrorLabel.UnknownTransactionCommitResult)
  ) {
    return true;
  }
  if (typeof err.code === 'number' && TRANSIENT_CODES.has(err.code)) return true;
  if (err instanceof MongoBulkWriteError) {
    const wce = err.result?.getWriteConcernError?.();
    return !!wce && TRANSIENT_CODES.has(wce.code ?? -1);
  }
  return false;
}

/**
 * What a caller of any read store may simply try again: a transient MongoDB driver error
 * (isTransientMongoError) or SQLite's SQLITE_BUSY. (The projector and the reactors retry every failed
 * commit whatever its error; this is for callers that retry only what is worth retrying.)
 */
export function isTransientReadStoreError(err: unknown): boolean {
  return isTransientMongoError(err) || (err as { code?: unknown } | null)?.code === 'SQLITE_BUSY';
}
