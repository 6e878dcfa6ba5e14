import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { EVENT_STORE, EventStore } from '@gridrocket/event-store';
import { READ_STORE, ReadStore } from '@gridrocket/read-store';
import { CommandContext, ConflictError, ValidationError, fold, systemContext } from '@gridrocket/shared';
import { APP_CONFIG, AppConfig, executeCommand } from '@gridrocket/shared/runtime';
import { BadApiKeyError, ExchangeNotSupportedError } from '@gridrocket/exchanges';
import type { ExchangeCredential, ExchangeProvider, ExchangeName as PortExchangeName } from '@gridrocket/exchanges';
import { accountOf } from '@gridrocket/exchanges/venues';
import { CREDENTIAL_LIST_COLLECTION, CredentialDoc, factsOf } from '../credential-list.projection';
import { credentialDecider } from '../domain/credential.decider';
import { CredentialEvent, credentialStream } from '../domain/credential.events';
import { BotMarket, KeyCheckFailure, KeyPermissionFacts, botStartRefusal } from '../domain/key-permissions.rules';
import { BadGatewayError, ExchangeUnavailableError, toHttpAppError } from '../exchange-access/exchange-http-errors';
import { EXCHANGE_PROVIDER } from '../exchange-access/exchange-provider.token';
import { CredentialResolver } from './credential-resolver';

/** The venue's own spelling in texts ("KuCoin"): its account in the venue registry. */
const venueName = (exchange: PortExchangeName) => accountOf(exchange).displayName;

/** Keys asked per run of the daily re-check, and at most this many at once (bounded: one venue call each). */
export const RECHECK_BATCH = 100;
export const RECHECK_CONCURRENCY = 2;
/** How often the scheduler looks for keys whose last check is older than KEY_RECHECK_HOURS. */
export const RECHECK_TICK_MS = 15 * 60_000;

/**
 * Asks the venue what a key may do (issue 30): when it is added (AddCredentialHandler), every
 * KEY_RECHECK_HOURS for stored keys (a timer off the request thread, a bounded batch per run, the result an
 * event on the key's stream), and before a bot starts with a key whose last check blocks it (it may have
 * been fixed on the venue since). Rules: domain/key-permissions.rules.ts; endpoints: docs/exchanges.md.
 */
