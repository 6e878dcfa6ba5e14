import type { EventStore } from '@gridrocket/event-store';
import { BotCommandRunner } from '@gridrocket/bots/nest';
import { RecordTradingCommand, ReportBotLifecycleCommand } from '@gridrocket/bots';
import { RecordTradingHandler } from '@gridrocket/bots/nest';
import { ReportBotLifecycleHandler } from '@gridrocket/bots/nest';
import type { CommandExecutor } from './grid-runner';

/**
 * The runner's two commands without Nest's CommandBus (the same handlers, the same decider): for a
 * runner built outside a Nest app (crash-test child, hand-over test, fleet bench).
 */
export function directCommands(events: EventStore): CommandExecutor {
  const bots = new BotCommandRunner(events);
  const lifecycle = new ReportBotLifecycleHandler(bots);
  const trading = new RecordTradingHandler(bots);
  return {
    async execute(command: object): Promise<any> {
      if (command instanceof ReportBotLifecycleCommand) return lifecycle.execute(command);
      if (command instanceof RecordTradingCommand) return trading.execute(command);
      throw new Error(`directCommands: unsupported command ${command.constructor.name}`);
    },
  };
}
