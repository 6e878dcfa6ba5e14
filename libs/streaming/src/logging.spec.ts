import { Logger } from '@nestjs/common';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { correlated } from '@gridrocket/shared';
import { AllExceptionsFilter, AppRequest, correlationIdOf } from '@gridrocket/shared/http';
import { PinoNestLogger, createLogger, loggablePath, requestLogger } from './logging';
import { MetricsService } from './metrics.service';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _enc, cb) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      cb();
    },
  });
  return { lines, destination };
}

describe('JSON logs with correlation ids', () => {
  it('logs one line per request, without query string or body, and sets x-correlation-id', async () => {
    const { lines, destination } = capture();
    const logger = createLogger({ level: 'info', destination });
    const nest = new PinoNestLogger(logger);
    const metrics = new MetricsService({ defaultMetrics: false });
    const app = express();
    app.set('trust proxy', 'loopback'); // the default TRUST_PROXY: a proxy on this host names the client
    app.use(requestLogger(logger, metrics));
    app.use(express.json());
    app.post('/api/things', (req, res) => {
      // a log line written for the request carries its id (passed with the message)
      nest.log(correlated('handling a thing', correlationIdOf(req as AppRequest)), 'ThingsController');
      res.status(201).json({ ok: true });
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const res = await fetch(`${url}/api/things?apiKey=SECRET-IN-QUERY`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-correlation-id': 'corr-123', 'x-forwarded-for': '198.51.100.23' },
        body: JSON.stringify({ password: 'SECRET-IN-BODY' }),
      });
      expect(res.status).toBe(201);
      expect(res.headers.get('x-correlation-id')).toBe('corr-123');
      const generated = await fetch(`${url}/nowhere`);
      expect(generated.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/);
      await new Promise((r) => setTimeout(r, 20));
    } finally {
      server.close();
    }
    const raw = JSON.stringify(lines);
    expect(raw).not.toContain('SECRET-IN-QUERY');
    expect(raw).not.toContain('SECRET-IN-BODY');
    const inside = lines.find((l) => l.msg === 'handling a thing');
    expect(inside).toMatchObject({ level: 'info', context: 'ThingsController', correlationId: 'corr-123', service: 'gridrocket' });
    const requests = lines.filter((l) => l.msg === 'request');
    expect(requests).toHaveLength(2);
    expect(requests[0]).toMatchObject({ level: 'info', context: 'HTTP', method: 'POST', path: '/api/things', status: 201, correlationId: 'corr-123', ip: '198.51.100.23', ms: expect.any(Number) });
    expect(requests[0].time).toEqual(expect.any(String));
    // without the header: the peer itself
    expect(requests[1]).toMatchObject({ method: 'GET', path: '/nowhere', status: 404, ip: '127.0.0.1', correlationId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(await metrics.metrics()).toMatch(/gridrocket_http_requests_total\{method="POST",route="\/api\/things",status="201"\} 1/);
  });

  it('writes Nest logger calls as JSON, errors with their stack, and honours the level', () => {
    const { lines, destination } = capture();
    const nest = new PinoNestLogger(createLogger({ level: 'warn', destination }));
    Logger.overrideLogger(nest);
    try {
      new Logger('Projector').log('not shown at warn');
      new Logger('Projector').warn('lagging');
      new Logger('Projector').error('broke', 'Error: broke\n    at x');
    } finally {
      Logger.overrideLogger(['error', 'warn', 'log']);
    }
    expect(lines.map((l) => [l.level, l.context, l.msg])).toEqual([
      ['warn', 'Projector', 'lagging'],
      ['error', 'Projector', 'broke'],
    ]);
    expect(lines[1].stack).toContain('Error: broke');
  });

  it("logs an unexpected error's stack with the correlation id of the request that met it, and answers a bare 500", () => {
    const { lines, destination } = capture();
    Logger.overrideLogger(new PinoNestLogger(createLogger({ level: 'info', destination })));
    const sent: { status?: number; body?: unknown } = {};
    const res = {
      headersSent: false,
      setHeader: () => undefined,
      status(code: number) {
        sent.status = code;
        return this;
      },
      json(body: unknown) {
        sent.body = body;
      },
    };
    const req = { header: (name: string) => (name === 'x-correlation-id' ? 'corr-500' : undefined) } as unknown as AppRequest;
    const host = { switchToHttp: () => ({ getResponse: () => res, getRequest: () => req }) };
    try {
      new AllExceptionsFilter().catch(new Error('disk on fire'), host as never);
    } finally {
      Logger.overrideLogger(['error', 'warn', 'log']);
    }
    expect(sent).toEqual({ status: 500, body: { statusCode: 500, message: 'Internal server error' } });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'error', context: 'HTTP', correlationId: 'corr-500' });
    expect(lines[0].msg).toContain('Error: disk on fire');
  });

  it("a request whose socket is gone when it finishes is still logged, and a failing log line never throws out of 'finish' (issue 38: the process died of it)", async () => {
    const { lines, destination } = capture();
    const logger = createLogger({ level: 'info', destination });
    const broken = { httpRequest: () => { throw new Error('metrics on fire'); } } as unknown as MetricsService;
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.prependListener('uncaughtException', onUncaught);
    const app = express();
    app.set('trust proxy', 'loopback');
    app.use((req, res, next) => (req.path === '/broken' ? requestLogger(logger, broken)(req, res, next) : requestLogger(logger)(req, res, next)));
    app.post(['/gone', '/broken'], (req, res) => {
      res.status(413).json({ statusCode: 413 });
      // what a torn-down upload left behind: the socket is gone before the response's 'finish', and Express's
      // req.ip (proxy-addr) reads req.socket.remoteAddress on every read
      Object.defineProperty(req, 'socket', { value: null, configurable: true });
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect((await fetch(`${url}/gone`, { method: 'POST', headers: { 'x-forwarded-for': '198.51.100.7' } })).status).toBe(413);
      expect((await fetch(`${url}/broken`, { method: 'POST' })).status).toBe(413);
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      server.close();
      process.off('uncaughtException', onUncaught);
    }
    expect(uncaught).toEqual([]);
    expect(lines.find((l) => l.msg === 'request' && l.path === '/gone')).toMatchObject({ status: 413, ip: '198.51.100.7' });
    expect(lines.find((l) => l.msg === 'request log line failed')).toMatchObject({ level: 'error', correlationId: expect.any(String) });
  });

  it('masks token-like path segments but keeps ids', () => {
    expect(loggablePath('/api/bots/3f0c1d9e-6a2b-4c8d-9e0f-1a2b3c4d5e6f?x=1')).toBe('/api/bots/3f0c1d9e-6a2b-4c8d-9e0f-1a2b3c4d5e6f');
    expect(loggablePath('/api/auth/verify/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-')).toBe('/api/auth/verify/:redacted');
  });
});
