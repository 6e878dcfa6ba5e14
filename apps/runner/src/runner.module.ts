import { DynamicModule, Global, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { BotsModule } from '@gridrocket/bots/nest';
import { CredentialsModule } from '@gridrocket/credentials/nest';
import { AppConfig } from '@gridrocket/shared/runtime';
import { PUSH, PushPort } from '@gridrocket/shared/http';
import { TradingModule } from '@gridrocket/trading/nest';
import { InfrastructureModule } from '../../api/src/infrastructure.module';

/** The runner process pushes nothing itself: the API's projections push what the runner appends. */
const noPush: PushPort = { toUser: () => undefined };

@Global()
@Module({ providers: [{ provide: PUSH, useValue: noPush }], exports: [PUSH] })
class NoPushModule {}

/** The bot runner alone, for scaled-out deployments (the API then runs with EMBEDDED_RUNNER=false). */
@Module({})
export class RunnerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: RunnerModule,
      // CredentialsModule provides EXCHANGE_PROVIDER (keys decrypted only inside the exchange adapter).
      imports: [InfrastructureModule.forRoot(config), CqrsModule.forRoot(), NoPushModule, BotsModule, CredentialsModule, TradingModule],
    };
  }
}
