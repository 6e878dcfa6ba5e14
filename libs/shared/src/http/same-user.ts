import type { AppRequest } from './request-context';
import { ForbiddenError } from '../errors';

/**
 * The spec keeps `userId` in paths and queries for compatibility; the user is
 * always the session's, and a different value is refused.
 */
export function assertSameUser(sessionUid: string, userId: unknown): void {
  if (userId === undefined || userId === null || userId === '') return;
  if (userId !== sessionUid) throw new ForbiddenError('userId does not match the signed-in user');
}

/** The values of every `userId` in a URL's query string, however spelled (case, `user_id`, NUL, brackets). */
export function queryUserIds(url: string): string[] {
  const q = url.indexOf('?');
  if (q < 0) return [];
  const hash = url.indexOf('#', q);
  const out: string[] = [];
  try {
    for (const [name, value] of new URLSearchParams(url.slice(q + 1, hash < 0 ? undefined : hash))) {
      const parts = name.normalize('NFKC').toLowerCase().split(/[[\].]+/).map((p) => p.replace(/[^\p{L}\p{N}]/gu, ''));
      if (parts.includes('userid')) out.push(value);
    }
  } catch {
    // an undecodable query string carries no userId we could compare
  }
  return out;
}

/**
 * On every route with a session user (SessionGuard calls it as soon as the user is known): a `userId`
 * in the query string that is not the session user's is 403, whether or not the handler reads it and
 * whatever the body says. (Issue 16: it was a global Nest interceptor, and any global interceptor puts
 * every request through Nest's interceptor chain; BENCHMARKS.md has the measurement.)
 */
export function assertSameUserQuery(req: Pick<AppRequest, 'originalUrl' | 'url'>, sessionUid: string): void {
  for (const value of queryUserIds(req.originalUrl ?? req.url)) assertSameUser(sessionUid, value);
}
