import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';

type StoreCallback = (err: Error | null, state?: string) => void;
type VerifyCallback = (err: Error | null, ok: boolean | string, info?: unknown) => void;

/**
 * passport-oauth2 state store without server sessions: the `state` (and the
 * PKCE verifier, when used) live in a short-lived, httpOnly, SameSite=Lax
 * cookie scoped to the auth routes. The callback must bring back the same
 * state in its query as the browser holds in the cookie (login CSRF defence);
 * the cookie is single-use.
 */
export class CookieStateStore {
  constructor(
    private readonly cookieName: string,
    private readonly secure: boolean,
    private readonly maxAgeMs = 10 * 60_000,
  ) {}

  // passport-oauth2 chooses the signature by arity: (req, verifier, state, meta, callback).
  store(req: Request, verifier: string | undefined, _state: unknown, _meta: unknown, callback: StoreCallback): void {
    const handle = randomBytes(24).toString('base64url');
    const res = req.res as Response;
    res.cookie(this.cookieName, verifier ? `${handle}.${verifier}` : handle, {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.secure,
      path: '/api/auth',
      maxAge: this.maxAgeMs,
    });
    callback(null, handle);
  }

  // (req, providedState, meta, callback) → ok is the PKCE verifier when there is one.
  verify(req: Request, providedState: string, _meta: unknown, callback: VerifyCallback): void {
    const stored: string | undefined = req.cookies?.[this.cookieName];
    (req.res as Response).clearCookie(this.cookieName, { path: '/api/auth' });
    if (!stored || typeof providedState !== 'string') return callback(null, false, { message: 'Unable to verify authorization request state.' });
    const [handle, verifier] = stored.split('.');
    const a = Buffer.from(handle);
    const b = Buffer.from(providedState);
    if (a.length !== b.length || !timingSafeEqual(a, b)) return callback(null, false, { message: 'Invalid authorization request state.' });
    callback(null, verifier ?? true);
  }
}
