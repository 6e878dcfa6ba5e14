import type { RecordedEvent } from '@gridrocket/event-store';
import type { Projection } from '@gridrocket/read-store';
import type { ExchangeName } from '@gridrocket/shared';
import { CredentialAddedData, CredentialPermissionsCheckedData, CREDENTIAL_STREAM_PREFIX } from './domain/credential.events';
import { KeyCheckFailure, KeyPermissionFacts, KeyWarning, keyWarnings } from './domain/key-permissions.rules';

/**
 * The credential list: what the security page shows, nothing more. It never holds a secret, a
 * passphrase, a ciphertext or a key id: only who, which exchange and the public API key.
 */
export interface CredentialDoc {
  id: string;
  userid: string;
  exchange: ExchangeName;
  apikeyid: string;
  createdat: string;
  /** The last permission check (issue 30): when, and what the venue reported (absent before the first). */
  checkedat?: string;
  permissions?: KeyPermissionFacts | null;
  checkfailure?: KeyCheckFailure | null;
}

export interface CredentialView {
  id: string;
  exchange: ExchangeName;
  apikeyid: string;
  /** Only when there is something to say (issue 30): no IP restriction, withdrawals now on, refused by the venue… */
  warnings?: KeyWarning[];
}

export const CREDENTIAL_LIST_COLLECTION = 'credentials';

export const credentialListProjection: Projection<CredentialDoc> = {
  name: 'credential-list',
  collection: CREDENTIAL_LIST_COLLECTION,
  indexes: ['userid', 'checkedat'],
  filter: { streamPrefixes: [CREDENTIAL_STREAM_PREFIX] },
  docId: (event: RecordedEvent) => event.streamId.slice(CREDENTIAL_STREAM_PREFIX.length),
  reduce(doc, event) {
    switch (event.type) {
      case 'CredentialAdded': {
        const d = event.data as CredentialAddedData;
        // Field by field on purpose: nothing else of the event may reach the read model.
        return { id: d.credentialId, userid: d.userId, exchange: d.exchange, apikeyid: d.apiKeyId, createdat: event.metadata.occurredAt };
      }
      case 'CredentialPermissionsChecked': {
        if (!doc) return undefined;
        const d = event.data as CredentialPermissionsCheckedData;
        // A failed check keeps the facts of the last good one (as the decider does).
        return { ...doc, checkedat: d.checkedAt, permissions: d.permissions ?? doc.permissions ?? null, checkfailure: d.permissions ? null : d.failure };
      }
      case 'CredentialRemoved':
        return doc ? null : undefined;
      default:
        return undefined;
    }
  },
};

/** The last facts the venue reported for the key, or null (never checked). */
export function factsOf(doc: CredentialDoc): KeyPermissionFacts | null {
  return doc.permissions ?? null;
}

/** What the key list shows; `egressIps` name the addresses to allow on an unrestricted key (EGRESS_IP). */
export function publicCredential(doc: CredentialDoc, egressIps: readonly string[] = []): CredentialView {
  const warnings = keyWarnings(doc.exchange, factsOf(doc), doc.checkfailure ?? null, egressIps);
  return { id: doc.id, exchange: doc.exchange, apikeyid: doc.apikeyid, ...(warnings.length > 0 ? { warnings } : {}) };
}
