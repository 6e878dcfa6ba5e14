import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, EventStore } from '@gridrocket/event-store';
import { CommandContext, ConflictPolicy, REDECIDE } from '@gridrocket/shared';
import { DecisionResult, executeCommand } from '@gridrocket/shared/runtime';
import { BotCommand, BotState, botDecider } from '../domain/bot.decider';
import { BotEvent, botStream } from '../domain/bot.events';

export type BotDecision = DecisionResult<BotState, BotEvent>;

/** Load the bot's stream, decide, append with the expected revision; a conflict is met as `conflict` says. */
@Injectable()
export class BotCommandRunner {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  run(command: BotCommand, ctx: CommandContext, conflict: ConflictPolicy = REDECIDE): Promise<BotDecision> {
    return executeCommand(this.store, botStream(command.botId), botDecider, command, ctx, conflict);
  }
}
