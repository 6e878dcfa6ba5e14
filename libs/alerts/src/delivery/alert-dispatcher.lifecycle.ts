import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { EVENT_STORE, EventStore } from '@gridrocket/event-store';
import { READ_STORE, ReadStore } from '@gridrocket/read-store';
import { APP_CONFIG, AppConfig, OPS_METER, OpsMeter } from '@gridrocket/shared/runtime';
import { createMailer } from '@gridrocket/identity/nest';
import { mailRetryDelay } from '@gridrocket/identity';
import { AlertRateLimit } from '../domain/alert-rate';
import { AlertDispatcher } from './alert-dispatcher';
import { AlertSecrets } from './alert-secrets';
import { EmailSink } from './email.sink';
import { TelegramSink } from './telegram.sink';
import { WebhookSink } from './webhook.sink';

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
    const sinksTrying = (maxAttempts: number) => [
      new EmailSink(this.mailer, { maxAttempts, retryBaseMs: a.retryBaseMs, publicUrl: config.publicUrl }),
      new WebhookSink({ allowPrivateUrls: a.allowPrivateUrls, maxAttempts, retryBaseMs: a.retryBaseMs }),
      new TelegramSink({ apiOrigin: a.telegramApi, maxAttempts, retryBaseMs: a.retryBaseMs }),
    ];
    this.dispatcher = new AlertDispatcher({
      events,
      reads,
      secrets,
      rate: new AlertRateLimit(a.rateLimit, a.rateWindowSeconds * 1000),
      meter,
      // an alert mail the server has not taken after the sink's tries: as the mail outbox waits (MAIL_RETRY_*)
      retryDelay: mailRetryDelay(config.mail.retryBaseMs, config.mail.retryMaxMs),
      publicUrl: config.publicUrl,
      sinks: sinksTrying(a.maxAttempts),
      // "Send a test" (issue 40): one try, so the far end's answer is shown at once
      testSinks: sinksTrying(1),
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
