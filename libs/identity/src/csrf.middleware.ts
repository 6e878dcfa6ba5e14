import { randomBytes } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

export const CSRF_COOKIE = 'csrf_token';
export const CSRF_HEADER = 'x-csrf-token';
/** Set on the request when this request minted the cookie (so it cannot also carry a matching header). */
export const CSRF_FRESH = '__csrfFresh';

const TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

export function csrfCookieOptions(secure: boolean) {
  return { httpOnly: false, sameSite: 'lax' as const, secure, path: '/' };
}

/**
 * Double-submit CSRF, first half: a readable `csrf_token` cookie is set on first contact. Whether a
 * request must echo it in `X-CSRF-Token` is decided after routing, from the matched route, by
 * CsrfGuard (csrf.guard.ts): never from the path as spelled, which routing may read differently.
 */
export function csrfMiddleware(secure: boolean) {
  return (req: Request, res: Response, next: NextFunction) => {
    const token: string | undefined = req.cookies?.[CSRF_COOKIE];
    if (!token || !TOKEN.test(token)) {
      const fresh = randomBytes(24).toString('base64url');
      res.cookie(CSRF_COOKIE, fresh, csrfCookieOptions(secure));
      req.cookies = { ...(req.cookies ?? {}), [CSRF_COOKIE]: fresh, [CSRF_FRESH]: '1' };
    }
    next();
  };
}
