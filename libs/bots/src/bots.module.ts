import { Inject, Module, OnModuleInit } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { Projector } from '@gridrocket/read-store';
import { IdentityModule } from '@gridrocket/identity/nest';
import { KeyUseLedger } from '@gridrocket/credentials/nest';
import { EVENT_STORE, EventStore } from '@gridrocket/event-store';
import { activeKeyUsers } from './application/key-users';
import { BotCommandRunner } from './application/bot-command.runner';
import { CreateBotHandler } from './application/create-bot.handler';
import { DeleteBotHandler } from './application/delete-bot.handler';
import { EditBotHandler } from './application/edit-bot.handler';
import { RecordTradingHandler } from './application/record-trading.handler';
import { ReportBotLifecycleHandler } from './application/report-bot-lifecycle.handler';
import { StartBotHandler } from './application/start-bot.handler';
import { StopBotHandler } from './application/stop-bot.handler';
import { CheckBotHandler } from './application/check-bot.handler';
import { MarketCheck } from './application/market-check';
import { CapacityCheck } from './application/capacity-check';
import { botListProjection } from './bot-list.projection';
import { BotPushListener } from './bot-push.listener';
import { BotsController } from './bots.controller';
import { HistoryModule } from './history/history.module';
import { SignalsModule } from './signals/signals.module';
import { botTemplatesProjection } from './templates/bot-template-list.projection';
import { BotTemplatesController } from './templates/bot-templates.controller';

@Module({
  imports: [CqrsModule, IdentityModule, HistoryModule, SignalsModule],
  controllers: [BotsController, BotTemplatesController],
  providers: [
    BotCommandRunner,
    CreateBotHandler,
    EditBotHandler,
    StartBotHandler,
    StopBotHandler,
    CheckBotHandler,
    DeleteBotHandler,
    ReportBotLifecycleHandler,
    RecordTradingHandler,
    BotPushListener,
    MarketCheck,
    CapacityCheck,
  ],
})
export class BotsModule implements OnModuleInit {
  constructor(
    private readonly projector: Projector,
    private readonly keyUse: KeyUseLedger,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  onModuleInit() {
    this.projector.add(botListProjection);
    this.projector.add(botTemplatesProjection);
    // a key's removal asks which of the bots that claimed it are still active (issue 29)
    this.keyUse.setActiveBotCheck(activeKeyUsers(this.events));
  }
}
