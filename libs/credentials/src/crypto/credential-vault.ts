import { randomUUID } from 'node:crypto';
import { Keyring, openWith, sealWith } from '@gridrocket/shared/runtime';
import type { ExchangeName } from '@gridrocket/shared';
import { KeyStore } from './key-store.port';

export interface PlainSecrets {
  secret: string;
  passphrase: string | null;
}

export interface SealedSecrets {
  keyId: string;
  sealedSecret: string;
  sealedPassphrase: string | null;
}

export interface SealedCredential extends SealedSecrets {
  credentialId: string;
  userId: string;
  exchange: ExchangeName;
}

/** The additional data each ciphertext is bound to: it cannot be moved to another credential or user. */
const aad = (c: { credentialId: string; userId: string; exchange: string }, field: 'secret' | 'passphrase') =>
  `credential:${c.credentialId}:${c.userId}:${c.exchange}:${field}`;
const keyAad = (credentialId: string) => `credential:${credentialId}`;

/** The credential's ciphertext can no longer be opened: its data key was destroyed. */
export class ShreddedError extends Error {
  constructor() {
    super('The data key of this credential was destroyed');
    this.name = 'ShreddedError';
  }
}

/**
 * Envelope encryption of exchange secrets. Each credential gets a data key of its own (AES-256-GCM),
 * wrapped by the master key and kept in the key store; events carry the ciphertext only. Clear data
 * keys live only for the duration of one call and are zeroed afterwards.
 */
export class CredentialVault {
  constructor(
    private readonly keyring: Keyring,
    private readonly keys: KeyStore,
  ) {}

  /** Creates and stores the data key, then seals. The caller destroys `keyId` if it cannot record the event. */
  async seal(c: { credentialId: string; userId: string; exchange: ExchangeName }, plain: PlainSecrets): Promise<SealedSecrets> {
    const keyId = randomUUID();
    const { key, wrapped } = this.keyring.newDataKey(keyAad(c.credentialId));
    try {
      if (!(await this.keys.put(keyId, wrapped))) throw new Error('Key id collision');
      return {
        keyId,
        sealedSecret: sealWith(key, plain.secret, aad(c, 'secret')),
        sealedPassphrase: plain.passphrase === null ? null : sealWith(key, plain.passphrase, aad(c, 'passphrase')),
      };
    } finally {
      key.fill(0);
    }
  }

  /** Opens a credential's secrets; ShreddedError when its key is gone. */
  async open(c: SealedCredential): Promise<PlainSecrets> {
    const wrapped = await this.keys.get(c.keyId);
    if (!wrapped) throw new ShreddedError();
    const key = this.keyring.unwrapDataKey(wrapped, keyAad(c.credentialId));
    try {
      return {
        secret: openWith(key, c.sealedSecret, aad(c, 'secret')).toString('utf8'),
        passphrase: c.sealedPassphrase === null ? null : openWith(key, c.sealedPassphrase, aad(c, 'passphrase')).toString('utf8'),
      };
    } finally {
      key.fill(0);
    }
  }

  /** Crypto-shredding: destroys the data key; every ciphertext sealed under it is lost for good. */
  shred(keyId: string): Promise<boolean> {
    return this.keys.destroy(keyId);
  }
}
