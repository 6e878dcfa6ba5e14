import type { ExchangeName } from '@gridrocket/shared';
import type { KeyCheckFailure, KeyPermissionFacts } from './key-permissions.rules';

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

/**
 * What the venue reported the key may do (issue 30): when it was added (`source: 'add'`, always with
 * facts: a key that could not be checked is not added) and at each daily re-check (`'daily'`; `failure`
 * instead of facts when the venue refused the key or could not be asked, the facts of the last good check
 * then still stand). Facts only: no key, no secret.
 */
export interface CredentialPermissionsCheckedData {
  credentialId: string;
  checkedAt: string;
  source: 'add' | 'daily' | 'start';
  permissions: KeyPermissionFacts | null;
  failure: KeyCheckFailure | null;
}

export type CredentialEvent =
  | { type: 'CredentialAdded'; data: CredentialAddedData }
  | { type: 'CredentialPermissionsChecked'; data: CredentialPermissionsCheckedData }
  | { type: 'CredentialRemoved'; data: { credentialId: string; keyId: string } };

export type CredentialEventType = CredentialEvent['type'];

export const CREDENTIAL_STREAM_PREFIX = 'credential-';
export const credentialStream = (credentialId: string) => `${CREDENTIAL_STREAM_PREFIX}${credentialId}`;
