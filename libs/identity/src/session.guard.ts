import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { UnauthorizedError } from '@gridrocket/shared';
import type { AppRequest } from '@gridrocket/shared/http';
import { SESSION_COOKIE, SessionService } from './session.service';

/** Requires a live session; attaches `req.user`. The user never comes from the URL or body. */
@Injectable()
export class SessionGuard implements CanActivate {
  constructor(private readonly sessions: SessionService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AppRequest>();
    const resolved = await this.sessions.resolve(req.cookies?.[SESSION_COOKIE]);
    if (!resolved) throw new UnauthorizedError();
    req.user = resolved.session;
    return true;
  }
}
