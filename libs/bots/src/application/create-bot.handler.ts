import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { BotCommandRunner, BotDecision } from './bot-command.runner';
import { CreateBotCommand } from './bot.commands';

@CommandHandler(CreateBotCommand)
export class CreateBotHandler implements ICommandHandler<CreateBotCommand, BotDecision> {
  constructor(private readonly runner: BotCommandRunner) {}

  execute(c: CreateBotCommand): Promise<BotDecision> {
    return this.runner.run({ type: 'CreateBot', botId: c.botId, userId: c.ctx.userId, botType: c.botType, config: c.config }, c.ctx, c.conflict);
  }
}
