import type { NextFunction, Request, Response } from 'express';

/**
 * Parameter names that carry an exchange secret (the spec's old client sent them in the query).
 * Compared case-insensitively, also as parts of bracketed or dotted names (`access[keySecret]`).
 */
export const SECRET_PARAMETERS = ['keysecret', 'apikey', 'passphrase', 'secretkey', 'secret', 'apisecret', 'password'] as const;

const SECRETS = new Set<string>(SECRET_PARAMETERS);

export const SECRET_IN_QUERY_MESSAGE =
  'Secrets are accepted only in the JSON body of a POST: remove keySecret, apiKey, passPhrase, secretKey and secret from the query string';

/** The secret-bearing parameter names in a URL's query string (names only, never values). */
export function secretParametersIn(url: string): string[] {
  const q = url.indexOf('?');
  if (q < 0) return [];
  const hash = url.indexOf('#', q);
  const query = url.slice(q + 1, hash < 0 ? undefined : hash);
  const found = new Set<string>();
  for (const [name] of new URLSearchParams(query)) {
    // NFKC folds look-alike letters; everything but letters and digits (NUL, spaces, `-`, `_`, other
    // control or format characters) is ignored, so `keySecret%00` and `keySecret%20` count as keySecret.
    const parts = name.normalize('NFKC').toLowerCase().split(/[[\].]+/).filter(Boolean);
    for (const p of parts) {
      const bare = p.replace(/[^\p{L}\p{N}]/gu, '');
      if (SECRETS.has(bare)) found.add(p.replace(/[^\x21-\x7e]/g, '') || bare);
    }
  }
  return [...found];
}

/**
 * Refuses (400) any /api request whose query string carries a secret, before the session guard and
 * the handler run, so that no secret travels on into a URL that proxies and access logs keep.
 * The answer names the parameters, never their values.
 */
export function secretQueryMiddleware(req: Request, res: Response, next: NextFunction) {
  const names = secretParametersIn(req.originalUrl ?? req.url);
  if (names.length === 0) return next();
  res.status(400).json({
    statusCode: 400,
    message: SECRET_IN_QUERY_MESSAGE,
    errors: names.map((field) => ({ field, message: 'Send this parameter in the request body, never in the URL' })),
  });
}
