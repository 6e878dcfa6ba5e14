import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ForbiddenError } from '@gridrocket/shared';
import { AppRequest, sameSecret } from '@gridrocket/shared/http';
import { CSRF_COOKIE, CSRF_FRESH, CSRF_HEADER } from './csrf.middleware';
import { bearerOf, requiredTokenScope } from './access-tokens/access-token.scope';
import { handlerIsSignedRequest, routeChangesState } from './route-state';

export { SignedRequest, StateChanging, handlerIsSignedRequest, routeChangesState } from './route-state';

export const CSRF_MESSAGE = 'Missing or invalid CSRF token: send the csrf_token cookie value in the X-CSRF-Token header';

/** The header matches the cookie (constant time), and the cookie was not minted by this very request. */
export function csrfTokenValid(req: AppRequest): boolean {
  const token: string | undefined = req.cookies?.[CSRF_COOKIE];
  const sent = req.header(CSRF_HEADER);
  if (!token || !sent || req.cookies?.[CSRF_FRESH] === '1') return false;
  return sameSecret(sent, token);
}

/**
 * Double-submit CSRF, second half, as a global guard: it runs after routing, before the routes' own
 * guards, on every HTTP route. A state-changing route without a valid token is 403 before anything
 * else runs.
 */
@Injectable()
export class CsrfGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    if (!routeChangesState(this.reflector, context)) return true;
    // The signal webhook (issue 32): no cookie is read there; the request is signed with the bot's secret.
    if (handlerIsSignedRequest(this.reflector, context.getHandler(), context.getClass())) return true;
    const req = context.switchToHttp().getRequest<AppRequest>();
    // A personal access token on a route that takes one (issue 31): no CSRF header. A page of another site
    // cannot make a browser send an Authorization header, and SessionGuard then decides by the token
    // alone (a session cookie beside it is refused).
    if (bearerOf(req) !== undefined && requiredTokenScope(this.reflector, context) !== null) return true;
    if (csrfTokenValid(req)) return true;
    throw new ForbiddenError(CSRF_MESSAGE);
  }
}
