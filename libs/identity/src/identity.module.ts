import { Module, OnModuleInit } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { Projector } from '@gridrocket/read-store';
import { APP_CONFIG, AppConfig, OPS_METER, OpsMeter } from '@gridrocket/shared/runtime';
import { AccountService } from './account.service';
import { AuthController } from './auth.controller';
import { AuthThrottle } from './auth.throttle';
import { CsrfGuard } from './csrf.guard';
import { sessionsProjection, usersProjection, userTokensProjection } from './identity.projections';
import { MAILER } from './mail/mail.port';
import { createMailer } from './mail/mailer.factory';
import { OAuthController } from './oauth/oauth.controller';
import { SessionGuard } from './session.guard';
import { SessionService } from './session.service';
import { UserController } from './user.controller';
import { SessionsController } from './sessions/sessions.controller';
import { FreshCodeGuard } from './two-factor/fresh-code.guard';
import { TwoFactorController } from './two-factor/two-factor.controller';
import { TwoFactorService } from './two-factor/two-factor.service';
import { AccessTokenService } from './access-tokens/access-token.service';
import { AccessTokensController } from './access-tokens/access-tokens.controller';
import { accessTokensProjection } from './access-tokens/access-token.projection';

@Module({
  controllers: [AuthController, OAuthController, UserController, SessionsController, TwoFactorController, AccessTokensController],
  providers: [
    SessionService,
    SessionGuard,
    AccountService,
    AuthThrottle,
    TwoFactorService,
    FreshCodeGuard,
    AccessTokenService,
    // After routing, before the routes' own guards: state-changing routes need the CSRF header.
    { provide: APP_GUARD, useClass: CsrfGuard },
    { provide: MAILER, inject: [APP_CONFIG, { token: OPS_METER, optional: true }], useFactory: (config: AppConfig, meter?: OpsMeter) => createMailer(config, meter) },
  ],
  exports: [SessionService, SessionGuard, AccountService, AuthThrottle, TwoFactorService, FreshCodeGuard, AccessTokenService],
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