@Injectable()
export class KeyPermissionChecks implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('KeyPermissionChecks');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    @Inject(EXCHANGE_PROVIDER) private readonly exchanges: ExchangeProvider,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly resolver: CredentialResolver,
  ) {}

  /**
   * The venue's answer for a key being added, or the 4xx/5xx that says why it cannot be added: the venue
   * refused the key (400 on apiKey), could not be asked (503, 429), or answered in a shape we do not know (502).
   */
  async forNewKey(exchange: PortExchangeName, credential: ExchangeCredential): Promise<KeyPermissionFacts> {
    if (!this.exchanges.keyPermissions) throw new ExchangeUnavailableError(`GridRocket cannot ask ${venueName(exchange)} what this key may do right now; try again later.`);
    try {
      return await this.exchanges.keyPermissions(exchange, credential);
    } catch (err) {
      if (err instanceof BadApiKeyError) {
        const where = this.config.keyChecks.egressIps.length > 0 ? this.config.keyChecks.egressIps.join(', ') : "this GridRocket server's address";
        const message = `${venueName(exchange)} refused this key: check the API key, the secret${accountOf(exchange).passphrase ? ' and the passphrase' : ''}, and, if the key is restricted to IP addresses, that it allows ${where}.`;
        throw new ValidationError([{ field: 'apiKey', message }], message);
      }
      if (err instanceof ExchangeNotSupportedError) throw new BadGatewayError(`GridRocket could not read ${venueName(exchange)}'s answer about what this key may do, so the key was not added. Try again later.`);
      throw toHttpAppError(err);
    }
  }

  /** A stored key's check: facts, or why there are none. Never throws for a venue's answer. */
  private async ask(exchange: PortExchangeName, credential: ExchangeCredential): Promise<{ permissions: KeyPermissionFacts | null; failure: KeyCheckFailure | null }> {
    if (!this.exchanges.keyPermissions) return { permissions: null, failure: 'unreachable' };
    try {
      return { permissions: await this.exchanges.keyPermissions(exchange, credential), failure: null };
    } catch (err) {
      // refused: the venue does not take the key any more; anything else (down, rate limit, an answer we
      // cannot read) says nothing about the key: 'unreachable', the last facts stand
      return { permissions: null, failure: err instanceof BadApiKeyError ? 'refused' : 'unreachable' };
    }
  }

  /** Asks again for one stored key and records the answer on its stream; false when the key is gone. */
  async recheck(credentialId: string, source: 'daily' | 'start', ctx?: CommandContext): Promise<boolean> {
    const opened = await this.resolver.openById(credentialId);
    if (!opened) return false;
    const answer = await this.ask(opened.exchange, opened.credential);
    const context = ctx ?? systemContext(opened.userId);
    const checkedAt = (context.now ?? new Date()).toISOString();
    await executeCommand(
      this.events,
      credentialStream(credentialId),
      credentialDecider,
      { type: 'RecordPermissionCheck', credentialId, checkedAt, source, permissions: answer.permissions, failure: answer.failure },
      { ...context, fence: null },
      { onConflict: 'redecide', maxAttempts: 5 },
    );
    return true;
  }

  /**
   * One run of the daily re-check: the keys whose last check is older than KEY_RECHECK_HOURS (or never
   * checked), oldest first, at most RECHECK_BATCH, RECHECK_CONCURRENCY at a time. Returns how many were asked.
   * A run already under way is joined, not doubled.
   */
  runOnce(now = new Date()): Promise<number> {
    this.running ??= this.run(now).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async run(now: Date): Promise<number> {
    const due = now.getTime() - this.config.keyChecks.recheckHours * 3_600_000;
    // oldest check first (never checked first of all), one bounded page: the read is bounded too
    const docs = await this.reads.find<CredentialDoc>(CREDENTIAL_LIST_COLLECTION, {}, { orderBy: { field: 'checkedat', direction: 'asc' }, limit: RECHECK_BATCH });
    const stale = docs.filter((d) => !d.checkedat || Date.parse(d.checkedat) <= due);
    let asked = 0;
    for (let i = 0; i < stale.length; i += RECHECK_CONCURRENCY) {
      await Promise.all(
        stale.slice(i, i + RECHECK_CONCURRENCY).map(async (d) => {
          try {
            if (await this.recheck(d.id, 'daily', { ...systemContext(d.userid), now })) asked++;
          } catch (err) {
            this.logger.warn(`Could not re-check the permissions of key ${d.id}: ${(err as Error).name}`);
          }
        }),
      );
    }
    return asked;
  }

  /**
   * Before a bot of `market` starts (from the dashboard, the API or a signal): the key it will sign with
   * (the newest of the exchange) must not be able to withdraw and must trade that market (409 otherwise).
   * The venue is asked at every start, whatever the last check said (issue 38: a key made withdraw-capable
   * on the venue after its last check started bots until the next daily check); the answer is recorded on
   * the key's stream (`source: 'start'`). One call per start (Binance `GET /sapi/v1/account/apiRestrictions`,
   * weight 1; KuCoin `GET /api/v1/user/api-key`: docs/exchanges.md). When the venue cannot be asked, the last
   * check decides.
   */
  async assertUsableFor(ctx: CommandContext, exchange: PortExchangeName, market: BotMarket): Promise<void> {
    const [doc] = await this.reads.find<CredentialDoc>(CREDENTIAL_LIST_COLLECTION, { userid: ctx.userId, exchange }, { orderBy: { field: 'createdat', direction: 'desc' }, limit: 1 });
    if (!doc) return; // no key: the start's own check answers (409 "No API key")
    let refusal: string | null;
    try {
      await this.recheck(doc.id, 'start', ctx);
      const fresh = await this.resolverState(doc.id);
      refusal = botStartRefusal(exchange, market, fresh);
    } catch {
      refusal = botStartRefusal(exchange, market, factsOf(doc));
    }
    if (refusal) throw new ConflictError(refusal);
  }

  private async resolverState(credentialId: string): Promise<KeyPermissionFacts | null> {
    const history = (await this.events.readStream(credentialStream(credentialId))).map((e) => ({ type: e.type, data: e.data }) as CredentialEvent);
    return fold(credentialDecider, history).permissions;
  }

  onApplicationBootstrap() {
    if (!this.config.projections) return;
    this.timer = setInterval(() => {
      this.runOnce().catch((err) => this.logger.warn(`Key permission re-check failed: ${(err as Error).name}`));
    }, RECHECK_TICK_MS);
    this.timer.unref();
  }

  async beforeApplicationShutdown() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }
}
