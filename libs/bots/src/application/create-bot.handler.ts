import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { READ_STORE, ReadStore } from '@gridrocket/read-store';
import { APP_CONFIG, AppConfig } from '@gridrocket/shared/runtime';
import { QuotaExceededError } from '@gridrocket/shared/http';
import { BOT_LIST_COLLECTION } from '../bot-list.projection';
import { BotCommandRunner, BotDecision } from './bot-command.runner';
import { CreateBotCommand } from './bot.commands';

@CommandHandler(CreateBotCommand)
export class CreateBotHandler implements ICommandHandler<CreateBotCommand, BotDecision> {
  constructor(
    private readonly runner: BotCommandRunner,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute(c: CreateBotCommand): Promise<BotDecision> {
    // Per-user quota (QUOTA_BOTS): counted on the read model, which every route waits for after its write.
    const limit = this.config.quotas.bots;
    if ((await this.reads.count(BOT_LIST_COLLECTION, { userid: c.ctx.userId })) >= limit) {
      throw new QuotaExceededError('bots', limit, 'Delete a bot you no longer need before creating another.');
    }
    return this.runner.run({ type: 'CreateBot', botId: c.botId, userId: c.ctx.userId, botType: c.botType, config: c.config }, c.ctx, c.conflict);
  }
}
