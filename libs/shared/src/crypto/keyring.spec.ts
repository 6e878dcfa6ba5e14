import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keyring } from './keyring';

describe('Keyring', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gr-key-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('creates a 0600 master key file on first run and reuses it', () => {
    const a = Keyring.load(dir, '');
    expect(statSync(join(dir, 'master.key')).mode & 0o777).toBe(0o600);
    const sealed = a.seal('s3cret-value', 'user-1');
    expect(sealed).not.toContain('s3cret');
    expect(Keyring.load(dir, '').open(sealed, 'user-1').toString()).toBe('s3cret-value');
  });

  it('refuses a ciphertext opened in another context or tampered with', () => {
    const k = Keyring.load(dir, '');
    const sealed = k.seal('x', 'user-1');
    expect(() => k.open(sealed, 'user-2')).toThrow();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('y').toString('base64url');
    expect(() => k.open(parts.join('.'), 'user-1')).toThrow();
  });

  it('wraps data keys and takes MASTER_KEY from the environment', () => {
    const k = Keyring.load(dir, Buffer.alloc(32, 7).toString('base64'));
    const { key, wrapped } = k.newDataKey('cred-1');
    expect(k.unwrapDataKey(wrapped, 'cred-1').equals(key)).toBe(true);
    expect(() => Keyring.load(dir, 'short')).toThrow(/32 bytes/);
  });
});
