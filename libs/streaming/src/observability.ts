import type { INestApplication } from '@nestjs/common';
import type { AppConfig } from '@gridrocket/shared/runtime';
import { PinoNestLogger, createLogger, metricsEndpoint, requestLogger } from './logging';
import { MetricsService } from './metrics.service';

/** Nest's logger for the app: JSON lines at the configured level. */
export function appLogger(config: Pick<AppConfig, 'logLevel'>): PinoNestLogger {
  return new PinoNestLogger(createLogger({ level: config.logLevel }));
}

/** Request logs with correlation ids, and GET /metrics, in front of everything else. */
export function installObservability(app: INestApplication, config: Pick<AppConfig, 'logLevel' | 'metricsToken' | 'metricsPublic'>): void {
  const metrics = app.get(MetricsService);
  app.use(requestLogger(createLogger({ level: config.logLevel }), metrics));
  app.use(metricsEndpoint(metrics, config.metricsToken, config.metricsPublic));
}
