import { Module, OnModuleInit } from '@nestjs/common';
import { Projector } from '@gridrocket/read-store';
import { IdentityModule } from '@gridrocket/identity/nest';
import { ChartModule } from '../chart/chart.module';
import { botMoneyProjection } from './bot-money.projection';
import { MoneyController } from './money.controller';

/** The money view (issue 29): its read model and routes; the price now comes from the chart's PriceHistory. */
@Module({
  imports: [IdentityModule, ChartModule],
  controllers: [MoneyController],
})
export class MoneyModule implements OnModuleInit {
  constructor(private readonly projector: Projector) {}

  onModuleInit() {
    this.projector.add(botMoneyProjection);
  }
}
