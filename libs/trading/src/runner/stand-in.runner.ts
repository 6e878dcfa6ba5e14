import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { EVENT_STORE, EventStore, RecordedEvent } from '@gridrocket/event-store';
import { READ_STORE, ReadStore, RunningReactor, startReactor } from '@gridrocket/read-store';
import { CommandContext } from '@gridrocket/shared';
import { ReportBotLifecycleCommand, RunnerReport } from '@gridrocket/bots';

/**
 * The stand-in runner of the lifecycle issue: it turns BotStartRequested into
 * BotStarted (pid = this process) and BotStopRequested into BotStopped, with no
 * trading. Its seam: it reacts to lifecycle events from a checkpointed
 * subscription and reports back through ReportBotLifecycleCommand, exactly as
 * the grid runner does.
 */
@Injectable()
export class StandInRunner implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('StandInRunner');
  private reactor: RunningReactor | null = null;

  constructor(
    private readonly commands: CommandBus,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
  ) {}

  async onApplicationBootstrap() {
    this.reactor = await startReactor({
      name: 'stand-in-runner',
      events: this.events,
      reads: this.reads,
      filter: { streamPrefixes: ['bot-'], eventTypes: ['BotStartRequested', 'BotStopRequested'] },
      handle: (event) => this.react(event),
      onError: (err, event) => this.logger.error(`Could not handle ${event.type} of ${event.streamId}: ${err.message}`),
    });
  }

  private async react(event: RecordedEvent) {
    const botId = event.streamId.slice('bot-'.length);
    const report: RunnerReport = event.type === 'BotStartRequested' ? { type: 'MarkStarted', pid: process.pid } : { type: 'MarkStopped' };
    const ctx: CommandContext = { userId: 'runner', correlationId: event.metadata.correlationId, causationId: event.id };
    await this.commands.execute(new ReportBotLifecycleCommand(ctx, botId, report));
  }

  async onApplicationShutdown() {
    await this.reactor?.stop();
  }
}
