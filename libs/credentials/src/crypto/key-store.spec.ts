import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keyStoreContract } from './key-store.contract';
import { MongoKeyStore } from './mongo.key-store';
import { SqliteKeyStore, WalBusyError } from './sqlite.key-store';

const dir = mkdtempSync(join(tmpdir(), 'gr-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('key store, SQLite (embedded)', () => {
  keyStoreContract(async () => new SqliteKeyStore(join(dir, 'contract.sqlite')));

  it('a TRUNCATE checkpoint that answers busy is not taken for done: retried, then the destroy fails', async () => {
    const file = join(dir, 'busy.sqlite');
    const keys = new SqliteKeyStore(file, { checkpointAttempts: 3, busyTimeoutMs: 50 });
    await keys.put('k1', 'v1.SECRET-DATA-KEY-MATERIAL');
    // another connection holds a read snapshot: the WAL cannot be reset meanwhile
    const reader = new Database(file);
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM data_keys').get();
    await expect(keys.destroy('k1')).rejects.toBeInstanceOf(WalBusyError);
    reader.exec('COMMIT');
    reader.close();
    // the retry (destroy is idempotent) now empties the WAL: nothing of the key is left in the files
    await keys.destroy('k1');
    expect(await keys.get('k1')).toBeNull();
    for (const f of [file, `${file}-wal`]) {
      let bytes = Buffer.alloc(0);
      try {
        bytes = readFileSync(f);
      } catch {
        // no WAL file: nothing in it
      }
      expect(bytes.includes(Buffer.from('SECRET-DATA-KEY-MATERIAL'))).toBe(false);
    }
    await keys.close();
  });
});

const url = process.env.MONGO_URL;
(url ? describe : describe.skip)(`key store, MongoDB (${url ? url : 'skipped: MONGO_URL not set'})`, () => {
  keyStoreContract(async () => new MongoKeyStore(url!, `gridrocket_keys_contract_${Date.now()}`).connect());
});
