import { Inject, Injectable, Optional } from '@nestjs/common';
import { EVENT_STORE, EventStore } from '@gridrocket/event-store';
import { CommandContext, ConflictPolicy, REDECIDE } from '@gridrocket/shared';
import { DecisionResult, executeCommand } from '@gridrocket/shared/runtime';
import { PUSH, PushPort } from '@gridrocket/shared/http';
import { BotCommand, BotState, botDecider } from '../domain/bot.decider';
import { BotEvent, botStream } from '../domain/bot.events';
import { announceStatus } from './bot-status.announce';

export type BotDecision = DecisionResult<BotState, BotEvent>;

/**
 * Load the bot's stream, decide, append with the expected revision; a conflict is met as `conflict` says.
 * A decision that changed whether the bot runs is announced to its owner at once (`push`, when given).
 */
@Injectable()
export class BotCommandRunner {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Optional() @Inject(PUSH) private readonly push?: PushPort,
  ) {}

  async run(command: BotCommand, ctx: CommandContext, conflict: ConflictPolicy = REDECIDE): Promise<BotDecision> {
    const decision = await executeCommand(this.store, botStream(command.botId), botDecider, command, ctx, conflict);
    if (this.push) announceStatus(this.push, decision);
    return decision;
  }
}
