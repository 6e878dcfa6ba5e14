import { REDECIDE, conflictPolicy } from '@gridrocket/shared';
import type { AppCommand, BotType, CommandContext, ConflictPolicy } from '@gridrocket/shared';
import type { BotConfig, BotConfigEdit, BotEvent } from '../domain/bot.events';
import type { TradingEvent } from '../domain/bot-trading';

/**
 * The commands of the bot context, as @nestjs/cqrs command objects, in the shape every context's
 * commands have (AppCommand): who asks, how a conflict is met, then the bot's id and the fields.
 * Create, start, stop and delete depend only on the bot's current state, so a conflict re-decides them;
 * an edit whose client sent the revision it read (If-Match) is refused (412) if the bot changed since.
 */
export class CreateBotCommand implements AppCommand {
  readonly conflict = REDECIDE;
  constructor(readonly ctx: CommandContext, readonly botId: string, readonly botType: BotType, readonly config: BotConfig) {}
}
export class EditBotCommand implements AppCommand {
  readonly conflict: ConflictPolicy;
  constructor(
    readonly ctx: CommandContext,
    readonly botId: string,
    readonly config: BotConfigEdit,
    /** The stream revisions the client read (If-Match), or null when it sent none. */
    readonly expectedRevisions: readonly bigint[] | null = null,
  ) {
    this.conflict = conflictPolicy(expectedRevisions);
  }
}
export class StartBotCommand implements AppCommand {
  readonly conflict = REDECIDE;
  /** `sellPositionFirst` (issue 40, a signal's choice): a held position is sold at market before the start. */
  constructor(readonly ctx: CommandContext, readonly botId: string, readonly confirmPosition = false, readonly sellPositionFirst = false) {}
}
export class StopBotCommand implements AppCommand {
  readonly conflict = REDECIDE;
  constructor(readonly ctx: CommandContext, readonly botId: string, readonly cancelAllOrders: boolean, readonly closePosition = false) {}
}
/** "Check now" (issue 29): records BotCheckRequested, which the runner owning the bot reacts to. */
export class CheckBotCommand implements AppCommand {
  readonly conflict = REDECIDE;
  constructor(readonly ctx: CommandContext, readonly botId: string, readonly at: number) {}
}
export class DeleteBotCommand implements AppCommand {
  readonly conflict = REDECIDE;
  constructor(readonly ctx: CommandContext, readonly botId: string) {}
}

/** What the runner reports back; `ctx.userId` is the runner's system identity. */
export type RunnerReport =
  | { type: 'MarkStarted'; pid: number }
  | { type: 'MarkResumed'; pid: number }
  | { type: 'MarkStartFailed'; reason: string }
  | { type: 'MarkStopped' }
  | { type: 'MarkFailed'; reason: string }
  | { type: 'MarkChecked'; requestedAt: number; found: number; at: number };

export class ReportBotLifecycleCommand implements AppCommand {
  /** The runner's reports are decided against the bot's current status: safe to decide again. */
  readonly conflict = REDECIDE;
  constructor(readonly ctx: CommandContext, readonly botId: string, readonly report: RunnerReport) {}
}

/**
 * The runner's observations of one run on the exchange (orders placed and cancelled, fills, profit,
 * completed cycles), decided by the bot decider against the bot's current run: facts already in the
 * history are dropped, so recording the same thing twice (a retry, a crash between the exchange
 * action and the append) writes it once. `report`, when given, is the lifecycle report these facts
 * end with (a start's placements then MarkStarted, a stop's cancels then MarkStopped): decided after
 * the facts, on the state they lead to, and appended with them in ONE append (issue 16).
 */
export class RecordTradingCommand implements AppCommand {
  /** Facts and report are re-decided against the fresh stream: ones already recorded are dropped, so a retry is safe. */
  readonly conflict = REDECIDE;
  constructor(
    readonly ctx: CommandContext,
    readonly botId: string,
    readonly run: number,
    readonly facts: TradingEvent[],
    readonly report?: RunnerReport,
  ) {}
}
