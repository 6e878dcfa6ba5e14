import type { AppRequest } from './request-context';

export const IDEMPOTENCY_HEADER = 'idempotency-key';

/**
 * What honours the `Idempotency-Key` header on a create: the same key with the same request answers the
 * first answer again and creates nothing more; the same key with a different request is 422 (the API app
 * provides it under IDEMPOTENCY_HANDLER: apps/api/src/idempotency.service.ts). The two creates (bots, API
 * keys) run their work through `idempotently` rather than a Nest interceptor: a route with any
 * interceptor goes through Nest's interceptor chain on every request, with or without the header (issue 16).
 */
export interface IdempotencyHandler {
  /** Runs `work` once per user, route and key: a retry with the same request answers the stored answer. */
  run<T>(req: AppRequest, route: string, work: () => Promise<T>): Promise<T>;
}

export const IDEMPOTENCY_HANDLER = Symbol('IDEMPOTENCY_HANDLER');

/** `work` through the app's handler, or as it is where there is none (a process that serves no HTTP). */
export function idempotently<T>(handler: IdempotencyHandler | undefined, req: AppRequest, route: string, work: () => Promise<T>): Promise<T> {
  return handler ? handler.run(req, route, work) : work();
}

/**
 * The id the created resource takes when the request carries an Idempotency-Key: derived from the user
 * and the key, so even a retry after a crash (before the answer was stored) lands on the same resource
 * instead of a second one. Null without a key.
 */
export function idempotentIdOf(req: AppRequest): string | null {
  return (req as AppRequest & { idempotentId?: string }).idempotentId ?? null;
}
