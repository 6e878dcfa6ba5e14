import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { BotCommand } from '../domain/bot.decider';
import { BotCommandRunner, BotDecision } from './bot-command.runner';
import { ReportBotLifecycleCommand } from './bot.commands';

/** The runner's reports (started, start failed, stopped, failed) become lifecycle events. */
@CommandHandler(ReportBotLifecycleCommand)
export class ReportBotLifecycleHandler implements ICommandHandler<ReportBotLifecycleCommand, BotDecision> {
  constructor(private readonly runner: BotCommandRunner) {}

  execute(c: ReportBotLifecycleCommand): Promise<BotDecision> {
    return this.runner.run({ ...c.report, botId: c.botId } as BotCommand, c.ctx);
  }
}
