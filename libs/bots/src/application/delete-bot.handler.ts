import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EVENT_STORE, EventStore } from '@gridrocket/event-store';
import { allotmentLedgerOf } from '@gridrocket/shared/runtime';
import { BotCommandRunner, BotDecision } from './bot-command.runner';
import { DeleteBotCommand } from './bot.commands';

@CommandHandler(DeleteBotCommand)
export class DeleteBotHandler implements ICommandHandler<DeleteBotCommand, BotDecision> {
  constructor(
    private readonly runner: BotCommandRunner,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  async execute(c: DeleteBotCommand): Promise<BotDecision> {
    const decision = await this.runner.run({ type: 'DeleteBot', botId: c.botId, userId: c.ctx.userId }, c.ctx, c.conflict);
    // The deleted bot's slot of QUOTA_BOTS is free again (should this not be written, the next create
    // that finds the limit reached reclaims it: the bot is gone).
    if (decision.events.some((e) => e.type === 'BotDeleted')) {
      await allotmentLedgerOf(this.store).free('bots', c.ctx, [c.botId], 'deleted').catch(() => undefined);
    }
    return decision;
  }
}
