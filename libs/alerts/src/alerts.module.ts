import { BeforeApplicationShutdown, Inject, Injectable, Module, OnApplicationBootstrap, OnModuleInit, Optional } from '@nestjs/common';
import { EVENT_STORE, EventStore } from '@gridrocket/event-store';
import { Projector, READ_STORE, ReadStore } from '@gridrocket/read-store';
import { APP_CONFIG, AppConfig, KEYRING_TOKEN, Keyring, OPS_METER, OpsMeter } from '@gridrocket/shared/runtime';
import { IdentityModule, createMailer } from '@gridrocket/identity/nest';
import { alertDeliveriesProjection } from './alert-deliveries.projection';
import { AlertsController } from './alerts.controller';
import { AlertRateLimit } from './domain/alert-rate';
import { AlertDispatcher } from './delivery/alert-dispatcher';
import { AlertSecrets } from './delivery/alert-secrets';
import { EmailSink } from './delivery/email.sink';
import { TelegramSink } from './delivery/telegram.sink';
import { WebhookSink } from './delivery/webhook.sink';

/** Runs the alert dispatcher for the app's lifetime (in every process that hosts the projections). */
@Injectable()
export class AlertDispatcherLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  readonly dispatcher: AlertDispatcher;
  private readonly mailer;

  constructor(
    @Inject(EVENT_STORE) events: EventStore,
    @Inject(READ_STORE) reads: ReadStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    secrets: AlertSecrets,
    @Optional() @Inject(OPS_METER) meter?: OpsMeter,
  ) {
    const a = config.alerts;
    this.mailer = createMailer(config, meter);
    this.dispatcher = new AlertDispatcher({
      events,
      reads,
      secrets,
      rate: new AlertRateLimit(a.rateLimit, a.rateWindowSeconds * 1000),
      meter,
      // an alert mail the server has not taken after the sink's tries: as the mail outbox waits (MAIL_RETRY_*)
      retryDelay: (attempt) => Math.min(config.mail.retryMaxMs, config.mail.retryBaseMs * 2 ** Math.min(attempt - 1, 30)),
      sinks: [
        new EmailSink(this.mailer, { maxAttempts: a.maxAttempts, retryBaseMs: a.retryBaseMs, publicUrl: config.publicUrl }),
        new WebhookSink({ allowPrivateUrls: a.allowPrivateUrls, maxAttempts: a.maxAttempts, retryBaseMs: a.retryBaseMs }),
        new TelegramSink({ apiOrigin: a.telegramApi, maxAttempts: a.maxAttempts, retryBaseMs: a.retryBaseMs }),
      ],
    });
  }

  async onApplicationBootstrap() {
    // One dispatcher per deployment (ALERTS_DISPATCHER=false on extra API replicas: two would each send every alert).
    if (this.config.projections && this.config.alerts.dispatcher) await this.dispatcher.start();
  }

  async beforeApplicationShutdown() {
    await this.dispatcher.stop();
    await this.mailer.close?.();
  }
}

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
