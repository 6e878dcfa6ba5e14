/**
 * Issue 38, break 1: one oversized candles upload killed the process (the 413 was answered, then the
 * request logger's `finish` listener read `req.ip` after the socket was gone, and the TypeError was
 * uncaught: the API, the embedded runner with every bot, the alerts and the mail outbox stopped).
 *
 * The server runs as its own process here (what `npm start` runs), so that a crash is seen as one and
 * does not take jest with it. What a user would check: the refused upload is answered 413 with its
 * reason, and the server still answers; and a fuzz of every route of the OpenAPI document with
 * oversized, aborted, slow and malformed bodies leaves the server alive, never answering a 5xx, while
 * a health probe beside it is answered within 1 s throughout.
 */
import { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from './support/http-client';
import { spawnServer, stop } from './support/server-process';

jest.setTimeout(50_000); // the file runs in about 20 s; CI's bound is 60 s

const MB = 1024 * 1024;
const CANDLE_LINE = '1700000000000,1,2,0.5,1.5,10\n';

interface RawAnswer {
  status: number | null;
  body: string;
  error?: string;
}

/**
 * One request on its own connection, written as a client would: `chunks` are written one by one
 * (`gapMs` apart: a slow client), then the request ends, or is torn down after the chunks (`abort`).
 * Resolves with the answer or the connection's error; never rejects; bounded by `timeoutMs`.
 */
function rawRequest(
  url: string,
  options: { method: string; path: string; headers?: Record<string, string | number>; chunks?: Array<Buffer | string>; gapMs?: number; abort?: boolean; timeoutMs?: number },
): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    let settled = false;
    const done = (a: RawAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(a);
    };
    const req = http.request({ hostname, port, method: options.method, path: options.path, headers: options.headers, agent: false });
    const timer = setTimeout(() => {
      req.destroy();
      done({ status: null, body: '', error: 'timeout' });
    }, options.timeoutMs ?? 20_000);
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c.length + body.length > 4096 ? '' : c));
      res.on('end', () => done({ status: res.statusCode ?? null, body }));
      res.on('error', (e) => done({ status: res.statusCode ?? null, body, error: e.message }));
    });
    req.on('error', (e) => done({ status: null, body: '', error: (e as NodeJS.ErrnoException).code ?? e.message }));
    const chunks = options.chunks ?? [];
    const write = async () => {
      for (const c of chunks) {
        if (settled || req.destroyed) return;
        const more = req.write(c);
        if (!more) await new Promise((r) => req.once('drain', r).once('close', r));
        if (options.gapMs) await new Promise((r) => setTimeout(r, options.gapMs));
      }
      if (options.abort) {
        req.destroy();
        done({ status: null, body: '', error: 'aborted by the client' });
      } else req.end();
    };
    void write();
  });
}

