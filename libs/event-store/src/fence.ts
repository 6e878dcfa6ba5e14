import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * A fence for appends: "append only while `streamId` is still at `revision`". The ownership of a
 * bot is an epoch: the revision of the claim its runner appended to the partition's ownership
 * stream (with an expected revision). A runner appends with its epoch as fence; once another
 * runner has claimed the partition, the ownership stream has moved and the deposed runner's
 * appends are refused with FencedError.
 *
 * The fence travels with the call (AsyncLocalStorage), so that the code between the runner and
 * the store (command bus, handlers) needs no change: `withFence(fence, () => commands.execute(...))`.
 */
export interface Fence {
  streamId: string;
  revision: bigint;
}

export class FencedError extends Error {
  constructor(
    readonly fence: Fence,
    readonly actual: bigint | 'no_stream',
  ) {
    super(`Fenced: ${fence.streamId} is at ${String(actual)}, not at the epoch ${fence.revision} this writer holds`);
    this.name = 'FencedError';
  }
}

const current = new AsyncLocalStorage<Fence | null>();

/** Runs `fn` with every append inside it fenced by `fence` (null: no fence). */
export function withFence<T>(fence: Fence | null, fn: () => T): T {
  return current.run(fence, fn);
}

/** The fence of the calling context, if any. */
export function currentFence(): Fence | null {
  return current.getStore() ?? null;
}
