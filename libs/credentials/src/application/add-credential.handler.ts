import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EVENT_STORE, EventStore } from '@gridrocket/event-store';
import { READ_STORE, ReadStore } from '@gridrocket/read-store';
import { APP_CONFIG, AppConfig, DecisionResult, allotmentLedgerOf, executeCommand, loadState } from '@gridrocket/shared/runtime';
import { CREDENTIAL_LIST_COLLECTION, CredentialDoc } from '../credential-list.projection';
import { CredentialVault } from '../crypto/credential-vault';
import { CredentialState, credentialDecider } from '../domain/credential.decider';
import { CredentialEvent, credentialStream } from '../domain/credential.events';
import { AddCredentialCommand } from './credential.commands';
import { KeyPermissionChecks } from './key-permission-checks';
import { keyRefusal } from '../domain/key-permissions.rules';
import { ValidationError } from '@gridrocket/shared';

export type CredentialDecision = DecisionResult<CredentialState, CredentialEvent>;

/**
 * Seals the secret and passphrase under a fresh data key, then records CredentialAdded with the
 * ciphertext only. If the event cannot be recorded, the new data key is destroyed again.
 * Per-user quota (QUOTA_KEYS), issue 28: the key first takes a slot of the user's allotment on the
 * event store (`quota-<uid>-keys`, appended with its expected revision), so adds at once cannot pass
 * the limit together; an add that fails frees the slot it took.
 * Keys that cannot withdraw (issue 30): before anything is stored, the venue is asked with the key what it
 * may do; the decider refuses a key that can withdraw, cannot trade or cannot read, and records the answer.
 * With two-factor sign-in on, the command's `confirm` (the fresh code) runs after those refusals and the
 * quota, before the key is sealed and recorded (issue 40).
 */
@CommandHandler(AddCredentialCommand)
export class AddCredentialHandler implements ICommandHandler<AddCredentialCommand, CredentialDecision> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly vault: CredentialVault,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly checks: KeyPermissionChecks,
  ) {}

  async execute(c: AddCredentialCommand): Promise<CredentialDecision> {
    const userId = c.ctx.userId;
    const permissions = await this.checks.forNewKey(c.exchange, {
      apiKey: c.apiKeyId,
      secret: c.secret.reveal(),
      ...(c.passphrase ? { passphrase: c.passphrase.reveal() } : {}),
    });
    const checkedAt = (c.ctx.now ?? new Date()).toISOString();
    // Refused before a slot is taken or a data key made (the decider says the same when it decides).
    const refusal = keyRefusal(c.exchange, permissions);
    if (refusal) throw new ValidationError([{ field: 'apiKey', message: refusal }], refusal);
    const ledger = allotmentLedgerOf(this.events);
    const { taken } = await ledger.take('keys', c.ctx, c.credentialId, this.config.quotas.keys, {
      seed: async () => (await this.reads.find<CredentialDoc>(CREDENTIAL_LIST_COLLECTION, { userid: userId })).map((k) => k.id),
      isGone: async (id) => {
        const key = await loadState(this.events, credentialStream(id), credentialDecider);
        return !key || key.state.removed;
      },
    });
    const who = { credentialId: c.credentialId, userId, exchange: c.exchange };
    let sealed;
    try {
      // Issue 40: the key is refused (permissions, quota) before the two-factor code is spent; the slot
      // taken is given back when the code is refused.
      await c.confirm();
      sealed = await this.vault.seal(who, { secret: c.secret.reveal(), passphrase: c.passphrase?.reveal() ?? null });
    } catch (err) {
      if (taken) await ledger.free('keys', c.ctx, [c.credentialId], 'failed').catch(() => undefined);
      throw err;
    }
    try {
      return await executeCommand(
        this.events,
        credentialStream(c.credentialId),
        credentialDecider,
        { type: 'AddCredential', data: { ...who, apiKeyId: c.apiKeyId, ...sealed }, permissions, checkedAt },
        c.ctx,
        c.conflict,
      );
    } catch (err) {
      await this.vault.shred(sealed.keyId).catch(() => undefined);
      if (taken) await ledger.free('keys', c.ctx, [c.credentialId], 'failed').catch(() => undefined);
      throw err;
    }
  }
}
