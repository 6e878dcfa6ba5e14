import 'reflect-metadata';
import { INestApplication, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import cookieParser from 'cookie-parser';
import express from 'express';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { csrfMiddleware } from '@gridrocket/identity';
import { AppConfig } from '@gridrocket/shared';
import { AllExceptionsFilter, toHttpError } from '@gridrocket/shared/http';
import { appLogger, installObservability } from '@gridrocket/streaming';
import { AppModule } from './app.module';
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

/** Builds and starts the whole product on one port: API, socket.io, dashboard, embedded runner. */
export async function startApp(config: AppConfig): Promise<RunningApp> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    // JSON lines (pino) at LOG_LEVEL; LEVELS stays the list of accepted level names.
    logger: LEVELS[config.logLevel] ? appLogger(config) : appLogger({ logLevel: 'info' }),
    bodyParser: false,
  });
  app.set('trust proxy', 'loopback');
  app.disable('x-powered-by');
  installObservability(app, config); // x-correlation-id, one JSON log line per request, GET /metrics
  app.use(express.json({ limit: '64kb' }));
  // Malformed or oversized bodies get the same error shape as every other 4xx.
  app.use((err: unknown, _req: express.Request, res: express.Response, next: express.NextFunction) => {
    if (!err) return next();
    const { status, body } = toHttpError(err);
    res.status(status).json(body);
  });
  app.use(cookieParser());
  app.use(csrfMiddleware(config.cookieSecure));
  app.setGlobalPrefix('api');
  app.useGlobalFilters(new AllExceptionsFilter());
  app.enableShutdownHooks();

  const doc = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('GridRocket API')
      .setDescription('Grid trading bots for Binance and Kucoin. State-changing calls need the session cookie and the X-CSRF-Token header.')
      .setVersion('1')
      .build(),
  );
  SwaggerModule.setup('api/docs', app, doc);

  if (existsSync(join(config.webDist, 'index.html'))) {
    serveDashboard(app, config.webDist); // precompressed copies, immutable hashed assets, SPA fallback
  }

  await app.listen(config.port, config.host);
  const port = (app.getHttpServer().address() as AddressInfo).port;
  const url = `http://${config.host}:${port}`;
  return { app, url, port, close: () => app.close() };
}
