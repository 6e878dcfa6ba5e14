import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { BotCommandRunner, BotDecision } from './bot-command.runner';
import { StopBotCommand } from './bot.commands';

@CommandHandler(StopBotCommand)
export class StopBotHandler implements ICommandHandler<StopBotCommand, BotDecision> {
  constructor(private readonly runner: BotCommandRunner) {}

  execute(c: StopBotCommand): Promise<BotDecision> {
    return this.runner.run({ type: 'StopBot', botId: c.botId, userId: c.ctx.userId, cancelAllOrders: c.cancelAllOrders, closePosition: c.closePosition }, c.ctx, c.conflict);
  }
}
