import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, EventStore } from '@gridrocket/event-store';
import { READ_STORE, ReadStore } from '@gridrocket/read-store';
import { CommandContext, PreconditionFailedError } from '@gridrocket/shared';
import { executeCommand, loadState } from '@gridrocket/shared/runtime';
import { CREDENTIAL_LIST_COLLECTION, CredentialDoc } from '../credential-list.projection';
import { KeyClaim, KeyUser, decideKeyUse, keyUseDecider, keyUseStream, usableKeys } from '../domain/key-use.decider';

/**
 * Which of these claims belong to bots that are still active, read from the bots' own streams (not a
 * read model) when a removal is decided. The bots context registers it (it knows what "active" is).
 */
export type ActiveBotCheck = (claims: readonly KeyClaim[], now: Date) => Promise<KeyUser[]>;

/** Many starts at once all append to one stream: decide again that many times if need be. */
const CLAIM_CONFLICT = { onConflict: 'redecide', maxAttempts: 200 } as const;

/**
 * The key-use stream's two writers (key-use.decider.ts): a bot's start claims its exchange's key, a
 * key's removal is decided against the claims of the bots still active. The removal's inputs (which
 * bots are active) are read for the revision it decides on, and its append expects that revision: a
 * start that claimed meanwhile makes it decide again, with that bot counted.
 */
@Injectable()
export class KeyUseLedger {
  private activeBots: ActiveBotCheck | null = null;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
  ) {}

  setActiveBotCheck(check: ActiveBotCheck): void {
    this.activeBots = check;
  }

  /** The user's keys of the exchange, newest first (the first is the one bots sign with). */
  private async liveKeyIds(userId: string, exchange: string): Promise<string[]> {
    const docs = await this.reads.find<CredentialDoc>(CREDENTIAL_LIST_COLLECTION, { userid: userId, exchange }, { orderBy: { field: 'createdat', direction: 'desc' } });
    return docs.map((d) => d.id);
  }

  /** A start claims the key; refused (409 `refusal`) when every key of the exchange is being removed. */
  async claim(ctx: CommandContext, exchange: string, botId: string, botRevision: number, refusal: string): Promise<void> {
    const liveCredentialIds = await this.liveKeyIds(ctx.userId, exchange);
    const at = (ctx.now ?? new Date()).toISOString();
    await executeCommand(this.events, keyUseStream(ctx.userId, exchange), keyUseDecider, { type: 'ClaimKey', botId, botRevision, at, liveCredentialIds, refusal }, { ...ctx, fence: null }, CLAIM_CONFLICT);
  }

  /**
   * Records that `credentialId` is being removed, or refuses (409 naming the bots) while active bots sign
   * with it. `confirm` (the fresh two-factor code, issue 40) runs once the removal is decided and before
   * it is appended, so a refusal spends no code.
   */
  async recordRemoval(ctx: CommandContext, exchange: string, credentialId: string, confirm: () => Promise<void> = async () => undefined): Promise<void> {
    const stream = keyUseStream(ctx.userId, exchange);
    let confirmed = false;
    for (let attempt = 1; ; attempt++) {
      const loaded = await loadState(this.events, stream, keyUseDecider);
      const state = loaded?.state ?? keyUseDecider.initialState;
      const usable = usableKeys(state, await this.liveKeyIds(ctx.userId, exchange));
      const inUse = usable[0] === credentialId;
      let active: KeyUser[] = [];
      if (state.claims.size > 0) {
        if (!this.activeBots) throw new Error('No active-bot check is registered: a key removal cannot be decided');
        active = await this.activeBots([...state.claims.values()], ctx.now ?? new Date());
      }
      const command = { type: 'RemoveKey' as const, credentialId, inUse, active };
      if (!confirmed) {
        decideKeyUse(command, state); // the refusal, before the code
        await confirm();
        confirmed = true;
      }
      try {
        await executeCommand(this.events, stream, keyUseDecider, command, { ...ctx, fence: null }, {
          onConflict: 'reject',
          expectedRevisions: loaded ? [loaded.revision] : [],
        });
        return;
      } catch (err) {
        if (!(err instanceof PreconditionFailedError) || attempt >= 200) throw err;
      }
    }
  }
}
