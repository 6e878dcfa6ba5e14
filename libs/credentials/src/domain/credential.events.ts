import type { ExchangeName } from '@gridrocket/shared';

/**
 * The events of a credential stream (`credential-<id>`). They carry only ciphertext: the secret and
 * the passphrase are sealed (AES-256-GCM) under the credential's own data key, which lives in the key
 * store (not in the log) under `keyId`. Removing the credential destroys that key.
 */
export interface CredentialAddedData {
  credentialId: string;
  userId: string;
  exchange: ExchangeName;
  /** The public API key, shown back as `apikeyid`. */
  apiKeyId: string;
  sealedSecret: string;
  sealedPassphrase: string | null;
  keyId: string;
}

export type CredentialEvent =
  | { type: 'CredentialAdded'; data: CredentialAddedData }
  | { type: 'CredentialRemoved'; data: { credentialId: string; keyId: string } };

export type CredentialEventType = CredentialEvent['type'];

export const CREDENTIAL_STREAM_PREFIX = 'credential-';
export const credentialStream = (credentialId: string) => `${CREDENTIAL_STREAM_PREFIX}${credentialId}`;
