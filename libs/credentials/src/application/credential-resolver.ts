import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, EventStore, StreamNotFoundError } from '@gridrocket/event-store';
import { READ_STORE, ReadStore } from '@gridrocket/read-store';
import { fold } from '@gridrocket/shared';
import { CREDENTIAL_LIST_COLLECTION, CredentialDoc } from '../credential-list.projection';
import { CredentialVault, ShreddedError } from '../crypto/credential-vault';
import { CredentialState, credentialDecider } from '../domain/credential.decider';
import { CredentialEvent, credentialStream } from '../domain/credential.events';
import type { ExchangeCredential, ExchangeName as PortExchangeName } from '@gridrocket/exchanges';

/**
 * The one place where a secret is decrypted: `resolveCredential(userId, exchange)`, which the
 * exchange layer calls just before it signs a request. The newest live credential of that user
 * and exchange wins. The ciphertext comes from the event log (the read model holds none); the
 * state is re-checked there, so a credential removed a moment ago is never used.
 */
@Injectable()
export class CredentialResolver {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly vault: CredentialVault,
  ) {}

  readonly resolveCredential = async (userId: string, exchange: PortExchangeName): Promise<ExchangeCredential | null> => {
    const docs = await this.reads.find<CredentialDoc>(
      CREDENTIAL_LIST_COLLECTION,
      { userid: userId, exchange },
      { orderBy: { field: 'createdat', direction: 'desc' } },
    );
    for (const doc of docs) {
      const s = await this.stateOf(doc.id);
      if (!s || !s.exists || s.removed || s.userId !== userId || s.exchange !== exchange) continue;
      const credential = await this.open(s, s.userId, s.exchange);
      if (credential) return credential;
    }
    return null;
  };

  /**
   * One stored key by id, decrypted, for the daily permission check (issue 30); null when removed, shredded
   * or unknown. Like resolveCredential, it reads the ciphertext from the event log.
   */
  async openById(credentialId: string): Promise<{ userId: string; exchange: PortExchangeName; credential: ExchangeCredential } | null> {
    const s = await this.stateOf(credentialId);
    if (!s || !s.exists || s.removed || !s.userId || !s.exchange) return null;
    const credential = await this.open(s, s.userId, s.exchange);
    return credential && { userId: s.userId, exchange: s.exchange, credential };
  }

  /** A credential's state folded from its event log; null when it has no stream. */
  private async stateOf(credentialId: string): Promise<CredentialState | null> {
    let history: CredentialEvent[];
    try {
      history = (await this.events.readStream(credentialStream(credentialId))).map((e) => ({ type: e.type, data: e.data }) as CredentialEvent);
    } catch (err) {
      if (err instanceof StreamNotFoundError) return null;
      throw err;
    }
    return fold(credentialDecider, history);
  }

  /** The key decrypted from the ciphertext in its state; null when it was shredded. */
  private async open(s: CredentialState, userId: string, exchange: PortExchangeName): Promise<ExchangeCredential | null> {
    try {
      const plain = await this.vault.open({
        credentialId: s.credentialId!,
        userId,
        exchange,
        keyId: s.keyId!,
        sealedSecret: s.sealedSecret!,
        sealedPassphrase: s.sealedPassphrase,
      });
      return { apiKey: s.apiKeyId!, secret: plain.secret, ...(plain.passphrase !== null ? { passphrase: plain.passphrase } : {}) };
    } catch (err) {
      if (err instanceof ShreddedError) return null;
      throw err;
    }
  }

  /** Whether the user has a usable credential for the exchange, without decrypting anything. */
  async has(userId: string, exchange: PortExchangeName): Promise<boolean> {
    return (await this.reads.count(CREDENTIAL_LIST_COLLECTION, { userid: userId, exchange })) > 0;
  }
}
