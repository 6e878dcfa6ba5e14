import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ForbiddenError, UnauthorizedError, ValidationError } from '@gridrocket/shared';
import type { Response } from 'express';
import { assertSameUserQuery, type AppRequest, clientIpOf } from '@gridrocket/shared/http';
import { SESSION_COOKIE, SessionService } from './session.service';
import { AccessTokenService } from './access-tokens/access-token.service';
import { bearerOf, requiredTokenScope } from './access-tokens/access-token.scope';

export const BEARER_WITH_COOKIE = 'Send either an access token (Authorization: Bearer) or the session cookie, not both';
export const TOKEN_REFUSED = 'This access token is not valid: it is unknown, revoked or expired';
export const TOKEN_NOT_HERE = 'Access tokens cannot be used here: sign in to the dashboard for this';
export const tokenScopeMissing = (scope: string) => `This access token does not have the ${scope} scope`;

/**
 * Requires a live session, or a personal access token with the route's scope (issue 31); attaches
 * `req.user`. The user never comes from the URL or body: a `userId` in the query string that is not the
 * session user's is refused here, on every route with a session.
 *
 * A request with `Authorization: Bearer` is decided by the token alone, and one that carries the session
 * cookie too is refused (400): which identity should win is not guessed. Its CSRF check is skipped
 * (CsrfGuard): a page of another site cannot make a browser send an Authorization header.
 */
@Injectable()
export class SessionGuard implements CanActivate {
  constructor(
    private readonly sessions: SessionService,
    private readonly tokens: AccessTokenService,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AppRequest>();
    const bearer = bearerOf(req);
    if (bearer !== undefined) {
      if (req.cookies?.[SESSION_COOKIE]) throw new ValidationError([{ field: 'authorization', message: BEARER_WITH_COOKIE }], BEARER_WITH_COOKIE);
      // RFC 6750 section 3 (https://www.rfc-editor.org/rfc/rfc6750#section-3): the challenge names what was wrong
      const challenge = (error: string) => context.switchToHttp().getResponse<Response>().setHeader('WWW-Authenticate', `Bearer realm="gridrocket", error="${error}"`);
      const scope = requiredTokenScope(this.reflector, context);
      if (!scope) {
        challenge('invalid_request');
        throw new UnauthorizedError(TOKEN_NOT_HERE);
      }
      const resolved = await this.tokens.resolve(bearer);
      if (!resolved) {
        challenge('invalid_token');
        throw new UnauthorizedError(TOKEN_REFUSED);
      }
      if (!resolved.scopes.includes(scope)) {
        challenge('insufficient_scope');
        throw new ForbiddenError(tokenScopeMissing(scope));
      }
      req.user = resolved.user;
      this.tokens.noteUsed(resolved.tokenId);
      assertSameUserQuery(req, resolved.user.uid);
      return true;
    }
    const resolved = await this.sessions.resolve(req.cookies?.[SESSION_COOKIE]);
    if (!resolved) throw new UnauthorizedError();
    req.user = resolved.session;
    this.sessions.noteSeen(resolved, clientIpOf(req)); // "last seen" in the list of sessions, off the request path
    assertSameUserQuery(req, resolved.session.uid); // a userId in the query that is not the session user's: 403
    return true;
  }
}
