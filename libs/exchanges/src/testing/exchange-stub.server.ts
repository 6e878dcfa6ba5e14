/**
 * Test helper: a local HTTP server on 127.0.0.1 standing in for an exchange's REST API. Routes are
 * `METHOD /path` (a trailing `*` matches a prefix); `once()` queues canned answers (errors, delays)
 * that win over the routes. Every request is recorded for assertions.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamServer, type StreamRoute } from './standin/stream-server';

export interface StubRequest {
  method: string;
  path: string;
  /** The raw query string without '?'. */
  rawQuery: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface StubResponse {
  status?: number;
  body?: unknown;
  /** Sent as is instead of JSON (e.g. an HTML error page). */
  text?: string;
  /** Extra response headers (e.g. Retry-After). */
  headers?: Record<string, string>;
  delayMs?: number;
}

export type StubHandler = (req: StubRequest) => StubResponse;

export class ExchangeStub {
  readonly requests: StubRequest[] = [];
  private readonly queued: Array<{ method: string; path: string; response: StubResponse; times: number }> = [];

  private constructor(
    private readonly server: Server,
    private readonly routes: Record<string, StubHandler>,
  ) {}

  static async start(routes: Record<string, StubHandler>): Promise<ExchangeStub> {
    let stub!: ExchangeStub;
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        const [path, rawQuery = ''] = (req.url ?? '/').split('?');
        const request: StubRequest = { method: req.method ?? 'GET', path, rawQuery, query: new URLSearchParams(rawQuery), headers: req.headers, body };
        stub.requests.push(request);
        const r = stub.answer(request);
        const send = () => {
          if (res.destroyed) return;
          res.writeHead(r.status ?? 200, { 'content-type': r.text !== undefined ? 'text/html' : 'application/json', ...(r.headers ?? {}) });
          res.end(r.text ?? JSON.stringify(r.body ?? {}));
        };
        if (r.delayMs) setTimeout(send, r.delayMs);
        else send();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    stub = new ExchangeStub(server, routes);
    return stub;
  }

  /** Serves websocket routes on this stub's port (venue streams, issue 39). */
  streams(routes: Record<string, StreamRoute>): StreamServer {
    return new StreamServer(this.server, routes);
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Answer the next `times` requests to `METHOD path` with `response`. */
  once(method: string, path: string, response: StubResponse, times = 1): void {
    this.queued.push({ method, path, response, times });
  }

  /** Requests to a path (and method). */
  calls(method: string, path: string): StubRequest[] {
    return this.requests.filter((r) => r.method === method && (path.endsWith('*') ? r.path.startsWith(path.slice(0, -1)) : r.path === path));
  }

  private answer(req: StubRequest): StubResponse {
    const q = this.queued.find((x) => x.method === req.method && (x.path.endsWith('*') ? req.path.startsWith(x.path.slice(0, -1)) : x.path === req.path));
    if (q) {
      if (--q.times <= 0) this.queued.splice(this.queued.indexOf(q), 1);
      return q.response;
    }
    const exact = this.routes[`${req.method} ${req.path}`];
    if (exact) return exact(req);
    for (const [k, h] of Object.entries(this.routes)) {
      const [m, p] = k.split(' ');
      if (m === req.method && p.endsWith('*') && req.path.startsWith(p.slice(0, -1))) return h(req);
    }
    return { status: 404, body: { code: 404, msg: `stub has no route ${req.method} ${req.path}` } };
  }

  async close(): Promise<void> {
    this.server.closeAllConnections?.();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
