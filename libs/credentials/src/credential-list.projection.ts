import type { RecordedEvent } from '@gridrocket/event-store';
import type { Projection } from '@gridrocket/read-store';
import type { ExchangeName } from '@gridrocket/shared';
import { CredentialAddedData, CREDENTIAL_STREAM_PREFIX } from './domain/credential.events';

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
}

export interface CredentialView {
  id: string;
  exchange: ExchangeName;
  apikeyid: string;
}

export const CREDENTIAL_LIST_COLLECTION = 'credentials';

export const credentialListProjection: Projection<CredentialDoc> = {
  name: 'credential-list',
  collection: CREDENTIAL_LIST_COLLECTION,
  indexes: ['userid'],
  filter: { streamPrefixes: [CREDENTIAL_STREAM_PREFIX] },
  docId: (event: RecordedEvent) => event.streamId.slice(CREDENTIAL_STREAM_PREFIX.length),
  reduce(doc, event) {
    switch (event.type) {
      case 'CredentialAdded': {
        const d = event.data as CredentialAddedData;
        // Field by field on purpose: nothing else of the event may reach the read model.
        return { id: d.credentialId, userid: d.userId, exchange: d.exchange, apikeyid: d.apiKeyId, createdat: event.metadata.occurredAt };
      }
      case 'CredentialRemoved':
        return doc ? null : undefined;
      default:
        return undefined;
    }
  },
};

export function publicCredential(doc: CredentialDoc): CredentialView {
  return { id: doc.id, exchange: doc.exchange, apikeyid: doc.apikeyid };
}
