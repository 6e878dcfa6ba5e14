import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { metricsEndpoint } from './logging';
import type { MetricsService } from './metrics.service';

export interface OpsServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * A runner process's own operators' port (issue 41: runners had none): `GET /health` (JSON, open, like the
 * API's /api/health) and `GET /metrics` (Prometheus text, closed unless METRICS_TOKEN or METRICS_PUBLIC opens
 * it, as on the API: metricsEndpoint). Bound to 127.0.0.1 unless told otherwise (RUNNER_HOST); port 0 takes a
 * free one. Nothing else is served: every other path is 404.
 */
export async function serveOps(o: {
  host: string;
  port: number;
  metrics: MetricsService;
  metricsToken?: string | null;
  metricsPublic?: boolean;
  health(): Promise<unknown> | unknown;
}): Promise<OpsServer> {
  const app = express();
  app.disable('x-powered-by');
  app.get('/health', async (_req, res) => {
    try {
      res.setHeader('cache-control', 'no-store');
      res.status(200).json(await o.health());
    } catch (err) {
      res.status(500).json({ status: 'error', message: (err as Error).message });
    }
  });
  app.use(metricsEndpoint(o.metrics, o.metricsToken ?? null, o.metricsPublic ?? false));
  app.use((_req, res) => void res.status(404).json({ statusCode: 404, message: 'Not found: this port serves GET /health and GET /metrics' }));
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(o.port, o.host);
    s.once('listening', () => resolve(s));
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const host = o.host.includes(':') ? `[${o.host}]` : o.host;
  return {
    url: `http://${host}:${port}`,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
