import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What a suite's teardown ends: a runner or a feed (`stop`), a store, app, stand-in or venue (`close`), or a temporary folder. */
export type Closable = { stop(): unknown } | { close(): unknown } | string | null | undefined;

/**
 * The teardown that the runner and stand-in suites wrote out line by line (issue 42): each thing in the order
 * given, one after the other, `stop()` where it has one, else `close()`; a string is a temporary folder,
 * removed with what is in it. What was never made (a set-up that failed half-way) is passed over.
 */
export async function closeAll(...things: Closable[]): Promise<void> {
  for (const thing of things) {
    if (thing == null) continue;
    if (typeof thing === 'string') rmSync(thing, { recursive: true, force: true });
    else if ('stop' in thing) await thing.stop();
    else await thing.close();
  }
}

/** A temporary folder `<tmp>/<prefix>XXXXXX` for a describe block: made now, removed with what is in it after its tests. */
export function useTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
