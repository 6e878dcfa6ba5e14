import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { UnauthorizedError } from '@gridrocket/shared';
import { AppRequest, correlationIdOf, clientIpOf } from '@gridrocket/shared/http';
import { AuthThrottle, DEVICE_COOKIE } from '../auth.throttle';
import { TwoFactorService } from './two-factor.service';

/** The header a sensitive request carries its fresh code in. */
export const TOTP_HEADER = 'x-totp';

/** The confirmation FreshCodeGuard leaves on its request, run (once) by the handler: `confirmFreshCode`. */
const confirmations = new WeakMap<object, () => Promise<void>>();

/**
 * Sensitive actions (add or delete an exchange key, change the alert channels, a bot's signal secret, an
 * access token; issue 30): when the user has two-factor sign-in on, the request must carry a current code
 * in `X-TOTP`, used up by it (403 `{errors:[{field:'totp'}]}` when it is missing, wrong or already used).
 * Runs after SessionGuard.
 *
 * Issue 40 (point 13): the guard does not judge the code itself. It leaves the confirmation on the request,
 * and the handler calls `confirmFreshCode(req)` once its own validation and refusal checks have passed, just
 * before it writes: an action that will be refused (a body with errors, a key a bot uses, a webhook on a
 * loopback address, a quota reached) is refused before the code is asked for or spent, so the same code
 * still confirms the corrected request. A route marked with this guard whose handler never confirms would
 * act without the code: `test/fresh-code-order.spec.ts` drives every such route of the API document.
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
    const user = req.user;
    const header = req.headers[TOTP_HEADER];
    const code = typeof header === 'string' ? header.slice(0, 20) : undefined;
    let confirmed: Promise<void> | null = null;
    confirmations.set(req, () => {
      confirmed ??= this.twoFactor.confirmSensitiveAction(user.uid, code, this.throttle.clientOf(user.uid, clientIpOf(req), req.cookies?.[DEVICE_COOKIE]), { correlationId: correlationIdOf(req) });
      return confirmed;
    });
    return true;
  }
}

/**
 * Confirms a sensitive action with the request's fresh code (with two-factor sign-in on; nothing without
 * it): call it after every check that could refuse the action and before its first write. 403 with the
 * `totp` field when the code is missing, wrong or used. Once per request: a second call answers the first's
 * outcome. A route without FreshCodeGuard has nothing to confirm with: that is a programming error.
 */
export function confirmFreshCode(req: object): Promise<void> {
  const confirm = confirmations.get(req);
  if (!confirm) return Promise.reject(new Error('confirmFreshCode needs FreshCodeGuard on the route'));
  return confirm();
}
