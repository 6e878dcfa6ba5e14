import { DynamicModule, Module } from '@nestjs/common';
import { AlertsModule } from '@gridrocket/alerts/nest';
import { BacktestModule } from '@gridrocket/backtest/nest';
import { CqrsModule } from '@nestjs/cqrs';
import { BotsModule } from '@gridrocket/bots/nest';
import { CredentialsModule } from '@gridrocket/credentials/nest';
import { IdentityModule } from '@gridrocket/identity/nest';
import { StreamingModule } from '@gridrocket/streaming/nest';
import { AppConfig } from '@gridrocket/shared/runtime';
import { TradingModule } from '@gridrocket/trading/nest';
import { ChartModule, MoneyModule } from '@gridrocket/trading/nest';
import { AdapterOverrides, InfrastructureModule } from './infrastructure.module';
import { IdempotencyModule } from './idempotency.service';
import { PushModule } from './push.gateway';
import { SystemController } from './system.controller';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, adapters: AdapterOverrides = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        InfrastructureModule.forRoot(config, adapters),
        CqrsModule.forRoot(),
        StreamingModule,
        PushModule,
        IdempotencyModule,
        IdentityModule,
        BotsModule,
        CredentialsModule,
        ChartModule,
        MoneyModule,
        BacktestModule,
        AlertsModule,
        ...(config.embeddedRunner ? [TradingModule] : []),
      ],
      controllers: [SystemController],
    };
  }
}
