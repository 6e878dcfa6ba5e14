import type { CommandContext } from './command-context';
import { statusError } from './errors';

/**
 * What a command does when another writer appended to its stream between its read and its append.
 * - `redecide`: decide again on the fresh state. Safe when the decision depends only on the stream's
 *   current state (create, start, stop, delete, remove, sign-in, ...): the decider sees what happened
 *   meanwhile and accepts, refuses or does nothing accordingly.
 * - `reject`: the client decided on the revision it read (HTTP `If-Match`). Unless the stream is still
 *   at one of those revisions, nothing is written and the command fails with PreconditionFailedError.
 */
export type ConflictPolicy =
  | { readonly onConflict: 'redecide'; readonly maxAttempts: number }
  | { readonly onConflict: 'reject'; readonly expectedRevisions: readonly bigint[] };

export const REDECIDE: ConflictPolicy = { onConflict: 'redecide', maxAttempts: 25 };

/** The client's revisions (If-Match) when it sent some, otherwise re-decide on a conflict. */
export function conflictPolicy(expectedRevisions: readonly bigint[] | null | undefined): ConflictPolicy {
  return expectedRevisions ? { onConflict: 'reject', expectedRevisions } : REDECIDE;
}

/**
 * The one shape of an application command in every context: who asks (`ctx`, which becomes the
 * events' metadata) and how it meets a concurrent writer (`conflict`). The rest is the command's own
 * fields (the aggregate's id first). Handlers run it with `executeCommand(…, command.ctx, command.conflict)`.
 */
export interface AppCommand {
  readonly ctx: CommandContext;
  readonly conflict: ConflictPolicy;
}

export const STALE_REVISION = 'It was changed since you loaded it (your If-Match revision is stale): reload it and apply your change again.';

/** The client's precondition (If-Match) no longer holds: HTTP 412, nothing written. */
export class PreconditionFailedError extends statusError(412, 'PreconditionFailedError', STALE_REVISION) {}
