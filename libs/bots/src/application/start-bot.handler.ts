import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { BotCommandRunner, BotDecision } from './bot-command.runner';
import { StartBotCommand } from './bot.commands';

@CommandHandler(StartBotCommand)
export class StartBotHandler implements ICommandHandler<StartBotCommand, BotDecision> {
  constructor(private readonly runner: BotCommandRunner) {}

  execute(c: StartBotCommand): Promise<BotDecision> {
    return this.runner.run({ type: 'StartBot', botId: c.botId, userId: c.ctx.userId }, c.ctx, c.conflict);
  }
}
