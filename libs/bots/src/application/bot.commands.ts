import type { CommandContext } from '@gridrocket/shared';
import type { BotType } from '@gridrocket/shared';
import type { BotConfig, BotEvent } from '../domain/bot.events';

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
  constructor(readonly ctx: CommandContext, readonly botId: string, readonly cancelAllOrders: boolean) {}
}
export class DeleteBotCommand {
  constructor(readonly ctx: CommandContext, readonly botId: string) {}
}

/** What the runner reports back; `ctx.userId` is the runner's system identity. */
export type RunnerReport =
  | { type: 'MarkStarted'; pid: number }
  | { type: 'MarkStartFailed'; reason: string }
  | { type: 'MarkStopped' }
  | { type: 'MarkFailed'; reason: string };

export class ReportBotLifecycleCommand {
  constructor(readonly ctx: CommandContext, readonly botId: string, readonly report: RunnerReport) {}
}

/**
 * The runner records order, fill and profit events. Each event carries its own id, derived by the
 * runner from the exchange's fill id or the client order id, so recording the same thing twice
 * (a retry, a crash between the exchange action and the append) writes it once.
 * `knownRevision` is the stream revision the runner last saw (a hint: on a conflict the handler
 * re-reads the stream).
 */
export class RecordTradingCommand {
  constructor(
    readonly ctx: CommandContext,
    readonly botId: string,
    readonly events: Array<BotEvent & { id: string }>,
    readonly knownRevision: bigint | null = null,
  ) {}
}

export interface RecordTradingResult {
  /** Ids appended now (the others were already recorded). */
  appended: string[];
  revision: bigint | null;
}
