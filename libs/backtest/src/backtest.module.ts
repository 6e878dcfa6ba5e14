import { Module, OnModuleInit } from '@nestjs/common';
import { Projector } from '@gridrocket/read-store';
import { IdentityModule } from '@gridrocket/identity/nest';
import { BacktestService } from './application/backtest.service';
import { backtestListProjection } from './backtest-list.projection';
import { BacktestsController } from './backtests.controller';

/** Backtests and sweeps of grids over candles (issue 15). */
@Module({
  imports: [IdentityModule],
  controllers: [BacktestsController],
  providers: [BacktestService],
})
export class BacktestModule implements OnModuleInit {
  constructor(private readonly projector: Projector) {}

  onModuleInit() {
    this.projector.add(backtestListProjection);
  }
}
