import { BeforeApplicationShutdown, Inject, Injectable, Module, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { EVENT_STORE, EventStore } from '@gridrocket/event-store';
import { Projector, READ_STORE, ReadStore } from '@gridrocket/read-store';
import { APP_CONFIG, AppConfig, KEYRING_TOKEN, Keyring, OPS_METER, OpsMeter } from '@gridrocket/shared/runtime';
import { AccountService } from './account.service';
import { AuthController } from './auth.controller';
import { AuthThrottle } from './auth.throttle';
import { CsrfGuard } from './csrf.guard';
import { sessionsProjection, usersProjection, userTokensProjection } from './identity.projections';
import { linkTokensOf } from './link-tokens';
import { MailOutbox } from './mail/mail-outbox';
import { ResetIntake } from './mail/reset-intake';
import { MAILER, Mailer } from './mail/mail.port';
import { createMailer } from './mail/mailer.factory';
import { OAuthController } from './oauth/oauth.controller';
import { SessionGuard } from './session.guard';
import { SessionService } from './session.service';
import { UserController } from './user.controller';
import { SessionsController } from './sessions/sessions.controller';
import { FreshCodeGuard } from './two-factor/fresh-code.guard';
import { CurrentPasswordGuard } from './reauth/current-password.guard';
import { TwoFactorController } from './two-factor/two-factor.controller';
import { TwoFactorService } from './two-factor/two-factor.service';
import { AccessTokenService } from './access-tokens/access-token.service';
import { AccessTokensController } from './access-tokens/access-tokens.controller';
import { accessTokensProjection } from './access-tokens/access-token.projection';

/**
 * Runs the mail outbox (issue 31) for the app's lifetime, in the process that runs the projections (and
 * MAIL_OUTBOX is not false): one per deployment, like the alert dispatcher.
 */
@Injectable()
export class MailOutboxLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  readonly outbox: MailOutbox;
  /** Forgot-password asks → reset links (whose mails the outbox sends): run with the outbox. */
  readonly resetIntake: ResetIntake;

  constructor(
    @Inject(EVENT_STORE) events: EventStore,
    @Inject(READ_STORE) reads: ReadStore,
    @Inject(KEYRING_TOKEN) keyring: Keyring,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(MAILER) private readonly mailer: Mailer,
  ) {
    this.outbox = new MailOutbox({
      events,
      reads,
      mailer,
      tokens: linkTokensOf(keyring),
      publicUrl: config.publicUrl,
      retryBaseMs: config.mail.retryBaseMs,
      retryMaxMs: config.mail.retryMaxMs,
    });
    this.resetIntake = new ResetIntake({
      events,
      reads,
      tokens: linkTokensOf(keyring),
      ttlSeconds: config.tokenTtl.resetPasswordSeconds,
      retryBaseMs: config.mail.retryBaseMs,
      retryMaxMs: config.mail.retryMaxMs,
    });
  }

  async onApplicationBootstrap() {
    if (this.config.projections && this.config.mail.outbox) {
      await this.resetIntake.start();
      await this.outbox.start();
    }
  }

  async beforeApplicationShutdown() {
    await this.resetIntake.stop();
    await this.outbox.stop();
    await this.mailer.close?.();
  }
}

@Module({
  controllers: [AuthController, OAuthController, UserController, SessionsController, TwoFactorController, AccessTokensController],
  providers: [
    SessionService,
    SessionGuard,
    AccountService,
    AuthThrottle,
    TwoFactorService,
    FreshCodeGuard,
    CurrentPasswordGuard,
    AccessTokenService,
    // After routing, before the routes' own guards: state-changing routes need the CSRF header.
    { provide: APP_GUARD, useClass: CsrfGuard },
    { provide: MAILER, inject: [APP_CONFIG, { token: OPS_METER, optional: true }], useFactory: (config: AppConfig, meter?: OpsMeter) => createMailer(config, meter) },
    MailOutboxLifecycle,
  ],
  exports: [SessionService, SessionGuard, AccountService, AuthThrottle, TwoFactorService, FreshCodeGuard, CurrentPasswordGuard, MailOutboxLifecycle, AccessTokenService],
})
export class IdentityModule implements OnModuleInit {
  constructor(private readonly projector: Projector) {}

  onModuleInit() {
    this.projector.add(usersProjection);
    this.projector.add(sessionsProjection);
    this.projector.add(userTokensProjection);
    this.projector.add(accessTokensProjection);
  }
}
