import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { BotCommandRunner, BotDecision } from './bot-command.runner';
import { CheckBotCommand } from './bot.commands';

@CommandHandler(CheckBotCommand)
export class CheckBotHandler implements ICommandHandler<CheckBotCommand, BotDecision> {
  constructor(private readonly runner: BotCommandRunner) {}

  execute(c: CheckBotCommand): Promise<BotDecision> {
    return this.runner.run({ type: 'CheckBot', botId: c.botId, userId: c.ctx.userId, at: c.at }, c.ctx, c.conflict);
  }
}
