import { DynamicModule, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { BacktestModule } from '@gridrocket/backtest/nest';
import { BotsModule } from '@gridrocket/bots';
import { CredentialsModule } from '@gridrocket/credentials';
import { IdentityModule } from '@gridrocket/identity';
import { StreamingModule } from '@gridrocket/streaming';
import { AppConfig } from '@gridrocket/shared';
import { TradingModule } from '@gridrocket/trading';
import { ChartModule } from '@gridrocket/trading/chart/chart.module';
import { InfrastructureModule } from './infrastructure.module';
import { PushModule } from './push.gateway';
import { SystemController } from './system.controller';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        InfrastructureModule.forRoot(config),
        CqrsModule.forRoot(),
        StreamingModule,
        PushModule,
        IdentityModule,
        BotsModule,
        CredentialsModule,
        ChartModule,
        BacktestModule,
        ...(config.embeddedRunner ? [TradingModule] : []),
      ],
      controllers: [SystemController],
    };
  }
}
