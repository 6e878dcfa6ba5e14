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

const SIGNED_REQUEST = 'gridrocket:signed-request';

/**
 * Marks the one route that takes no session and no cookie: a bot's signal webhook (issue 32,
 * docs/signals.md), called by TradingView or a script, which cannot send the CSRF header. Every request
 * to it proves itself with the bot's signal secret (an HMAC, or the secret in the body), checked by the
 * route; a session cookie is never read there, so a page of another site gains nothing by making a
 * browser post to it. CsrfGuard lets a route through without the header only when it bears this mark.
 */
export const SignedRequest = () => SetMetadata(SIGNED_REQUEST, true);

/** Whether the matched route is a signed-request route (see SignedRequest). */
// eslint-disable-next-line @typescript-eslint/ban-types
export function handlerIsSignedRequest(reflector: Reflector, handler: Function, cls: Function): boolean {
  return reflector.getAllAndOverride<boolean>(SIGNED_REQUEST, [handler, cls]) === true;
}

/**
 * Whether the matched route changes state: its method is not GET/HEAD/OPTIONS, or its handler is
 * marked @StateChanging(). Read from the route Nest matched, so no spelling of the path escapes it.
 */
export function routeChangesState(reflector: Reflector, context: ExecutionContext): boolean {
  const req = context.switchToHttp().getRequest<AppRequest>();
  return handlerChangesState(reflector, context.getHandler(), context.getClass(), req.method);
}

/** The same for a handler of a controller class served with `httpMethod` (the API document asks it too). */
// eslint-disable-next-line @typescript-eslint/ban-types
export function handlerChangesState(reflector: Reflector, handler: Function, cls: Function, httpMethod: string): boolean {
  if (!SAFE_METHODS.has(httpMethod.toUpperCase())) return true;
  return reflector.getAllAndOverride<boolean>(STATE_CHANGING, [handler, cls]) === true;
}
