import { Module } from '@nestjs/common';
import { IdentityModule } from '@gridrocket/identity/nest';
import { HistoryModule } from '@gridrocket/bots/nest';
import { BotChartController } from './bot-chart.controller';
import { PriceHistory } from './price-history';
import { BotActivityPush } from './bot-activity.push';
import { BotFiguresReader } from './bot-figures.reader';

/** The grid chart's data, the bot page's figures and their live pushes; needs EXCHANGE_PROVIDER (CredentialsModule is global). */
@Module({
  imports: [IdentityModule, HistoryModule], // HistoryModule: the auditors' policy (issue 40: auditors read a bot's figures and chart)
  controllers: [BotChartController],
  providers: [PriceHistory, BotActivityPush, BotFiguresReader],
  exports: [PriceHistory, BotFiguresReader],
})
export class ChartModule {}
