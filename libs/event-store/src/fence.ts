/**
 * A fence for appends: "append only while `streamId` is still at `revision`". The ownership of a
 * bot is an epoch: the revision of the claim its runner appended to the partition's ownership
 * stream (with an expected revision). A runner appends with its epoch as fence; once another
 * runner has claimed the partition, the ownership stream has moved and the deposed runner's
 * appends are refused with FencedError.
 *
 * The fence travels explicitly with the append (`append(…, { fence })`): the runner puts it in the
 * CommandContext of its commands, and executeCommand hands it to the store. (It travelled in an
 * AsyncLocalStorage before issue 16: on Node 20 that puts a hook on every promise of the process,
 * about 15 % of the bytes allocated under load.)
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
