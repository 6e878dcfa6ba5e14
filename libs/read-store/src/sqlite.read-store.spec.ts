import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readStoreContract } from './read-store.contract';
import { SqliteReadStore } from './sqlite.read-store';

describe('SQLite read store (embedded default)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gr-rs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  readStoreContract(async () => new SqliteReadStore(join(dir, 'read.sqlite')));
});
