import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CredentialResolver, KeyPermissionChecks, KeyUseLedger } from '@gridrocket/credentials/nest';
import { EVENT_STORE, EventStore } from '@gridrocket/event-store';
import { loadState } from '@gridrocket/shared/runtime';
import { botDecider, decideBot } from '../domain/bot.decider';
import { botStream } from '../domain/bot.events';
import { READ_STORE, ReadStore } from '@gridrocket/read-store';
import { ConflictError } from '@gridrocket/shared';
import { BOT_LIST_COLLECTION, BotDoc } from '../bot-list.projection';
import { BotCommandRunner, BotDecision } from './bot-command.runner';
import { StartBotCommand } from './bot.commands';
import { CapacityCheck } from './capacity-check';

/** The reason a start is refused when the owner has no API key for the bot's exchange. */
export const noKeyReason = (exchange: string) =>
  `No API key for ${exchange}: add one on the Security page before starting a bot (in paper mode the key opens the paper exchange, its sandbox).`;

/**
 * Starts a bot, but only for an owner who has an API key for the bot's exchange: paper mode too,
 * as on the real venues' sandboxes. The refusal is a 409 with the reason; nothing is appended.
 * Bots of other users and unknown ids fall through to the decider, which answers 404. A bot that holds
 * a position starts only with `confirmPosition` (the decider's 409 says what it holds). A start that
 * would pass a venue limit is a 409 with the numbers (issue 39, CapacityCheck).
 */
@CommandHandler(StartBotCommand)
export class StartBotHandler implements ICommandHandler<StartBotCommand, BotDecision> {
  constructor(
    private readonly runner: BotCommandRunner,
    private readonly credentials: CredentialResolver,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly keyUse: KeyUseLedger,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly keyChecks: KeyPermissionChecks,
    private readonly capacity: CapacityCheck,
  ) {}

  async execute(c: StartBotCommand): Promise<BotDecision> {
    const doc = await this.reads.get<BotDoc>(BOT_LIST_COLLECTION, c.botId);
    const exchange = doc?.s.config?.exchange;
    if (doc && doc.userid === c.ctx.userId && exchange && !(await this.credentials.has(c.ctx.userId, exchange))) {
      throw new ConflictError(noKeyReason(exchange));
    }
    const command = { type: 'StartBot' as const, botId: c.botId, userId: c.ctx.userId, confirmPosition: c.confirmPosition, ...(c.sellPositionFirst ? { sellPositionFirst: true } : {}) };
    // The start claims the exchange's key on its key-use stream first (issue 29): a removal of the key
    // decided meanwhile either sees this bot or made this claim fail (no key left: 409).
    const bot = (await loadState(this.events, botStream(c.botId), botDecider))?.state;
    if (bot && bot.kind === 'live' && bot.userId === c.ctx.userId && bot.status === 'stopped') {
      // A start the decider refuses on this state (a position not confirmed) claims nothing: such a
      // claim would block deleting the key for CLAIM_GRACE_MS although no start is under way.
      decideBot(command, bot);
      // Issue 39: no start that would pass a venue limit (open orders per symbol, order-count windows, the
      // install's weight budget): 409 with the numbers (domain/capacity.ts), nothing appended.
      const { refusal } = await this.capacity.answer(c.ctx.userId, { exchange: bot.config.exchange, botType: bot.botType, symbol: bot.config.symbol, bot: bot.config, botId: c.botId });
      if (refusal) throw new ConflictError(refusal);
      // Issue 30: no start with a key that can now withdraw or cannot trade this bot's market (409 saying which).
      await this.keyChecks.assertUsableFor(c.ctx, bot.config.exchange, bot.botType === 'Futures' ? 'futures' : 'spot');
      await this.keyUse.claim(c.ctx, bot.config.exchange, c.botId, bot.version, noKeyReason(bot.config.exchange));
    }
    return this.runner.run(command, c.ctx, c.conflict);
  }
}
