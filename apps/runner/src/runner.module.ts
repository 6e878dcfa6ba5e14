import { DynamicModule, Global, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { BotsModule } from '@gridrocket/bots/nest';
import { CredentialsModule } from '@gridrocket/credentials/nest';
import { AppConfig, OPS_METER } from '@gridrocket/shared/runtime';
import { PUSH, PushPort } from '@gridrocket/shared/http';
import { MetricsService } from '@gridrocket/streaming';
import { TradingModule } from '@gridrocket/trading/nest';
import { InfrastructureModule } from '../../api/src/infrastructure.module';

/** The runner process pushes nothing itself: the API's projections push what the runner appends. */
const noPush: PushPort = { toUser: () => undefined };

@Global()
@Module({ providers: [{ provide: PUSH, useValue: noPush }], exports: [PUSH] })
class NoPushModule {}

/**
 * The runner's own metrics (its /metrics, issue 41): its bots running and paused, its ownership lease, its
 * exchange errors and watchdog findings, its reactor. Not the API's StreamingModule: a runner forwards
 * nothing and runs no projection.
 */
@Global()
@Module({})
class RunnerMetricsModule {
  static forRoot(metrics: MetricsService): DynamicModule {
    return {
      module: RunnerMetricsModule,
      providers: [
        { provide: MetricsService, useValue: metrics },
        { provide: OPS_METER, useExisting: MetricsService },
      ],
      exports: [MetricsService, OPS_METER],
    };
  }
}

/** The bot runner alone, for scaled-out deployments (the API then runs with EMBEDDED_RUNNER=false). */
@Module({})
export class RunnerModule {
  /** `metrics`: the registry the runner's /metrics serves (its port is open before the runner starts). */
  static forRoot(config: AppConfig, metrics: MetricsService = new MetricsService()): DynamicModule {
    return {
      module: RunnerModule,
      // CredentialsModule provides EXCHANGE_PROVIDER (keys decrypted only inside the exchange adapter).
      imports: [InfrastructureModule.forRoot(config), CqrsModule.forRoot(), NoPushModule, RunnerMetricsModule.forRoot(metrics), BotsModule, CredentialsModule, TradingModule],
    };
  }
}
