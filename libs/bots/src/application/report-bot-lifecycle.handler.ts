import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import type { LifecycleReport } from '../domain/bot.decider';
import { BotCommandRunner, BotDecision } from './bot-command.runner';
import { ReportBotLifecycleCommand, RunnerReport } from './bot.commands';

/** The runner's report as the decider's command. */
export function lifecycleCommand(botId: string, report: RunnerReport): LifecycleReport {
  switch (report.type) {
    case 'MarkStarted':
    case 'MarkResumed':
      return { type: report.type, botId, pid: report.pid };
    case 'MarkStartFailed':
    case 'MarkFailed':
      return { type: report.type, botId, reason: report.reason };
    case 'MarkStopped':
      return { type: 'MarkStopped', botId };
    case 'MarkChecked':
      return { type: 'MarkChecked', botId, requestedAt: report.requestedAt, found: report.found, at: report.at };
  }
}

/** The runner's reports (started, resumed, start failed, stopped, failed) become lifecycle events. */
@CommandHandler(ReportBotLifecycleCommand)
export class ReportBotLifecycleHandler implements ICommandHandler<ReportBotLifecycleCommand, BotDecision> {
  constructor(private readonly runner: BotCommandRunner) {}

  execute(c: ReportBotLifecycleCommand): Promise<BotDecision> {
    return this.runner.run(lifecycleCommand(c.botId, c.report), c.ctx, c.conflict);
  }
}
