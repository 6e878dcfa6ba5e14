import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@gridrocket/shared/runtime';
import { ForbiddenError, UnauthorizedError } from '@gridrocket/shared';
import { AppRequest, clientIpOf } from '@gridrocket/shared/http';
import { AuthThrottle, DEVICE_COOKIE } from '../auth.throttle';
import { SessionService } from '../session.service';

/** Where the current password comes with a request that needs it. */
export const CURRENT_PASSWORD_HEADER = 'x-current-password';

export const CURRENT_PASSWORD_NEEDED = 'Enter your current password to confirm this';
export const CURRENT_PASSWORD_WRONG = 'That is not your current password';
export const SIGN_IN_AGAIN_NEEDED = 'Sign in again to confirm this: your account has no password, and this needs a sign-in within the last 5 minutes';

/** The 403 the dashboard answers with a password prompt (field `currentPassword`). */
export class CurrentPasswordError extends ForbiddenError {
  readonly errors: Array<{ field: string; message: string }>;
  constructor(message: string) {
    super(message);
    this.errors = [{ field: 'currentPassword', message }];
  }
}

/**
 * What a stolen session must not do without the password (issue 38, break 3: a thief's session turned
 * two-factor sign-in on, kept the recovery codes and locked the owner out for good): set up, enable or
 * disable 2FA, create an access token, change the alert channels. The request passes when its session
 * signed in within the last RECENT_SIGN_IN_SECONDS (5 minutes), or it carries the account's current password in
 * `X-Current-Password` (a header, never logged). Password tries count in the sign-in limits (AuthThrottle),
 * so the header is no way around them. An account without a password (Google/Facebook) needs a recent
 * sign-in. Runs after SessionGuard and before FreshCodeGuard: a refusal spends no two-factor code.
 */
@Injectable()
export class CurrentPasswordGuard implements CanActivate {
  constructor(
    private readonly sessions: SessionService,
    private readonly throttle: AuthThrottle,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'recentSignInSeconds'>,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AppRequest>();
    const user = req.user;
    if (!user) throw new UnauthorizedError();
    const header = req.headers[CURRENT_PASSWORD_HEADER];
    const given = typeof header === 'string' && header.length > 0 && header.length <= 200 ? header : null;
    if (given === null) {
      if (user.signedInAt !== undefined && Date.now() - user.signedInAt < this.config.recentSignInSeconds * 1000) return true;
      throw new CurrentPasswordError((await this.sessions.hasPassword(user.uid)) ? CURRENT_PASSWORD_NEEDED : SIGN_IN_AGAIN_NEEDED);
    }
    const client = this.throttle.clientOf(user.uid, clientIpOf(req), req.cookies?.[DEVICE_COOKIE]);
    await this.throttle.beginLogin(user.email, client);
    if (!(await this.sessions.checkPassword(user.uid, given))) throw new CurrentPasswordError(CURRENT_PASSWORD_WRONG);
    await this.throttle.loginSucceeded(user.email, client);
    return true;
  }
}
