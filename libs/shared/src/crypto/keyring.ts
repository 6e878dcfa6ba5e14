import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const KEYRING_TOKEN = Symbol('KEYRING');

/** A sealed value: AES-256-GCM, as one printable string `v1.<keyId>.<iv>.<tag>.<ciphertext>`. */
export type Sealed = string;

/**
 * The master key and the AEAD primitives built on it. The master key comes from
 * MASTER_KEY (32 bytes, base64 or hex) or from `<dataDir>/master.key`, created
 * with mode 0600 on first run. Data keys of their own (per credential) are
 * wrapped by it; see the credentials context for crypto-shredding.
 */
export class Keyring {
  private constructor(private readonly master: Buffer, readonly keyId: string) {}

  static load(dataDir: string, masterKeyEnv = process.env.MASTER_KEY): Keyring {
    if (masterKeyEnv) return new Keyring(parseKey(masterKeyEnv), 'env');
    const file = join(dataDir, 'master.key');
    if (!existsSync(file)) {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, randomBytes(32).toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
    }
    chmodSync(file, 0o600);
    return new Keyring(parseKey(readFileSync(file, 'utf8').trim()), 'file');
  }

  static fromKey(key: Buffer): Keyring {
    if (key.length !== 32) throw new Error('A master key is 32 bytes');
    return new Keyring(key, 'raw');
  }

  /** A key for one purpose, derived from the master key (HKDF-SHA256). */
  deriveKey(purpose: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.master, Buffer.alloc(0), `gridrocket:${purpose}`, 32));
  }

  /** Seals with the master key. `aad` binds the ciphertext to its context (e.g. the user id). */
  seal(plaintext: string | Buffer, aad = ''): Sealed {
    return sealWith(this.master, plaintext, aad);
  }

  open(sealed: Sealed, aad = ''): Buffer {
    return openWith(this.master, sealed, aad);
  }

  /** A fresh data key, returned in clear (use, then drop) and wrapped by the master key (store). */
  newDataKey(aad = ''): { key: Buffer; wrapped: Sealed } {
    const key = randomBytes(32);
    return { key, wrapped: this.seal(key, `datakey:${aad}`) };
  }

  unwrapDataKey(wrapped: Sealed, aad = ''): Buffer {
    return this.open(wrapped, `datakey:${aad}`);
  }
}

export function sealWith(key: Buffer, plaintext: string | Buffer, aad = ''): Sealed {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const ct = Buffer.concat([cipher.update(typeof plaintext === 'string' ? Buffer.from(plaintext, 'utf8') : plaintext), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
}

export function openWith(key: Buffer, sealed: Sealed, aad = ''): Buffer {
  const [v, iv, tag, ct] = sealed.split('.');
  if (v !== 'v1' || !iv || !tag || ct === undefined) throw new Error('Not a sealed value');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]);
}

function parseKey(text: string): Buffer {
  const t = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(t) ? Buffer.from(t, 'hex') : Buffer.from(t, 'base64');
  if (key.length !== 32) throw new Error('MASTER_KEY must be 32 bytes, in base64 or hex');
  return key;
}
