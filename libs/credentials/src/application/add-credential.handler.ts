import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EVENT_STORE, EventStore } from '@gridrocket/event-store';
import { DecisionResult, executeCommand } from '@gridrocket/shared/runtime';
import { CredentialVault } from '../crypto/credential-vault';
import { CredentialState, credentialDecider } from '../domain/credential.decider';
import { CredentialEvent, credentialStream } from '../domain/credential.events';
import { AddCredentialCommand } from './credential.commands';

export type CredentialDecision = DecisionResult<CredentialState, CredentialEvent>;

/**
 * Seals the secret and passphrase under a fresh data key, then records CredentialAdded with the
 * ciphertext only. If the event cannot be recorded, the new data key is destroyed again.
 */
@CommandHandler(AddCredentialCommand)
export class AddCredentialHandler implements ICommandHandler<AddCredentialCommand, CredentialDecision> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly vault: CredentialVault,
  ) {}

  async execute(c: AddCredentialCommand): Promise<CredentialDecision> {
    const who = { credentialId: c.credentialId, userId: c.ctx.userId, exchange: c.exchange };
    const sealed = await this.vault.seal(who, { secret: c.secret.reveal(), passphrase: c.passphrase?.reveal() ?? null });
    try {
      return await executeCommand(
        this.events,
        credentialStream(c.credentialId),
        credentialDecider,
        { type: 'AddCredential', data: { ...who, apiKeyId: c.apiKeyId, ...sealed } },
        c.ctx,
        c.conflict,
      );
    } catch (err) {
      await this.vault.shred(sealed.keyId).catch(() => undefined);
      throw err;
    }
  }
}
