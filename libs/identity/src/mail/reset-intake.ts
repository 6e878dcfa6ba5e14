import { Logger } from '@nestjs/common';
import type { EventStore, RecordedEvent } from '@gridrocket/event-store';
import { ReadStore, RunningReactor, startOutboxReactor } from '@gridrocket/read-store';
import { CommandContext, correlated, systemContext, toNewEvents } from '@gridrocket/shared';
import { executeCommand, loadState } from '@gridrocket/shared/runtime';
import { userDecider } from '../domain/user.decider';
import { userStream } from '../domain/user.events';
import type { LinkTokens } from '../link-tokens';
import { mailRetryDelay } from './mail-ids';

/** Every forgot-password request, known address or not: `{ uid }` is the address's keyed id (userIdForEmail). */
export const RESET_INTAKE_STREAM = 'password-reset-asks';
export const RESET_ASKED = 'PasswordResetAsked';
export const RESET_INTAKE_NAME = 'password-reset-intake';

/**
 * Records a forgot-password request before the 202 answers it (issue 31: nothing acknowledged is lost,
 * not even across a kill -9 just after the answer). The same one append for every address, known or not,
 * so neither the answer nor its timing tells whether the address has an account; the address itself is
 * not written, only its keyed id (the uid it has or would have).
 */
export async function recordResetAsk(events: EventStore, uid: string, ctx: Omit<CommandContext, 'userId'>): Promise<void> {
  await events.append(RESET_INTAKE_STREAM, toNewEvents([{ type: RESET_ASKED, data: { uid } }], { ...ctx, userId: uid }), 'any');
}

/**
 * Turns each recorded ask into the user's `PasswordResetRequested` (whose mail the outbox sends) when the
 * address has an account; an ask for an unknown address ends here. A checkpointed reactor: an ask is
 * handled again after a crash, and the decider makes that a no-op (the request carries the ask's id as its
 * `cause`, and a user whose pending reset has that cause is not asked again), so one ask is one mail.
 */
export class ResetIntake {
  private readonly logger = new Logger('Mail');
  private reactor: RunningReactor | null = null;

  constructor(
    private readonly deps: { events: EventStore; reads: ReadStore; tokens: LinkTokens; ttlSeconds: number; retryBaseMs: number; retryMaxMs: number; now?: () => number },
  ) {}

  async start(): Promise<void> {
    this.reactor = await startOutboxReactor(this.deps, RESET_INTAKE_NAME, {
      filter: { streamPrefixes: [RESET_INTAKE_STREAM], eventTypes: [RESET_ASKED] },
      handle: (event) => this.handle(event),
      retryDelay: mailRetryDelay(this.deps.retryBaseMs, this.deps.retryMaxMs),
      onError: (err, event) => this.logger.warn(correlated(`A password reset request is not handled yet, will retry: ${err.message}`, event.metadata?.correlationId)),
    });
  }

  async stop(): Promise<void> {
    await this.reactor?.stop();
    this.reactor = null;
  }

  /** One ask: public for tests. */
  async handle(event: RecordedEvent): Promise<void> {
    const uid = (event.data as { uid?: unknown }).uid;
    if (typeof uid !== 'string') return;
    const user = await loadState(this.deps.events, userStream(uid), userDecider);
    if (!user?.state.exists) return;
    const { digest, seed } = this.deps.tokens.issueSeeded();
    const now = this.deps.now?.() ?? Date.now();
    const expiresAt = new Date(now + this.deps.ttlSeconds * 1000).toISOString();
    const ctx = { ...systemContext(uid, event.id), ...(event.metadata?.correlationId ? { correlationId: event.metadata.correlationId } : {}) };
    await executeCommand(this.deps.events, userStream(uid), userDecider, { type: 'RequestPasswordReset', tokenDigest: digest, expiresAt, tokenSeed: seed, reason: 'forgot-password', cause: event.id }, ctx);
  }
}
