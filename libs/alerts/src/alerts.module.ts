import { Module, OnModuleInit } from '@nestjs/common';
import { Projector } from '@gridrocket/read-store';
import { KEYRING_TOKEN, Keyring } from '@gridrocket/shared/runtime';
import { IdentityModule } from '@gridrocket/identity/nest';
import { alertDeliveriesProjection } from './alert-deliveries.projection';
import { AlertsController } from './alerts.controller';
import { AlertDispatcherLifecycle } from './delivery/alert-dispatcher.lifecycle';
import { AlertSecrets } from './delivery/alert-secrets';

export { AlertDispatcherLifecycle };

/** Alerts (issue 29): settings, the delivery log and the dispatcher. */
@Module({
  imports: [IdentityModule],
  controllers: [AlertsController],
  providers: [{ provide: AlertSecrets, inject: [KEYRING_TOKEN], useFactory: (keyring: Keyring) => new AlertSecrets(keyring) }, AlertDispatcherLifecycle],
  exports: [AlertDispatcherLifecycle],
})
export class AlertsModule implements OnModuleInit {
  constructor(private readonly projector: Projector) {}

  onModuleInit() {
    this.projector.add(alertDeliveriesProjection);
  }
}
