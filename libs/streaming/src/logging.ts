import type { LoggerService } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { AppRequest, clientIpOf, correlationIdOf, sameSecret } from '@gridrocket/shared/http';
import type { MetricsService } from './metrics.service';

export { createLogger } from './pino-logger';

type PinoLevel = 'info' | 'error' | 'warn' | 'debug' | 'trace' | 'fatal';

/** Nest's logger methods and the pino level each one writes at. */
const PINO_LEVEL_OF = { log: 'info', error: 'error', warn: 'warn', debug: 'debug', verbose: 'trace', fatal: 'fatal' } as const;
type NestLogMethods = Record<keyof typeof PINO_LEVEL_OF, (message: unknown, ...params: unknown[]) => void>;

/** Nest's LoggerService on pino: `new Logger('Context').log(...)` becomes a JSON line. */
export interface PinoNestLogger extends NestLogMethods {}
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {
    for (const [method, level] of Object.entries(PINO_LEVEL_OF) as [keyof NestLogMethods, PinoLevel][]) {
      this[method] = (message, ...params) => this.write(level, message, params);
    }
  }

  private write(level: PinoLevel, message: unknown, params: unknown[]) {
    if (!this.logger.isLevelEnabled(level)) return;
    const rest = [...params];
    const context = rest.length && typeof rest[rest.length - 1] === 'string' ? (rest.pop() as string) : undefined;
    const fields: Record<string, unknown> = {};
    if (context) fields.context = context;
    if (level === 'error' || level === 'fatal') {
      const stack = rest.find((p) => typeof p === 'string');
      if (stack) fields.stack = stack;
    }
    if (message instanceof Error) {
      fields.err = { message: message.message, stack: message.stack, name: message.name };
      this.logger[level](fields, message.message);
    } else if (typeof message === 'object' && message !== null) {
      this.logger[level]({ ...fields, ...(message as object) });
    } else {
      this.logger[level](fields, String(message));
    }
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The path without query string; long opaque segments (tokens) are masked. */
export function loggablePath(originalUrl: string): string {
  const path = originalUrl.split('?')[0].split('#')[0];
  return path
    .split('/')
    .map((seg) => (seg.length >= 32 && !UUID.test(seg) && /^[A-Za-z0-9_.~%-]+$/.test(seg) ? ':redacted' : seg))
    .join('/')
    .slice(0, 300);
}

/**
 * One JSON line per request (method, path without query string, status, time,
 * user id, correlation id, client address; never the body), the `x-correlation-id` response
 * header (the caller's own when it sent a valid one), and the request metrics. The client address is
 * `req.ip`: behind a proxy that TRUST_PROXY trusts, the address its X-Forwarded-For names (issue 31:
 * the lines carried none, so an operator could not tell who failed a login).
 */
export function requestLogger(logger: Logger, metrics?: MetricsService) {
  const log = logger.child({ context: 'HTTP' });
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    const correlationId = correlationIdOf(req as AppRequest);
    res.setHeader('x-correlation-id', correlationId);
    const ip = clientIpOf(req); // now, while the socket is there (issue 38)
    let done = false;
    // Runs in the response's 'finish'/'close' listeners, outside any request handler: whatever it meets
    // there is logged, never thrown (issue 38: a throw here was uncaught and ended the process).
    const finish = (aborted: boolean) => {
      if (done) return;
      done = true;
      try {
        record(aborted);
      } catch (err) {
        log.error({ correlationId, err }, 'request log line failed');
      }
    };
    const record = (aborted: boolean) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = (req as Request & { route?: { path?: string } }).route?.path;
      // the scrape is its own route (issue 31: it was counted as static traffic)
      const routeLabel =
        typeof route === 'string' ? (req.baseUrl ?? '') + route : req.path === '/metrics' ? '/metrics' : req.originalUrl.startsWith('/api') ? 'unmatched' : 'static';
      metrics?.httpRequest(req.method, routeLabel, res.statusCode, seconds);
      if (!log.isLevelEnabled('info')) return;
      const user = (req as AppRequest).user;
      log.info(
        {
          correlationId,
          ip,
          method: req.method,
          path: loggablePath(req.originalUrl),
          status: res.statusCode,
          ms: Math.round(seconds * 10_000) / 10,
          ...(user ? { uid: user.uid } : {}),
          ...(aborted ? { aborted: true } : {}),
        },
        'request',
      );
    };
    res.on('finish', () => finish(false));
    res.on('close', () => finish(!res.writableFinished));
    next();
  };
}

/**
 * GET /metrics for Prometheus. Closed unless the operator says how it may be read (issue 31: it was
 * public by default): with `token` (METRICS_TOKEN) only with `Authorization: Bearer <token>` (401
 * otherwise, RFC 6750 §3); with no token and `open` (METRICS_PUBLIC=true) to anyone who reaches the
 * port; with neither, 403 with what to set. Loopback binding alone does not open it: a reverse proxy on
 * the same host would publish it.
 */
export function metricsEndpoint(metrics: MetricsService, token?: string | null, open = false) {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (req.path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    if (token) {
      const header = req.header('authorization') ?? '';
      const sent = /^Bearer\s+/i.test(header) ? header.replace(/^Bearer\s+/i, '') : '';
      if (!sent || !sameSecret(sent, token)) {
        res.setHeader('www-authenticate', sent ? 'Bearer realm="metrics", error="invalid_token"' : 'Bearer realm="metrics"');
        res.status(401).json({ statusCode: 401, message: 'A bearer token is needed for /metrics' });
        return;
      }
    } else if (!open) {
      res.status(403).json({ statusCode: 403, message: '/metrics is closed: set METRICS_TOKEN (scrape with Authorization: Bearer <token>) or METRICS_PUBLIC=true' });
      return;
    }
    try {
      const body = await metrics.metrics();
      res.setHeader('content-type', metrics.contentType);
      res.setHeader('cache-control', 'no-store');
      res.status(200).send(body);
    } catch (err) {
      next(err);
    }
  };
}
