import { SetMetadata } from '@nestjs/common';
import type { AppRequest } from './request-context';

export const IDEMPOTENT = 'gridrocket:idempotent';
export const IDEMPOTENCY_HEADER = 'idempotency-key';

/**
 * Marks a create route that honours the `Idempotency-Key` header: the same key with the same request
 * answers the first answer again and creates nothing more; the same key with a different request is
 * 422. The interceptor lives in the API app (idempotency.interceptor.ts).
 */
export const Idempotent = () => SetMetadata(IDEMPOTENT, true);

/**
 * The id the created resource takes when the request carries an Idempotency-Key: derived from the user
 * and the key, so even a retry after a crash (before the answer was stored) lands on the same resource
 * instead of a second one. Null without a key.
 */
export function idempotentIdOf(req: AppRequest): string | null {
  return (req as AppRequest & { idempotentId?: string }).idempotentId ?? null;
}
