/**
 * The one polling wait for tests: resolves with the first truthy value of `probe`, or fails with
 * `what` and the last value seen after `timeoutMs`. Test-only; imports nothing.
 */
export async function until<T>(
  what: string,
  probe: () => T | false | null | undefined | Promise<T | false | null | undefined>,
  timeoutMs = 10_000,
  intervalMs = 25,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value as T;
      last = value;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) {
      const seen = last instanceof Error ? last.message : JSON.stringify(last);
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${seen})`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
