import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor, Optional, SetMetadata, UseInterceptors, applyDecorators } from '@nestjs/common';
import type { AppRequest } from './request-context';

export const IDEMPOTENT = 'gridrocket:idempotent';
export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** The interceptor that honours the header (the API app provides it: idempotency.interceptor.ts). */
export const IDEMPOTENCY_HANDLER = Symbol('IDEMPOTENCY_HANDLER');

/**
 * What `@Idempotent()` puts on its route: hands the request to the app's IDEMPOTENCY_HANDLER (none in a
 * process that serves no HTTP). Only the marked routes go through an interceptor: a global one would put
 * every request through Nest's interceptor chain (issue 16).
 */
@Injectable()
export class IdempotencyGate implements NestInterceptor {
  constructor(@Optional() @Inject(IDEMPOTENCY_HANDLER) private readonly handler?: NestInterceptor) {}

  intercept(context: ExecutionContext, next: CallHandler) {
    return this.handler ? this.handler.intercept(context, next) : next.handle();
  }
}

/**
 * Marks a create route that honours the `Idempotency-Key` header: the same key with the same request
 * answers the first answer again and creates nothing more; the same key with a different request is
 * 422. The interceptor lives in the API app (idempotency.interceptor.ts).
 */
export const Idempotent = () => applyDecorators(SetMetadata(IDEMPOTENT, true), UseInterceptors(IdempotencyGate));

/**
 * The id the created resource takes when the request carries an Idempotency-Key: derived from the user
 * and the key, so even a retry after a crash (before the answer was stored) lands on the same resource
 * instead of a second one. Null without a key.
 */
export function idempotentIdOf(req: AppRequest): string | null {
  return (req as AppRequest & { idempotentId?: string }).idempotentId ?? null;
}
