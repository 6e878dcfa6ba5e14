import type { EventStore } from '@gridrocket/event-store';
import { BotCommandRunner } from '@gridrocket/bots/nest';
import { RecordTradingCommand, ReportBotLifecycleCommand } from '@gridrocket/bots';
import { recordTrading } from '@gridrocket/bots/nest';
import { ReportBotLifecycleHandler } from '@gridrocket/bots/nest';
import type { CommandExecutor } from './grid-runner';

/**
 * The runner's two commands without Nest's CommandBus (the same handlers): for a runner built
 * outside a Nest app (crash-test child, hand-over test, fleet bench).
 */
export function directCommands(events: EventStore): CommandExecutor {
  const lifecycle = new ReportBotLifecycleHandler(new BotCommandRunner(events));
  return {
    async execute(command: object): Promise<any> {
      if (command instanceof ReportBotLifecycleCommand) return lifecycle.execute(command);
      if (command instanceof RecordTradingCommand) return recordTrading(events, command);
      throw new Error(`directCommands: unsupported command ${command.constructor.name}`);
    },
  };
}
