import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

export const CSRF_COOKIE = 'csrf_token';
export const CSRF_HEADER = 'x-csrf-token';

/** GET routes that change state (the spec's start and stop calls) need the token too. */
const UNSAFE_GETS = new Set(['/api/startBot', '/api/stopBot']);

export function csrfCookieOptions(secure: boolean) {
  return { httpOnly: false, sameSite: 'lax' as const, secure, path: '/' };
}

/**
 * Double-submit CSRF protection: a readable `csrf_token` cookie is set on first
 * contact, and every state-changing request must echo it in `X-CSRF-Token`.
 */
export function csrfMiddleware(secure: boolean) {
  return (req: Request, res: Response, next: NextFunction) => {
    let token: string | undefined = req.cookies?.[CSRF_COOKIE];
    if (!token || !/^[A-Za-z0-9_-]{20,100}$/.test(token)) {
      token = randomBytes(24).toString('base64url');
      res.cookie(CSRF_COOKIE, token, csrfCookieOptions(secure));
      req.cookies = { ...(req.cookies ?? {}), [CSRF_COOKIE]: token, __csrfFresh: '1' };
    }
    const unsafe = !['GET', 'HEAD', 'OPTIONS'].includes(req.method) || UNSAFE_GETS.has(req.path);
    if (!unsafe || !req.path.startsWith('/api/')) return next();
    const sent = req.header(CSRF_HEADER);
    const fresh = req.cookies.__csrfFresh === '1';
    if (!fresh && sent && sent.length === token.length && timingSafeEqual(Buffer.from(sent), Buffer.from(token))) return next();
    res.status(403).json({ statusCode: 403, message: 'Missing or invalid CSRF token: send the csrf_token cookie value in the X-CSRF-Token header' });
  };
}
