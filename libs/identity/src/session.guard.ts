import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { UnauthorizedError } from '@gridrocket/shared';
import { assertSameUserQuery, type AppRequest } from '@gridrocket/shared/http';
import { SESSION_COOKIE, SessionService } from './session.service';

/**
 * Requires a live session; attaches `req.user`. The user never comes from the URL or body: a `userId`
 * in the query string that is not the session user's is refused here, on every route with a session.
 */
@Injectable()
export class SessionGuard implements CanActivate {
  constructor(private readonly sessions: SessionService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AppRequest>();
    const resolved = await this.sessions.resolve(req.cookies?.[SESSION_COOKIE]);
    if (!resolved) throw new UnauthorizedError();
    req.user = resolved.session;
    this.sessions.noteSeen(resolved, req.ip); // "last seen" in the list of sessions, off the request path
    assertSameUserQuery(req, resolved.session.uid); // a userId in the query that is not the session user's: 403
    return true;
  }
}
