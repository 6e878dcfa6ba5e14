import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { BotCommandRunner, BotDecision } from './bot-command.runner';
import { RecordTradingCommand } from './bot.commands';
import { lifecycleCommand } from './report-bot-lifecycle.handler';

/**
 * The runner's trading facts go through the bot decider like every other bot command (load, decide,
 * append with the expected revision): the decider drops what the history already holds and refuses
 * facts of a run that is no longer the bot's current one. A lifecycle report that comes with the facts
 * is decided after them, in the same decision (one append).
 */
@CommandHandler(RecordTradingCommand)
export class RecordTradingHandler implements ICommandHandler<RecordTradingCommand, BotDecision> {
  constructor(private readonly runner: BotCommandRunner) {}

  execute(c: RecordTradingCommand): Promise<BotDecision> {
    const report = c.report ? { report: lifecycleCommand(c.botId, c.report) } : {};
    return this.runner.run({ type: 'RecordTrading', botId: c.botId, run: c.run, facts: c.facts, ...report }, c.ctx, c.conflict);
  }
}
