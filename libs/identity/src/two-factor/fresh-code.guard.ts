import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { UnauthorizedError } from '@gridrocket/shared';
import { AppRequest, correlationIdOf, clientIpOf } from '@gridrocket/shared/http';
import { AuthThrottle, DEVICE_COOKIE } from '../auth.throttle';
import { TwoFactorService } from './two-factor.service';

/** The header a sensitive request carries its fresh code in. */
export const TOTP_HEADER = 'x-totp';

/**
 * Sensitive actions (add or delete an exchange key, change the alert channels; issue 30): when the user
 * has two-factor sign-in on, the request must carry a current code in `X-TOTP`, used up by it (403
 * `{errors:[{field:'totp'}]}` when it is missing, wrong or already used). Runs after SessionGuard.
 */
@Injectable()
export class FreshCodeGuard implements CanActivate {
  constructor(
    private readonly twoFactor: TwoFactorService,
    private readonly throttle: AuthThrottle,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AppRequest>();
    if (!req.user) throw new UnauthorizedError();
    const header = req.headers[TOTP_HEADER];
    const code = typeof header === 'string' ? header.slice(0, 20) : undefined;
    const client = this.throttle.clientOf(req.user.uid, clientIpOf(req), req.cookies?.[DEVICE_COOKIE]);
    await this.twoFactor.confirmSensitiveAction(req.user.uid, code, client, { correlationId: correlationIdOf(req) });
    return true;
  }
}
