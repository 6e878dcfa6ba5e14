import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ForbiddenError } from '@gridrocket/shared';
import type { AppRequest } from '@gridrocket/shared/http';
import { AccessTokenService, SESSION_COOKIE, SessionService, bearerOf } from '@gridrocket/identity/nest';
import { routeChangesState } from '@gridrocket/identity/nest';
import { AuditorPolicy } from './auditor.policy';

/** Signing in and out, and verifying the address (the role needs it), change only the auditor's own account. */
const SESSION_ROUTES = new Set(['/api/auth/login', '/api/auth/logout', '/api/auth/verify-email', '/api/auth/resend-verification']);

export const AUDITOR_READ_ONLY = 'Auditors can read histories but cannot change anything';

/**
 * A global guard: a signed-in auditor gets 403 on every state-changing
 * request, whatever the route (it runs before the routes' own guards, so it
 * resolves the session itself, only for state-changing requests).
 */
@Injectable()
export class AuditorGuard implements CanActivate {
  constructor(
    private readonly policy: AuditorPolicy,
    private readonly sessions: SessionService,
    private readonly reflector: Reflector,
    private readonly tokens: AccessTokenService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http' || !this.policy.enabled) return true;
    const req = context.switchToHttp().getRequest<AppRequest>();
    const path = (req.originalUrl ?? req.url).split('?')[0].replace(/\/+$/, '') || '/';
    // From the matched route (handler metadata), so no spelling of the path escapes it.
    if (!routeChangesState(this.reflector, context) || SESSION_ROUTES.has(path)) return true;
    // a personal access token (issue 31) is its owner's: an auditor's token is read-only too
    const bearer = bearerOf(req);
    const email = req.user?.email ?? (bearer !== undefined ? (await this.tokens.resolve(bearer))?.user.email : (await this.sessions.resolve(req.cookies?.[SESSION_COOKIE]))?.session.email);
    // Read-only applies to an auditor's address whether or not it is verified yet.
    if (this.policy.isAuditorAddress(email)) throw new ForbiddenError(AUDITOR_READ_ONLY);
    return true;
  }
}
