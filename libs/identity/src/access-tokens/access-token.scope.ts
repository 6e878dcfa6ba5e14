import { ExecutionContext, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { AppRequest } from '@gridrocket/shared/http';
import { handlerChangesState } from '../route-state';
import type { AccessTokenScope } from './access-token.decider';

const SCOPE = 'gridrocket:access-token-scope';
const SESSION_ONLY = 'gridrocket:session-only';

/**
 * Which scope a personal access token needs on this route (issue 31): `trade` on the bot routes that change
 * state, `keys` on the exchange-key routes. Without it a read route (GET, not @StateChanging) needs `read`
 * and a state-changing route takes no token at all (only the session, with CSRF).
 */
export const AccessTokenScopes = (scope: AccessTokenScope) => SetMetadata(SCOPE, scope);
/** The route never takes an access token, only the session (tokens, sessions, two-factor, the profile). */
export const SessionOnly = () => SetMetadata(SESSION_ONLY, true);

/** The scope a token needs on the matched route, or null when tokens are refused there. */
export function requiredTokenScope(reflector: Reflector, context: ExecutionContext): AccessTokenScope | null {
  return tokenScopeOf(reflector, context.getHandler(), context.getClass(), context.switchToHttp().getRequest<AppRequest>().method);
}

/** The same for a handler of a controller class served with `httpMethod`: what the API document declares (issue 31). */
// eslint-disable-next-line @typescript-eslint/ban-types
export function tokenScopeOf(reflector: Reflector, handler: Function, cls: Function, httpMethod: string): AccessTokenScope | null {
  const targets = [handler, cls];
  if (reflector.getAllAndOverride<boolean>(SESSION_ONLY, targets)) return null;
  const scope = reflector.getAllAndOverride<AccessTokenScope | undefined>(SCOPE, targets);
  if (scope) return scope;
  return handlerChangesState(reflector, handler, cls, httpMethod) ? null : 'read';
}

/** The token of an `Authorization: Bearer <token>` header; undefined without one ("" for a malformed one). */
export function bearerOf(req: AppRequest): string | undefined {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const m = /^Bearer[ \t]+(\S*)\s*$/i.exec(header);
  return m ? m[1] : /^Bearer\b/i.test(header) ? '' : undefined;
}
