import 'reflect-metadata';
import { INestApplication, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter, NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import compression from 'compression';
import cookieParser from 'cookie-parser';
import express from 'express';
import helmet from 'helmet';
import { existsSync } from 'node:fs';
import { constants as zlibConstants } from 'node:zlib';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { csrfMiddleware } from '@gridrocket/identity';
import { AppConfig } from '@gridrocket/shared/runtime';
import { AllExceptionsFilter, bodyDepthLimit, toHttpError } from '@gridrocket/shared/http';
import { MailOutboxLifecycle, registerMailOutboxMetrics } from '@gridrocket/identity/nest';
import { AlertDispatcherLifecycle, registerAlertDispatcherMetrics } from '@gridrocket/alerts/nest';
import { ExchangeAccess, registerVenueBudgetMetrics } from '@gridrocket/credentials/nest';
import { signalRawBody } from '@gridrocket/bots/nest';
import { MetricsService } from '@gridrocket/streaming';
import { appLogger, installObservability } from '@gridrocket/streaming/nest';
import { AppModule } from './app.module';
import type { AdapterOverrides } from './infrastructure.module';
import { apiContract } from './openapi/contract';
import { tokenScopes } from './openapi/token-scopes';
import { freshCodeOperations } from './openapi/fresh-code-routes';
import { serveDashboard } from './static-assets';

export interface RunningApp {
  app: INestApplication;
  url: string;
  port: number;
  close(): Promise<void>;
}

const LEVELS: Record<string, LogLevel[]> = {
  silent: [],
  error: ['error', 'fatal'],
  warn: ['error', 'fatal', 'warn'],
  info: ['error', 'fatal', 'warn', 'log'],
  debug: ['error', 'fatal', 'warn', 'log', 'debug', 'verbose'],
};

/**
 * Security headers on every response (helmet). The CSP is what the built dashboard needs: its own
 * scripts only; inline style attributes (React `style`, the chart library); images from itself, data:
 * URIs (bundled icons) and https (profile photos); connections to itself (fetch, socket.io). Framing is
 * refused (frame-ancestors 'none', X-Frame-Options DENY). The opener policy stays open so the
 * Google/Facebook sign-in popup can post its outcome back. HSTS only behind HTTPS (COOKIE_SECURE=true).
 */
export function securityHeaders(config: Pick<AppConfig, 'cookieSecure' | 'publicUrl'>) {
  const publicOrigin = new URL(config.publicUrl);
  const wsOrigin = `${publicOrigin.protocol === 'https:' ? 'wss:' : 'ws:'}//${publicOrigin.host}`;
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", wsOrigin],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(config.cookieSecure ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    crossOriginOpenerPolicy: false,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: config.cookieSecure ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
}

/**
 * Compressed responses (gzip or brotli, as the client accepts) for what compresses well: JSON lists,
 * histories (streamed: compressed as they are written), the chart. Left alone: socket.io (its own
 * framing), bodies under 1 KB, types that are already compressed (images, fonts) and assets served
 * precompressed (they carry their Content-Encoding already).
 */
export function responseCompression() {
  return compression({
    filter: (req, res) => !req.url?.startsWith('/socket.io') && compression.filter(req, res),
    // brotli at quality 1: on a 2.7 MB CSV 5.5 ms for 281 KB, against 29.5 ms for 251 KB at the default 4
    // (and gzip's 16 ms for 302 KB): a history is sent fast, still ten times smaller
    brotli: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 1 } },
  });
}

/** Builds and starts the whole product on one port: API, socket.io, dashboard, embedded runner. */
export async function startApp(config: AppConfig, options: { adapters?: AdapterOverrides } = {}): Promise<RunningApp> {
  // Routing is exact: /API/bots and /api/bots/ are not /api/bots (they answer 404), so no spelling of
  // a path reaches a route that a check keyed on another spelling would miss. Set before any route.
  const server = express();
  server.set('case sensitive routing', true);
  server.set('strict routing', true);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, options.adapters), new ExpressAdapter(server), {
    // JSON lines (pino) at LOG_LEVEL; LEVELS stays the list of accepted level names.
    logger: LEVELS[config.logLevel] ? appLogger(config) : appLogger({ logLevel: 'info' }),
    bodyParser: false,
  });
  // Whose X-Forwarded-For names the client (req.ip), which the auth limits count by: TRUST_PROXY.
  app.set('trust proxy', config.trustProxy);
  app.disable('x-powered-by');
  app.use(securityHeaders(config));
  app.use(responseCompression());
  installObservability(app, config); // x-correlation-id, one JSON log line per request, GET /metrics
  registerMailOutboxMetrics(app.get(MetricsService).registry, app.get(MailOutboxLifecycle).outbox); // gridrocket_mail_outbox_* (issue 31)
  registerAlertDispatcherMetrics(app.get(MetricsService).registry, app.get(AlertDispatcherLifecycle).dispatcher); // gridrocket_alerts_waiting (issue 31)
  registerVenueBudgetMetrics(app.get(MetricsService).registry, app.get(ExchangeAccess)); // gridrocket_venue_budget_* (issue 39)
  // The signal webhook's body stays the bytes sent (its signature covers them): before the JSON parser (issue 32).
  app.use(signalRawBody());
  app.use(express.json({ limit: '64kb' }));
  app.use(bodyDepthLimit()); // a body nested deeper than 32 levels is 400 (issue 28: 5,000 levels overflowed a recursion)
  // Malformed or oversized bodies get the same error shape as every other 4xx.
  app.use((err: unknown, _req: express.Request, res: express.Response, next: express.NextFunction) => {
    if (!err) return next();
    const { status, body } = toHttpError(err);
    res.status(status).json(body);
  });
  app.use(cookieParser());
  // Issues the csrf_token cookie; CsrfGuard (global, after routing) checks the header on state-changing routes.
  app.use(csrfMiddleware(config.cookieSecure));
  app.setGlobalPrefix('api');
  app.useGlobalFilters(new AllExceptionsFilter());
  // No global interceptor (issue 16: each puts every request through Nest's interceptor chain). A userId
  // in the query string that is not the session user's is 403 on every route (SessionGuard); creates
  // of bots and API keys honour the Idempotency-Key header (IdempotencyModule, in AppModule).
  app.enableShutdownHooks();

  // The contract (issue 31): the routes' document completed with the schemas, errors and security a
  // client generator needs (apps/api/src/openapi/contract.ts; docs/api.md).
  const doc = apiContract(SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('GridRocket API')
      .setDescription('Grid trading bots for Binance and Kucoin. State-changing calls need the session cookie and the X-CSRF-Token header.')
      .setVersion('1')
      .build(),
  ), tokenScopes(app), freshCodeOperations(app));
  SwaggerModule.setup('api/docs', app, doc);

  if (existsSync(join(config.webDist, 'index.html'))) {
    serveDashboard(app, config.webDist); // precompressed copies, immutable hashed assets, SPA fallback
  }

  await app.listen(config.port, config.host);
  const port = (app.getHttpServer().address() as AddressInfo).port;
  const url = `http://${config.host}:${port}`;
  return { app, url, port, close: () => app.close() };
}
