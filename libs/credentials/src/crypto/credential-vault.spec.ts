import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keyring } from '@gridrocket/shared/runtime';
import { CredentialVault, ShreddedError } from './credential-vault';
import { SqliteKeyStore } from './sqlite.key-store';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'gr-vault-'));
  dirs.push(dir);
  const keys = new SqliteKeyStore(join(dir, 'keys.sqlite'));
  const vault = new CredentialVault(Keyring.fromKey(randomBytes(32)), keys);
  return { dir, keys, vault };
}
const who = { credentialId: 'c1', userId: 'u1', exchange: 'Kucoin' as const };

describe('credential vault (envelope encryption, crypto-shredding)', () => {
  it('seals under a data key of its own and opens again', async () => {
    const { vault, keys } = setup();
    const sealed = await vault.seal(who, { secret: 'my-very-secret-key', passphrase: 'my-pass' });
    expect(JSON.stringify(sealed)).not.toContain('my-very-secret-key');
    expect(JSON.stringify(sealed)).not.toContain('my-pass');
    expect(await vault.open({ ...who, ...sealed })).toEqual({ secret: 'my-very-secret-key', passphrase: 'my-pass' });
    await keys.close();
  });

  it('binds each ciphertext to its credential, user and field', async () => {
    const { vault, keys } = setup();
    const sealed = await vault.seal(who, { secret: 'my-very-secret-key', passphrase: 'my-pass' });
    await expect(vault.open({ ...who, userId: 'u2', ...sealed })).rejects.toThrow();
    await expect(vault.open({ ...who, credentialId: 'c2', ...sealed })).rejects.toThrow();
    await expect(vault.open({ ...who, ...sealed, sealedSecret: sealed.sealedPassphrase! })).rejects.toThrow();
    await keys.close();
  });

  it('each credential has a different data key; shredding one leaves the others', async () => {
    const { vault, keys } = setup();
    const a = await vault.seal(who, { secret: 'secret-number-one', passphrase: null });
    const b = await vault.seal({ ...who, credentialId: 'c2' }, { secret: 'secret-number-two', passphrase: null });
    expect(a.keyId).not.toBe(b.keyId);
    expect(await vault.shred(a.keyId)).toBe(true);
    expect(await vault.shred(a.keyId)).toBe(false);
    await expect(vault.open({ ...who, ...a })).rejects.toThrow(ShreddedError);
    expect((await vault.open({ ...who, credentialId: 'c2', ...b })).secret).toBe('secret-number-two');
    await keys.close();
  });

  it('leaves no copy of a destroyed wrapped key in the key store\'s files (database and WAL)', async () => {
    const { vault, keys, dir } = setup();
    const sealed = await vault.seal(who, { secret: 'secret-number-one', passphrase: null });
    const wrapped = (await keys.get(sealed.keyId))!;
    const fileBytes = () =>
      readdirSync(dir)
        .filter((f) => f.startsWith('keys.sqlite'))
        .map((f) => readFileSync(join(dir, f)).toString('latin1'))
        .join('\n');
    expect(fileBytes()).toContain(wrapped.split('.')[3]);
    await vault.shred(sealed.keyId);
    expect(fileBytes()).not.toContain(wrapped.split('.')[3]);
    expect(fileBytes()).not.toContain(wrapped.split('.')[1]);
    await keys.close();
    expect(existsSync(join(dir, 'keys.sqlite-wal')) ? readFileSync(join(dir, 'keys.sqlite-wal')).length : 0).toBe(0);
    expect(fileBytes()).not.toContain(wrapped.split('.')[3]);
  });

  it('a key store reopened later still holds the keys it did not destroy', async () => {
    const { vault, keys, dir } = setup();
    const sealed = await vault.seal(who, { secret: 'secret-number-one', passphrase: null });
    await keys.close();
    const reopened = new SqliteKeyStore(join(dir, 'keys.sqlite'));
    expect(await reopened.get(sealed.keyId)).not.toBeNull();
    expect(await reopened.put(sealed.keyId, 'v1.x.y.z')).toBe(false);
    await reopened.close();
  });
});