describe('the process survives every request (issue 38)', () => {
  let dir: string;
  let proc: ChildProcess;
  let url: string;
  let output = '';
  const errorLines = () => output.split('\n').filter((l) => /TypeError|uncaught|Unhandled|"level":"(error|fatal)"/i.test(l));
  let exited: string | null = null;
  let user: Client;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gr-survive-'));
    // LOG_LEVEL info, the default: the request log line is what read the gone socket
    // the embedded defaults (KAFKA_BROKERS empty even where CI sets it): the HTTP surface is what is under test, and
    // a fresh broker's own transient ERROR lines (a partition's leader not elected yet) are not the server's errors
    ({ proc, url } = await spawnServer(dir, { AUTH_THROTTLE: 'off', LOG_LEVEL: 'info', WEB_DIST: join(dir, 'no-web'), KAFKA_BROKERS: '' }));
    // kept: what is not a request's own log line (errors, a crash's stack)
    const keep = (c: Buffer) => {
      for (const line of c.toString().split('\n')) if (line && !line.includes('"msg":"request"')) output += line.slice(0, 2000) + '\n';
    };
    proc.stdout!.on('data', keep);
    proc.stderr!.on('data', keep);
    proc.on('exit', (code, signal) => (exited = `exit ${code} ${signal ?? ''}`));
    user = new Client(url);
    await user.signUp('survivor@example.com');
  });

  afterAll(async () => {
    if (proc) await stop(proc);
    rmSync(dir, { recursive: true, force: true });
  });

  const alive = async () => {
    expect(exited).toBeNull();
    const res = await fetch(`${url}/api/health`);
    expect(res.status).toBe(200);
  };

  const uploadHeaders = () => ({ 'content-type': 'text/csv', cookie: user.cookieHeader(), 'x-csrf-token': user.csrf! });

  it('an upload past 8 MB is answered 413 with its reason, and the server goes on (it died of it before)', async () => {
    const body = Buffer.from(CANDLE_LINE.repeat(Math.ceil((9 * MB) / CANDLE_LINE.length)));
    // announced length past the limit: refused before reading
    const announced = await rawRequest(url, { method: 'POST', path: '/api/backtests/candles', headers: { ...uploadHeaders(), 'content-length': body.length }, chunks: [body] });
    expect(announced.status).toBe(413);
    // chunked, no length: refused when the 8 MB are passed, half-way through the body
    const chunked = await rawRequest(url, {
      method: 'POST',
      path: '/api/backtests/candles',
      headers: { ...uploadHeaders(), 'transfer-encoding': 'chunked' },
      chunks: Array.from({ length: 9 }, (_, i) => body.subarray(i * MB, (i + 1) * MB)),
    });
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body).message).toBe('The CSV is larger than 8 MB');
    // the same through fetch, as the dashboard sends it
    const viaFetch = await fetch(`${url}/api/backtests/candles`, { method: 'POST', headers: uploadHeaders(), body });
    expect(viaFetch.status).toBe(413);
    await new Promise((r) => setTimeout(r, 300)); // the finish listeners of the refused uploads have run
    await alive();
    // and an upload that fits is still taken
    const small = await fetch(`${url}/api/backtests/candles`, { method: 'POST', headers: uploadHeaders(), body: '1700000000000,1,2,0.5,1.5,10\n1700000060000,1.5,2,1,1.2,3\n' });
    expect(small.status).toBe(201);
    expect(errorLines()).toEqual([]);
  });

  it('an upload aborted half-way leaves the server whole', async () => {
    const part = Buffer.from(CANDLE_LINE.repeat(20_000));
    const aborted = await rawRequest(url, { method: 'POST', path: '/api/backtests/candles', headers: { ...uploadHeaders(), 'content-length': 4 * MB }, chunks: [part], abort: true });
    expect(aborted.status).toBeNull();
    await new Promise((r) => setTimeout(r, 300));
    await alive();
    // the client's hang-up is not a server error (it was logged as a 500)
    expect(errorLines()).toEqual([]);
  });

  it('oversized, aborted, slow and malformed bodies to every route: no crash, no 5xx, health within 1 s throughout', async () => {
    const doc = (await user.get('/api/docs-json')).body as { paths: Record<string, Record<string, unknown>> };
    const ops = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => ({ method: m.toUpperCase(), path })));
    expect(ops.length).toBeGreaterThan(50);
    const ID = '00000000-0000-4000-8000-000000000000';
    const pathOf = (p: string) => p.replace(/\{[^}]+\}/g, ID);

    // the probe: GET /api/health every 100 ms on its own connection, each answer timed
    const probes: number[] = [];
    let probing = true;
    const probe = (async () => {
      while (probing) {
        const t0 = performance.now();
        const a = await rawRequest(url, { method: 'GET', path: '/api/health', timeoutMs: 5_000 });
        probes.push(a.status === 200 ? performance.now() - t0 : Number.POSITIVE_INFINITY);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();

    const oversized = Buffer.alloc(9 * MB, 0x61); // past every body limit (JSON 64 KB, signals 8 KB, CSV 8 MB)
    const kinds: Array<{ name: string; headers: Record<string, string | number>; chunks: Array<Buffer | string>; gapMs?: number; abort?: boolean }> = [
      { name: 'oversized', headers: { 'content-type': 'application/json' }, chunks: [oversized] },
      { name: 'malformed JSON', headers: { 'content-type': 'application/json' }, chunks: ['{"a": [1, 2,, }'] },
      { name: 'wrong type', headers: { 'content-type': 'application/x-www-form-urlencoded' }, chunks: ['a=1&b=%ZZ'] },
      { name: 'aborted', headers: { 'content-type': 'application/json', 'content-length': 100_000 }, chunks: ['{"name": "'], abort: true },
      { name: 'slow', headers: { 'content-type': 'application/json' }, chunks: ['{"na', 'me": ', '"slow"', '}'], gapMs: 150 },
      { name: 'lying length', headers: { 'content-type': 'application/json', 'content-length': 10 }, chunks: ['{"a":1}'], abort: true },
    ];
    const serverErrors: string[] = [];
    const work = ops.flatMap((op) => kinds.map((k) => ({ op, k })));
    // bounded concurrency: four connections at a time
    let next = 0;
    const worker = async () => {
      while (next < work.length) {
        const { op, k } = work[next++];
        const headers: Record<string, string | number> = { ...k.headers, cookie: user.cookieHeader(), 'x-csrf-token': user.csrf! };
        if (!('content-length' in k.headers) && op.method !== 'GET' && op.method !== 'HEAD') headers['transfer-encoding'] = 'chunked';
        const a = await rawRequest(url, { method: op.method, path: pathOf(op.path), headers, chunks: op.method === 'GET' || op.method === 'HEAD' ? [] : k.chunks, gapMs: k.gapMs, abort: k.abort });
        if (a.status !== null && a.status >= 500) serverErrors.push(`${op.method} ${op.path} (${k.name}): ${a.status} ${a.body.slice(0, 200)}`);
        expect(exited).toBeNull();
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    probing = false;
    await probe;

    expect(serverErrors).toEqual([]);
    expect(exited).toBeNull();
    await alive();
    expect(probes.length).toBeGreaterThan(5);
    // the issue's own bound: the API answers health within 1 s throughout
    expect(Math.max(...probes)).toBeLessThan(1_000);
    expect(errorLines()).toEqual([]);
  });
});
