import { ForbiddenError } from '../errors';

/**
 * The spec keeps `userId` in paths and queries for compatibility; the user is
 * always the session's, and a different value is refused.
 */
export function assertSameUser(sessionUid: string, userId: unknown): void {
  if (userId === undefined || userId === null || userId === '') return;
  if (userId !== sessionUid) throw new ForbiddenError('userId does not match the signed-in user');
}
