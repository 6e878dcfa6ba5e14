import type { CollectionCommit, DocWrite } from './read-store.port';

/**
 * How much one request carries (docs/resilience.md, "MongoDB read store"). A transaction must end within
 * `transactionLifetimeLimitSeconds` (60 s by default) or the server aborts it (NoSuchTransaction, labelled
 * TransientTransactionError), and the driver's `withTransaction` then runs the whole of it again, for up to
 * 120 s (node_modules/mongodb/lib/sessions.js): one that cannot end in time never does. Each oplog entry of
 * a transaction is a BSON document of at most 16 MB, and MongoDB advises changing no more than 1,000
 * documents in one transaction. A rebuild writes its fresh collections outside transactions, in bulk
 * writes of the same size (the driver would split at 100,000 operations or 48 MB itself).
 */
export const MONGO_BATCH = { docsPerTransaction: 1_000, docsPerBulkWrite: 1_000 };

/** One transaction's share of a commit: its documents, and the checkpoint where they are the last of it. */
export interface CommitPart {
  collection: string;
  writes: DocWrite<any>[];
  checkpoint?: { name: string; position: bigint };
}

/**
 * Splits commits into transactions of at most `max` documents, in order. A projection's checkpoint goes
 * into the transaction that writes its last documents, never into an earlier one: if a later transaction
 * fails, the documents already written are ahead of their checkpoint, and applying their events again
 * changes nothing (the revision guard); a checkpoint is never ahead of its documents.
 */
export function planTransactions(commits: CollectionCommit[], max: number = MONGO_BATCH.docsPerTransaction): CommitPart[][] {
  if (!(max >= 1)) throw new Error(`A transaction holds at least one document (asked for ${max})`);
  const out: CommitPart[][] = [];
  let current: CommitPart[] = [];
  let size = 0;
  for (const c of commits) {
    for (let i = 0; ; ) {
      if (size >= max) {
        out.push(current);
        current = [];
        size = 0;
      }
      const take = c.writes.slice(i, i + (max - size));
      i += take.length;
      const last = i >= c.writes.length;
      current.push({ collection: c.collection, writes: take, ...(last ? { checkpoint: c.checkpoint } : {}) });
      size += take.length;
      if (last) break;
    }
  }
  if (current.length) out.push(current);
  return out;
}

/** `items` in slices of at most `size`. */
export function slices<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
