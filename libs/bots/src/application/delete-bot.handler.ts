import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { BotCommandRunner, BotDecision } from './bot-command.runner';
import { DeleteBotCommand } from './bot.commands';

@CommandHandler(DeleteBotCommand)
export class DeleteBotHandler implements ICommandHandler<DeleteBotCommand, BotDecision> {
  constructor(private readonly runner: BotCommandRunner) {}

  execute(c: DeleteBotCommand): Promise<BotDecision> {
    return this.runner.run({ type: 'DeleteBot', botId: c.botId, userId: c.ctx.userId }, c.ctx, c.conflict);
  }
}
