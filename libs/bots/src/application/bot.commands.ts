import type { CommandContext } from '@gridrocket/shared';
import type { BotType } from '@gridrocket/shared';
import type { BotConfig } from '../domain/bot.events';
import type { TradingEvent } from '../domain/bot-trading';

/** The commands of the bot context, as @nestjs/cqrs command objects. */
export class CreateBotCommand {
  constructor(readonly ctx: CommandContext, readonly botId: string, readonly botType: BotType, readonly config: BotConfig) {}
}
export class EditBotCommand {
  constructor(
    readonly ctx: CommandContext,
    readonly botId: string,
    readonly config: Omit<BotConfig, 'symbol' | 'leverage'> & { leverage?: number },
  ) {}
}
export class StartBotCommand {
  constructor(readonly ctx: CommandContext, readonly botId: string) {}
}
export class StopBotCommand {
  constructor(readonly ctx: CommandContext, readonly botId: string, readonly cancelAllOrders: boolean, readonly closePosition = false) {}
}
export class DeleteBotCommand {
  constructor(readonly ctx: CommandContext, readonly botId: string) {}
}

/** What the runner reports back; `ctx.userId` is the runner's system identity. */
export type RunnerReport =
  | { type: 'MarkStarted'; pid: number }
  | { type: 'MarkResumed'; pid: number }
  | { type: 'MarkStartFailed'; reason: string }
  | { type: 'MarkStopped' }
  | { type: 'MarkFailed'; reason: string };

export class ReportBotLifecycleCommand {
  constructor(readonly ctx: CommandContext, readonly botId: string, readonly report: RunnerReport) {}
}

/**
 * The runner's observations of one run on the exchange (orders placed and cancelled, fills, profit,
 * completed cycles), decided by the bot decider against the bot's current run: facts already in the
 * history are dropped, so recording the same thing twice (a retry, a crash between the exchange
 * action and the append) writes it once.
 */
export class RecordTradingCommand {
  constructor(
    readonly ctx: CommandContext,
    readonly botId: string,
    readonly run: number,
    readonly facts: TradingEvent[],
  ) {}
}
