import { DynamicModule, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { BotsModule } from '@gridrocket/bots';
import { CredentialsModule } from '@gridrocket/credentials';
import { IdentityModule } from '@gridrocket/identity';
import { StreamingModule } from '@gridrocket/streaming';
import { AppConfig } from '@gridrocket/shared';
import { TradingModule } from '@gridrocket/trading';
import { ChartModule } from '@gridrocket/trading/chart/chart.module';
import { AdapterOverrides, InfrastructureModule } from './infrastructure.module';
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
        IdentityModule,
        BotsModule,
        CredentialsModule,
        ChartModule,
        ...(config.embeddedRunner ? [TradingModule] : []),
      ],
      controllers: [SystemController],
    };
  }
}
