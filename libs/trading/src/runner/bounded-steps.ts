/**
 * A round's exchange calls of one bot, together (issue 16): up to `limit` steps in flight at once,
 * launched in order. Once a step has failed or `halt()` says so, no further step is launched; every
 * launched step is awaited (what succeeded is recorded by the caller's batch), then the error of the
 * earliest failed step (in the order of `items`, as a one-by-one loop would have thrown it) is thrown.
 */
export async function boundedSteps<T>(items: readonly T[], limit: number, step: (item: T) => Promise<void>, halt: () => boolean = () => false): Promise<void> {
  const failures: Array<{ at: number; err: unknown }> = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length && failures.length === 0 && !halt()) {
      const at = next++;
      try {
        await step(items[at]);
      } catch (err) {
        failures.push({ at, err });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failures.length > 0) throw failures.reduce((a, b) => (b.at < a.at ? b : a)).err;
}
