import { ExecutionContext, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { AppRequest } from '@gridrocket/shared/http';

// Whether a matched route changes state: read by CsrfGuard, the auditors' guard and the access-token scopes.

const STATE_CHANGING = 'gridrocket:state-changing';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Marks a GET handler that changes state (the spec's `GET /api/startBot` and `GET /api/stopBot`):
 * it needs the CSRF header like any POST, and auditors may not call it.
 */
export const StateChanging = () => SetMetadata(STATE_CHANGING, true);

/**
 * Whether the matched route changes state: its method is not GET/HEAD/OPTIONS, or its handler is
 * marked @StateChanging(). Read from the route Nest matched, so no spelling of the path escapes it.
 */
export function routeChangesState(reflector: Reflector, context: ExecutionContext): boolean {
  const req = context.switchToHttp().getRequest<AppRequest>();
  if (!SAFE_METHODS.has(req.method.toUpperCase())) return true;
  return reflector.getAllAndOverride<boolean>(STATE_CHANGING, [context.getHandler(), context.getClass()]) === true;
}
