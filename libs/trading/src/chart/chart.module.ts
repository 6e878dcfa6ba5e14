import { Module } from '@nestjs/common';
import { IdentityModule } from '@gridrocket/identity/nest';
import { BotChartController } from './bot-chart.controller';
import { PriceHistory } from './price-history';

/** The grid chart's data; needs EXCHANGE_PROVIDER (CredentialsModule is global). */
@Module({
  imports: [IdentityModule],
  controllers: [BotChartController],
  providers: [PriceHistory],
})
export class ChartModule {}
