import { randomUUID } from 'node:crypto';
import type { KeyStore } from './key-store.port';

/** What every key store does (SQLite always, MongoDB when MONGO_URL is set). */
export function keyStoreContract(makeStore: () => Promise<KeyStore>) {
  let store: KeyStore;
  beforeAll(async () => {
    store = await makeStore();
  });
  afterAll(async () => {
    await store?.close();
  });
  const id = () => `k${randomUUID().replace(/-/g, '')}`;

  it('stores a wrapped key once and never overwrites it', async () => {
    const k = id();
    expect(await store.put(k, 'v1.first')).toBe(true);
    expect(await store.put(k, 'v1.second')).toBe(false);
    expect(await store.get(k)).toBe('v1.first');
  });

  it('destroys a key for good, idempotently', async () => {
    const k = id();
    await store.put(k, 'v1.doomed');
    expect(await store.destroy(k)).toBe(true);
    expect(await store.get(k)).toBeNull();
    expect(await store.destroy(k)).toBe(false);
    expect(await store.put(k, 'v1.again')).toBe(true); // a new key under the id is a new key
  });

  it('refuses malformed ids', async () => {
    await expect(store.put('../x', 'v1.x')).rejects.toThrow();
    expect(await store.get('../x')).toBeNull();
  });
}
