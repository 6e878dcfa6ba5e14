import { Module } from '@nestjs/common';
import { IdentityModule } from '@gridrocket/identity/nest';
import { BotChartController } from './bot-chart.controller';
import { PriceHistory } from './price-history';
import { BotActivityPush } from './bot-activity.push';

/** The grid chart's data, the bot page's figures and their live pushes; needs EXCHANGE_PROVIDER (CredentialsModule is global). */
@Module({
  imports: [IdentityModule],
  controllers: [BotChartController],
  providers: [PriceHistory, BotActivityPush],
  exports: [PriceHistory],
})
export class ChartModule {}
