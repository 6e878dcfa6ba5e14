import { Inject, Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { EVENT_STORE, EventStore } from '@gridrocket/event-store';
import { AppError, CommandContext, NotFoundError, TooManyRequestsError } from '@gridrocket/shared';
import { loadState } from '@gridrocket/shared/runtime';
import { StartBotCommand, StopBotCommand } from '../application/bot.commands';
import type { BotDecision } from '../application/bot-command.runner';
import { PositionHeldError, heldPosition } from '../domain/bot.decider';
import { decideOnSignalLog } from './signal-log.repository';
import { SignalRateLimiter } from './signal-rate.limiter';
import { SignalSecrets } from './signal-secrets';
import { signalSettingsDecider } from './signal-settings.decider';
import { SignalAction, signalSettingsStream } from './signal.events';
import { SIGNAL_JUNK_PER_MINUTE, SIGNAL_REQUESTS_PER_MINUTE, SignalHeaders, SignalRefusal, assertAuthentic, assertFresh, readSignalRequest, signatureDigest } from './signal.rules';

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Whether the bot a start was decided on held a position (its new run began from one it carries). */
function heldBefore(decision: BotDecision): boolean {
  const s = decision.state;
  if (s.kind !== 'live') return false;
  const run = s.trading.runs[s.trading.runs.length - 1];
  return !!run && !run.dropPosition && heldPosition(s).amount > 0;
}

/** The 404 of a bot without a signal webhook (unknown, another's or switched off alike: nothing is said). */
export const NO_SIGNAL_WEBHOOK = 'No signal webhook here';
/** Who the refusals are recorded as: the sender proved nothing. */
export const SIGNAL_SENDER_UNKNOWN = 'anonymous';

export interface SignalAnswer {
  id: string;
  action: SignalAction;
  /** `requested`: the start or stop was recorded; `unchanged`: the bot was already so. */
  outcome: 'requested' | 'unchanged';
  state: string;
  /** Issue 40: what a start did with the position the bot held (absent when it held none or nothing started). */
  heldPosition?: 'kept' | 'sold-first';
  position: bigint | null;
}

/**
 * Receives a signal (POST /api/signals/{botId}, issue 32): bounded per bot (SignalRateLimiter), checked
 * (form, then the secret, then the time, then the id: signal.rules.ts, signal-log.decider.ts), then
 * the start or stop goes through the bot's own commands as its owner, so every check of a start from
 * the dashboard applies (no key, a key that can withdraw, a position not confirmed, a stop in progress).
 * Each refusal is recorded in the bot's history within the cap, and each taken signal with what it did.
 */
@Injectable()
export class SignalReceiver {
  private readonly log = new Logger('signals');
  /** The owner's budget: signals taken (authentic, fresh, new), per bot per minute. */
  readonly limiter = new SignalRateLimiter(SIGNAL_REQUESTS_PER_MINUTE);
  /** Everything refused, per bot per minute, apart from the owner's budget (issue 38, break 5). */
  readonly junk = new SignalRateLimiter(SIGNAL_JUNK_PER_MINUTE);

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly commands: CommandBus,
    private readonly secrets: SignalSecrets,
  ) {}

  async receive(botIdParam: string, headers: SignalHeaders, raw: Buffer, contentType: string | undefined, correlationId: string, now = Date.now()): Promise<SignalAnswer> {
    const key = String(botIdParam).slice(0, 64).toLowerCase();
    const junk = () => new TooManyRequestsError(this.junk.retryAfter(key, now), `Too many refused signals for this bot: at most ${SIGNAL_JUNK_PER_MINUTE} a minute are answered`);
    if (!ID.test(key)) {
      if (!this.junk.take(key, now)) throw junk();
      throw new NotFoundError(NO_SIGNAL_WEBHOOK);
    }
    const botId = key;
    const settings = (await loadState(this.events, signalSettingsStream(botId), signalSettingsDecider))?.state;
    if (!settings?.enabled || !settings.sealedSecret || !settings.userId) {
      if (!this.junk.take(key, now)) throw junk();
      throw new NotFoundError(NO_SIGNAL_WEBHOOK);
    }
    const owner = settings.userId;
    const senderCtx: CommandContext = { userId: owner, correlationId, causationId: null };
    let request;
    // What proves the owner's secret is counted in the owner's budget only when it is taken; every
    // refusal (malformed, unsigned, badly signed, stale, a replay) in the junk count, apart: a flood of
    // junk never makes a signed signal wait (issue 38: 30 unsigned requests a minute blocked the owner).
    let budgetTaken = false;
    try {
      request = readSignalRequest(headers, raw, contentType);
      const secret = this.secrets.open(botId, owner, settings.generation, settings.sealedSecret);
      assertAuthentic(request, raw, secret, settings.allowBodySecret);
      assertFresh(request, now);
      if (!this.limiter.take(botId, now)) throw new TooManyRequestsError(this.limiter.retryAfter(botId, now), `Too many signals for this bot: at most ${SIGNAL_REQUESTS_PER_MINUTE} a minute`);
      budgetTaken = true;
      const { signalId, action, auth, signedAt } = request;
      // a copy of a signed request is refused whatever id it carries: the signature is remembered too
      const signature = signatureDigest(request);
      await decideOnSignalLog(this.events, botId, { type: 'TakeSignal', botId, signalId, action, auth, signedAt, at: now, ...(signature ? { signature } : {}) }, senderCtx, now);
    } catch (err) {
      if (err instanceof SignalRefusal) {
        if (budgetTaken) this.limiter.giveBack(botId); // a replay is not the owner's signal
        if (!this.junk.take(botId, now)) throw junk(); // over the junk count: answered, not recorded
        await this.recordRefusal(botId, err, correlationId, now);
      }
      throw err;
    }
    // The bot's own command, as its owner: every check of the dashboard's start and stop applies. A bot
    // that holds a position is started as the owner's standing choice says (issue 40): refused (409, as a
    // start from the dashboard without confirmation), started with it, or after selling it at market.
    const ownerCtx: CommandContext = { userId: owner, correlationId, causationId: null };
    const { signalId, action } = request;
    const choice = settings.heldPosition;
    let decision: BotDecision;
    try {
      decision = await this.commands.execute(
        action === 'start' ? new StartBotCommand(ownerCtx, botId, choice === 'resume', choice === 'sell') : new StopBotCommand(ownerCtx, botId, request.cancelAllOrders),
      );
    } catch (err) {
      if (err instanceof AppError) {
        const held = err instanceof PositionHeldError ? { refusal: 'position-held' as const } : {};
        await this.recordOutcome(botId, { signalId, action, outcome: 'refused', status: err.status, reason: err.message, ...held }, ownerCtx, now);
      }
      throw err;
    }
    const outcome = decision.events.length > 0 ? 'requested' : 'unchanged';
    const heldPosition = action !== 'start' ? undefined : decision.events.some((e) => e.type === 'BotStopRequested') ? 'sold-first' : choice === 'resume' && outcome === 'requested' && heldBefore(decision) ? 'kept' : undefined;
    const recorded = await this.recordOutcome(botId, { signalId, action, outcome, status: 202, reason: null, ...(heldPosition ? { position: heldPosition } : {}) }, ownerCtx, now);
    return { id: signalId, action, outcome, state: decision.state.kind === 'live' ? decision.state.status : 'deleted', ...(heldPosition ? { heldPosition } : {}), position: recorded ?? decision.position };
  }

  private async recordOutcome(
    botId: string,
    o: { signalId: string; action: SignalAction; outcome: 'requested' | 'unchanged' | 'refused'; status: number; reason: string | null; position?: 'kept' | 'sold-first'; refusal?: 'position-held' },
    ctx: CommandContext,
    now: number,
  ): Promise<bigint | null> {
    try {
      return (await decideOnSignalLog(this.events, botId, { type: 'RecordSignalOutcome', botId, ...o }, ctx, now)).position;
    } catch (err) {
      this.log.warn(`could not record the outcome of signal ${o.signalId} of bot ${botId}: ${(err as Error).message}`);
      return null;
    }
  }

  /**
   * Records a refusal in the bot's history, unless the bot's log already holds SIGNAL_REFUSALS_PER_WINDOW
   * of them this minute: then it is counted, and the count goes with the next one recorded.
   */
  private async recordRefusal(botId: string, refusal: SignalRefusal, correlationId: string, now: number): Promise<void> {
    const suppressed = this.junk.takeSuppressed(botId);
    try {
      const r = await decideOnSignalLog(
        this.events,
        botId,
        { type: 'RecordSignalRefusal', botId, reason: refusal.reason, status: refusal.status, message: refusal.message, signalId: refusal.signalId, suppressed, at: now },
        { userId: SIGNAL_SENDER_UNKNOWN, correlationId, causationId: null },
        now,
      );
      if (r.events.length > 0) return;
    } catch (err) {
      this.log.warn(`could not record a refused signal of bot ${botId}: ${(err as Error).message}`);
    }
    this.junk.restoreSuppressed(botId, suppressed);
    this.junk.suppress(botId);
  }
}
