import { join } from 'node:path';
import type { AppConfig } from '@gridrocket/shared/runtime';
import type { KeyStore } from './key-store.port';
import { MongoKeyStore } from './mongo.key-store';
import { SqliteKeyStore } from './sqlite.key-store';

/**
 * Where data keys live: with the read store on MongoDB (several hosts: every API and runner opens
 * credentials), in its own database; else the embedded file `<data>/keys.sqlite`.
 * KEY_STORE=sqlite keeps the file even with MongoDB (single host; see MongoKeyStore on shredding).
 */
export async function createKeyStore(config: AppConfig, env: NodeJS.ProcessEnv = process.env): Promise<KeyStore> {
  if (config.readStore.kind === 'mongodb' && env.KEY_STORE !== 'sqlite') return new MongoKeyStore(config.readStore.url).connect();
  return new SqliteKeyStore(join(config.dataDir, 'keys.sqlite'));
}
