import express from 'express';
import { existsSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';

/** Vite's content-hashed output: a changed file gets a new name, so it may be cached for a year. */
const HASHED = /^\/assets\//;
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
};

function cacheControl(path: string): string {
  if (HASHED.test(path)) return 'public, max-age=31536000, immutable';
  if (path.endsWith('.html')) return 'no-cache';
  return 'public, max-age=3600';
}

/** Which precompressed copy the client accepts: brotli first, then gzip (RFC 9110 Accept-Encoding). */
function acceptedEncoding(header: string | undefined): { ext: string; name: string }[] {
  const accepted = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name, q ? Number(q.slice(2)) : 1);
  }
  const ok = (n: string) => (accepted.get(n) ?? accepted.get('*') ?? 0) > 0;
  return [
    ...(ok('br') ? [{ ext: '.br', name: 'br' }] : []),
    ...(ok('gzip') ? [{ ext: '.gz', name: 'gzip' }] : []),
  ];
}

/**
 * Serves the built dashboard: the `.br` / `.gz` copies written by the build when the client
 * accepts them (Content-Encoding, Vary: Accept-Encoding), hashed assets cached a year as
 * immutable, index.html revalidated on every visit, and index.html for every other GET (the
 * client-side routes).
 */
export function serveDashboard(app: { use: (...handlers: any[]) => unknown }, webDist: string): void {
  const root = normalize(webDist + sep);
  const index = join(webDist, 'index.html');
  const sendFile = (req: express.Request, res: express.Response, file: string, urlPath: string) => {
    const type = TYPES[extname(file)];
    res.setHeader('Vary', 'Accept-Encoding');
    res.setHeader('Cache-Control', cacheControl(urlPath));
    if (type) {
      for (const enc of acceptedEncoding(req.headers['accept-encoding'] as string | undefined)) {
        const packed = file + enc.ext;
        if (existsSync(packed)) {
          res.setHeader('Content-Encoding', enc.name);
          res.setHeader('Content-Type', type);
          return res.sendFile(packed, { headers: { 'Content-Type': type }, cacheControl: false, lastModified: true });
        }
      }
    }
    return res.sendFile(file, { cacheControl: false, lastModified: true });
  };
  app.use((req: express.Request, res: express.Response, next: express.NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.path.startsWith('/api') || req.path.startsWith('/socket.io')) return next();
    let file: string;
    try {
      file = normalize(join(webDist, decodeURIComponent(req.path)));
    } catch {
      return next();
    }
    if (file.startsWith(root) && extname(file) && existsSync(file) && statSync(file).isFile()) return sendFile(req, res, file, req.path);
    if (HASHED.test(req.path)) return res.status(404).end(); // a stale hashed name: never answer it with HTML
    return sendFile(req, res, index, '/index.html');
  });
}
