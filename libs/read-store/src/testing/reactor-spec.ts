/** What the reactor and read-store specs set up alike: a test event, and a folder for a describe block's stores. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { NewEvent } from '@gridrocket/event-store';

/** An event of `type` carrying `{ n }`, with the metadata every command writes. */
export const testEvent = (type: string, n: number): NewEvent => ({
  id: randomUUID(),
  type,
  data: { n },
  metadata: { userId: 'u', correlationId: 'c', causationId: null, occurredAt: new Date().toISOString(), schemaVersion: 1 },
});

/** A temporary folder named from `prefix`, removed after the enclosing block's tests (or the file's, at the top). */
export function storesDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
