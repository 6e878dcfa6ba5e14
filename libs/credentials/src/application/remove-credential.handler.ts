import { Inject, Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EVENT_STORE, EventStore } from '@gridrocket/event-store';
import { correlated } from '@gridrocket/shared';
import { allotmentLedgerOf, executeCommand, loadState } from '@gridrocket/shared/runtime';
import { CredentialVault } from '../crypto/credential-vault';
import { credentialDecider } from '../domain/credential.decider';
import { KeyUseLedger } from './key-use.ledger';
import { credentialStream } from '../domain/credential.events';
import { EXCHANGE_PROVIDER } from '../exchange-access/exchange-provider.token';
import type { ExchangeProvider } from '@gridrocket/exchanges';
import type { CredentialDecision } from './add-credential.handler';
import { RemoveCredentialCommand } from './credential.commands';

/**
 * Records CredentialRemoved (unless an active bot signs with the key), then destroys the credential's data key (crypto-shredding) and drops
 * any exchange client built with it. Should the process stop between the two, the shredder
 * (a reactor on CredentialRemoved) destroys the key on its next pass.
 */
@CommandHandler(RemoveCredentialCommand)
export class RemoveCredentialHandler implements ICommandHandler<RemoveCredentialCommand, CredentialDecision> {
  private readonly logger = new Logger('Credentials');

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly vault: CredentialVault,
    @Inject(EXCHANGE_PROVIDER) private readonly exchanges: ExchangeProvider,
    private readonly keyUse: KeyUseLedger,
  ) {}

  async execute(c: RemoveCredentialCommand): Promise<CredentialDecision> {
    // A key that an active bot signs with is not removed (409 naming the bots, issue 29): decided on
    // the key-use stream (key-use.decider.ts), before the removal, against the bots' own streams.
    // Another user's key, or a missing one, is left to the credential's decider (404).
    const current = await loadState(this.events, credentialStream(c.credentialId), credentialDecider);
    const s = current?.state;
    const remove = { type: 'RemoveCredential' as const, credentialId: c.credentialId, userId: c.ctx.userId };
    // Issue 40: a missing key, another user's, or one in use is refused before the two-factor code is spent.
    credentialDecider.decide(remove, s ?? credentialDecider.initialState);
    if (s && s.exists && !s.removed && s.userId === c.ctx.userId && s.exchange) {
      await this.keyUse.recordRemoval(c.ctx, s.exchange, c.credentialId, c.confirm);
    } else await c.confirm();
    const decision = await executeCommand(
      this.events,
      credentialStream(c.credentialId),
      credentialDecider,
      remove,
      c.ctx,
      c.conflict,
    );
    const { keyId, userId, exchange } = decision.state;
    try {
      if (keyId) await this.vault.shred(keyId);
    } catch (err) {
      this.logger.error(correlated(`Could not destroy the data key of credential ${c.credentialId} yet (the shredder retries): ${(err as Error).name}`, c.ctx.correlationId));
    }
    if (userId && exchange) this.exchanges.forget(userId, exchange);
    // Its slot of QUOTA_KEYS is free again (should this not be written, the next add that finds the
    // limit reached reclaims it: the key is removed).
    if (decision.events.length > 0) await allotmentLedgerOf(this.events).free('keys', c.ctx, [c.credentialId], 'deleted').catch(() => undefined);
    return decision;
  }
}
