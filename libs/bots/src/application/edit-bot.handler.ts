import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { BotCommandRunner, BotDecision } from './bot-command.runner';
import { EditBotCommand } from './bot.commands';

@CommandHandler(EditBotCommand)
export class EditBotHandler implements ICommandHandler<EditBotCommand, BotDecision> {
  constructor(private readonly runner: BotCommandRunner) {}

  execute(c: EditBotCommand): Promise<BotDecision> {
    return this.runner.run({ type: 'EditBot', botId: c.botId, userId: c.ctx.userId, config: c.config }, c.ctx, c.conflict);
  }
}
