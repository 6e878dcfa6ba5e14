// Over 400 lines: every route's answers checked against the OpenAPI document, in one app run.
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import { Authenticator } from './support/authenticator';
import { Client, spotBot } from './support/http-client';
import { until } from '@gridrocket/shared/testing/until';
import { startPaperReplayApp, startTestApp } from './support/test-app';
import { verifyByMail } from './support/mailbox';

type Doc = { openapi: string; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown>; securitySchemes?: Record<string, unknown> } };
type Operation = { operationId: string; parameters?: Array<{ name: string; in: string; required?: boolean }>; requestBody?: unknown; responses: Record<string, { content?: Record<string, { schema?: unknown }>; headers?: Record<string, unknown> }> };
type Answer = { method: string; template: string; status: number; type: string; body: unknown; text: string };


function tokenFromMail(dataDir: string, to: string, path: string): string {
  const dir = join(dataDir, 'mail');
  if (!existsSync(dir)) return '';
  for (const f of readdirSync(dir).sort().reverse()) {
    const raw = readFileSync(join(dir, f), 'utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    if (!raw.includes(`To: ${to}`)) continue;
    const m = new RegExp(`${path}\\?token=([A-Za-z0-9_-]+)`).exec(raw);
    if (m) return m[1];
  }
  return '';
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

function operations(doc: Doc): Array<{ path: string; method: string; op: Operation }> {
  return Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).filter(([m]) => METHODS.includes(m)).map(([method, op]) => ({ path, method, op })));
}

/** Every `$ref` of the document, and whether it points at something. */
function refs(node: unknown, doc: unknown, out: Array<{ ref: string; found: boolean }> = []) {
  if (Array.isArray(node)) node.forEach((n) => refs(n, doc, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') {
        let at: any = doc;
        for (const part of v.replace(/^#\//, '').split('/')) at = at?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
        out.push({ ref: v, found: v.startsWith('#/') && at !== undefined });
      } else refs(v, doc, out);
    }
  }
  return out;
}

/** Where a schema has `required: []` (OpenAPI 3.0's schema forbids it: minItems 1). */
function emptyRequired(node: unknown, at = '#'): string[] {
  if (Array.isArray(node)) return node.flatMap((n, i) => emptyRequired(n, `${at}/${i}`));
  if (!node || typeof node !== 'object') return [];
  const here = Array.isArray((node as { required?: unknown }).required) && (node as { required: unknown[] }).required.length === 0 ? [at] : [];
  return [...here, ...Object.entries(node).flatMap(([k, v]) => emptyRequired(v, `${at}/${k}`))];
}

/**
 * The document's structure as OpenAPI 3.0 requires it, with the rule that fails named (the maintained
 * validator, @apidevtools/swagger-parser, runs too: the test below).
 */
function structuralProblems(doc: Doc): string[] {
  const problems: string[] = [];
  if (!/^3\.0\.\d+$/.test(doc.openapi)) problems.push(`openapi ${doc.openapi} is not 3.0.x`);
  const shapes = new Map<string, string>();
  for (const path of Object.keys(doc.paths)) {
    // OpenAPI 3: "Templated paths with the same hierarchy but different templated names MUST NOT exist"
    const shape = path.replace(/\{[^}]+\}/g, '{}');
    if (shapes.has(shape)) problems.push(`${path} and ${shapes.get(shape)} differ only by parameter names`);
    shapes.set(shape, path);
  }
  for (const { path, method, op } of operations(doc)) {
    const at = `${method.toUpperCase()} ${path}`;
    const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
    const declared = (op.parameters ?? []).filter((p) => p.in === 'path');
    if (JSON.stringify(declared.map((p) => p.name).sort()) !== JSON.stringify(inPath)) problems.push(`${at}: path parameters ${JSON.stringify(declared.map((p) => p.name))} are not the template's ${JSON.stringify(inPath)}`);
    if (declared.some((p) => p.required !== true)) problems.push(`${at}: a path parameter must be required`);
    const seen = new Set<string>();
    for (const p of op.parameters ?? []) {
      if (!['query', 'header', 'path', 'cookie'].includes(p.in)) problems.push(`${at}: parameter ${p.name} in ${p.in}`);
      if (seen.has(`${p.in}:${p.name.toLowerCase()}`)) problems.push(`${at}: parameter ${p.in}:${p.name} twice`);
      seen.add(`${p.in}:${p.name.toLowerCase()}`);
      if (!(p as { schema?: unknown }).schema) problems.push(`${at}: parameter ${p.name} has no schema`);
    }
    if (!op.responses || Object.keys(op.responses).length === 0) problems.push(`${at}: no responses`);
    for (const [status, r] of Object.entries(op.responses ?? {})) {
      if (!/^([1-5]\d\d|[1-5]XX|default)$/.test(status)) problems.push(`${at}: response key ${status}`);
      if (typeof (r as { description?: unknown }).description !== 'string') problems.push(`${at} ${status}: a response needs a description`);
    }
    for (const s of (op as { security?: Array<Record<string, unknown>> }).security ?? []) {
      for (const name of Object.keys(s)) if (!doc.components.securitySchemes?.[name]) problems.push(`${at}: security scheme ${name} is not declared`);
    }
  }
  for (const { ref, found } of refs(doc, doc)) if (!found) problems.push(`$ref ${ref} points nowhere`);
  for (const at of emptyRequired(doc)) problems.push(`${at}: required must list at least one name`);
  return problems;
}

/** The product's own lint rules, stricter than Redocly's recommended set (which runs too: the test below). */
function lintProblems(doc: Doc): string[] {
  const problems: string[] = [];
  const ids = new Map<string, string>();
  for (const { path, method, op } of operations(doc)) {
    const at = `${method.toUpperCase()} ${path}`;
    if (!op.operationId) problems.push(`${at}: no operationId`);
    else if (ids.has(op.operationId)) problems.push(`${at}: operationId ${op.operationId} also on ${ids.get(op.operationId)}`);
    ids.set(op.operationId, at);
    const statuses = Object.keys(op.responses);
    const ok = statuses.filter((s) => s.startsWith('2'));
    if (ok.length === 0) problems.push(`${at}: no 2xx answer`);
    for (const s of ok) if (s !== '204' && !op.responses[s].content) problems.push(`${at}: the ${s} answer has no schema`);
    const takesInput = (op.parameters ?? []).length > 0 || op.requestBody !== undefined || ((op as { security?: unknown[] }).security ?? []).length > 0;
    if (takesInput && !statuses.some((s) => s.startsWith('4'))) problems.push(`${at}: no 4xx answer documented`);
    for (const s of statuses.filter((x) => x.startsWith('4'))) {
      if (op.responses[s].content?.['application/json']?.schema === undefined) problems.push(`${at}: the ${s} answer has no schema`);
    }
    if (['post', 'put', 'patch'].includes(method) && !op.requestBody && !['AuthController_resendVerification', 'AuthController_logout', 'SessionsController_signOutOthers', 'TwoFactorController_setup', 'BotsController_check'].includes(op.operationId)) {
      problems.push(`${at}: a ${method.toUpperCase()} without a requestBody`);
    }
    if (!(op as { security?: unknown }).security) problems.push(`${at}: security not stated`);
    if (!(op as { summary?: string }).summary) problems.push(`${at}: no summary`);
  }
  if (Object.keys(doc.components.schemas ?? {}).length === 0) problems.push('components.schemas is empty');
  return problems;
}

describe('the OpenAPI contract: every route answers as the document says', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  let doc: Doc;
  const answers: Answer[] = [];

  beforeAll(async () => {
    app = await startTestApp({ AUTH_THROTTLE: 'off', AUDITOR_EMAILS: 'contract-audit@example.com' });
    doc = (await (await fetch(`${app.url}/api/docs-json`)).json()) as Doc;
  }, 60_000);
  afterAll(async () => {
    if (process.env.CONTRACT_DUMP) writeFileSync(process.env.CONTRACT_DUMP, JSON.stringify(answers.map((a) => ({ ...a, text: a.text.slice(0, 600) })), null, 1));
    await app?.close();
  });

  it('is a well-formed OpenAPI 3.0 document whose schemas compile', () => {
    expect(structuralProblems(doc)).toEqual([]);
    const ajv = contractAjv(doc);
    for (const name of Object.keys(doc.components.schemas)) expect(() => ajv.getSchema(`contract#/components/schemas/${name}`)).not.toThrow();
    // the request bodies come from the zod rules: e.g. the bot form's bounds and required fields
    const createBot = doc.components.schemas.CreateBot as { required: string[]; properties: Record<string, { type?: string; minLength?: number; enum?: string[] }> };
    expect(createBot.required).toEqual(expect.arrayContaining(['exchange', 'symbol', 'botType', 'numOfOrders', 'interval', 'entryPrice']));
    expect(createBot.required).not.toContain('leverage');
    // issue 40: an investment may size the orders, and a neutral grid has no take profit: each says when it is required
    for (const k of ['orderSize', 'takeProfit']) {
      expect(createBot.required).not.toContain(k);
      expect((createBot.properties[k] as { description?: string }).description).toContain('required unless');
    }
    expect(Object.keys(createBot.properties)).toEqual(expect.arrayContaining(['name', 'investment']));
    expect(createBot.properties.botType.enum).toEqual(['Spot', 'Futures']);
    // the numbers are numbers for a client (the rule takes their text too: documentedAs in bot.rules.ts)
    expect(createBot.properties.numOfOrders.type).toBe('integer');
    expect(createBot.properties.entryPrice.type).toBe('number');
    expect((doc.components.schemas.Register as { properties: Record<string, { minLength?: number; maxLength?: number }> }).properties.password).toMatchObject({ minLength: 8, maxLength: 30 });
  });

  it('lints clean: unique operationIds, a 2xx and 4xx with schemas, bodies, security, the merged paths', () => {
    expect(lintProblems(doc)).toEqual([]);
    expect(Object.keys(doc.paths)).not.toContain('/api/bots/{userId}');
    expect(Object.keys(doc.paths['/api/bots/{id}']).sort()).toEqual(['delete', 'get', 'put']);
    expect(Object.keys(doc.paths['/api/api-credentials/{id}']).sort()).toEqual(['delete', 'get']);
    const stop = doc.paths['/api/stopBot'].get.parameters!;
    expect(stop.filter((p) => p.required).map((p) => p.name).sort()).toEqual(['cancelAllOrders', 'id']);
    expect(doc.paths['/api/priceSpot'].get.parameters!.filter((p) => p.required).map((p) => p.name).sort()).toEqual(['exchange', 'symbol']);
    expect(doc.paths['/api/bots/{id}'].put.parameters!.map((p) => p.name)).toContain('If-Match');
    expect(doc.paths['/api/bots'].post.parameters!.map((p) => p.name)).toContain('Idempotency-Key');
    expect(Object.keys(doc.paths['/api/bots/{id}/history'].get.responses['200'].content!).sort()).toEqual(['application/json', 'application/x-ndjson', 'text/csv']);
    expect(doc.components.securitySchemes).toMatchObject({ session: { type: 'apiKey', in: 'cookie' }, csrf: { type: 'apiKey', in: 'header', name: 'X-CSRF-Token' } });
  });

  it('passes the maintained validator and linter: @apidevtools/swagger-parser validate() and Redocly\'s recommended rules, no errors', () => {
    // scripts/openapi/check.mjs runs both (they are ESM: a child process, as `npm run api:check` runs it)
    const dir = mkdtempSync(join(tmpdir(), 'gr-openapi-'));
    try {
      const file = join(dir, 'gridrocket.openapi.json');
      writeFileSync(file, JSON.stringify(doc));
      const run = spawnSync(process.execPath, [join(__dirname, '..', 'scripts', 'openapi', 'check.mjs'), file, '--json'], { encoding: 'utf8' });
      const result = JSON.parse(run.stdout) as { validator: { valid: boolean; message: string }; lint: { errors: Array<{ rule: string; at: string; message: string }>; warnings: Array<{ rule: string; at: string }> } };
      expect(result.validator).toEqual({ valid: true, message: '' });
      expect(result.lint.errors).toEqual([]);
      // the warnings left, each a choice: no licence to state (the product is UNLICENSED), and health,
      // config and the CSRF token have no 4xx answer because they have none
      expect(result.lint.warnings.map((w) => `${w.rule} ${w.at}`).sort()).toEqual([
        'info-license #/info',
        'operation-4xx-response #/paths/~1api~1auth~1csrf/get/responses',
        'operation-4xx-response #/paths/~1api~1config/get/responses',
        'operation-4xx-response #/paths/~1api~1health/get/responses',
      ]);
      expect(run.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('the committed TypeScript client (clients/typescript) is what openapi-typescript generates from this document', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gr-openapi-'));
    try {
      const file = join(dir, 'gridrocket.openapi.json');
      writeFileSync(file, JSON.stringify(doc));
      const run = spawnSync(process.execPath, [join(__dirname, '..', 'scripts', 'openapi', 'generate-client.mjs'), file], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      expect(run.stderr).toBe('');
      const committed = readFileSync(join(__dirname, '..', 'clients', 'typescript', 'gridrocket-api.d.ts'), 'utf8');
      // when this fails the routes changed: `npm run api:client` regenerates the file
      expect(run.stdout === committed ? 'same' : 'the routes changed: run npm run api:client').toBe('same');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  /** Calls a route: `template` is the document's path, `fill` its parameters on the wire. */
  async function call(c: Client, method: string, template: string, opts: { fill?: Record<string, string>; query?: string; body?: unknown; raw?: string; headers?: Record<string, string>; csrf?: boolean } = {}) {
    let path = template;
    for (const [k, v] of Object.entries(opts.fill ?? {})) path = path.replace(`{${k}}`, v);
    const url = path + (opts.query ? `?${opts.query}` : '');
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    let body: string | undefined = opts.raw;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await c.raw(method, url, { body, headers, csrf: opts.csrf });
    const type = (res.headers.get('content-type') ?? '').split(';')[0].trim();
    answers.push({ method: method.toLowerCase(), template, status: res.status, type, body: res.body, text: res.text });
    return res;
  }

  it('a bot that trades: its fills, money, chart, history and alert deliveries answer as documented', async () => {
    // the paper exchange replays a price path (as test/money.spec.ts): three buy/sell cycles
    const H = 3_600_000;
    const T0 = 1_700_000_000_000;
    const PATH = [30.5, 29.9, 30.4, 29.5, 28.9, 30.0, 29.9, 30.4];
    const replay = await startPaperReplayApp(['ms,exchange,symbol,price', ...PATH.map((p, i) => `${T0 + i * H},Binance,AVAXUSDT,${p}`)].join('\n'), T0);
    const first = answers.length;
    try {
      const c = new Client(replay.app.url);
      const uid = (await c.signUp('contract-trader@example.com')).uid;
      await c.addKey(uid, 'Binance');
      expect((await call(c, 'PUT', '/api/alerts/{userId}', { fill: { userId: uid }, body: { kinds: ['cycle'], email: { enabled: true } } })).status).toBe(200);
      const created = await call(c, 'POST', '/api/bots', { body: { exchange: 'Binance', symbol: 'AVAXUSDT', botType: 'Spot', numOfOrders: 2, orderSize: '10', interval: 1, entryPrice: 30, takeProfit: 1 } });
      const id = created.body.id as string;
      expect((await call(c, 'GET', '/api/startBot', { query: `id=${id}` })).status).toBe(202);
      await until('running', async () => (await c.get(`/api/bot-details/${id}`)).body.botstatus === true, 30_000);
      for (let k = 1; k < PATH.length; k++) {
        replay.venue.advanceTo(T0 + k * H);
        await until(`${k} fills`, async () => (await c.get(`/api/bots/${id}/trades?limit=1`)).body.total >= k, 30_000);
      }
      await until('three cycles', async () => (await c.get(`/api/bots/${id}/performance`)).body.cyclesCompleted === 3, 30_000);
      await until('a cycle alert delivered', async () => (await c.get(`/api/alerts/${uid}/deliveries`)).body.length > 0, 30_000);
      const trades = await call(c, 'GET', '/api/bots/{id}/trades', { fill: { id }, query: 'limit=100' });
      expect(trades.body.items.length).toBe(7);
      await call(c, 'GET', '/api/bots/{id}/trades.csv', { fill: { id } });
      expect((await call(c, 'GET', '/api/bots/{id}/performance', { fill: { id } })).body.equity.length).toBeGreaterThan(0);
      await call(c, 'GET', '/api/performance');
      expect((await call(c, 'GET', '/api/bots/{id}/chart', { fill: { id } })).body.fills.length).toBeGreaterThan(0);
      await call(c, 'GET', '/api/bots/{id}/summary', { fill: { id } });
      await call(c, 'GET', '/api/bots-overview');
      await call(c, 'GET', '/api/bot-details/{id}', { fill: { id } });
      for (const format of ['json', 'ndjson', 'csv']) await call(c, 'GET', '/api/bots/{id}/history', { fill: { id }, query: `format=${format}` });
      await call(c, 'GET', '/api/bots/{id}/state', { fill: { id } });
      expect((await call(c, 'GET', '/api/alerts/{userId}/deliveries', { fill: { userId: uid } })).body.length).toBeGreaterThan(0);
      await call(c, 'POST', '/api/bots/{id}/check', { fill: { id } });
      await call(c, 'GET', '/api/stopBot', { query: `id=${id}&cancelAllOrders=true&closePosition=true` });
      expect(answerProblems(doc, answers.slice(first))).toEqual([]);
    } finally {
      await replay.close();
    }
  }, 120_000);

  it('calls every route of the document, with answers of 2xx and 4xx', async () => {
    const anon = new Client(app.url);
    const nobody = new Client(app.url); // never signed in: the 401s
    const u = new Client(app.url);
    const other = new Client(app.url);
    // auth
    await call(anon, 'GET', '/api/health');
    await call(anon, 'GET', '/api/config');
    await call(anon, 'GET', '/api/auth/csrf');
    const reg = await call(u, 'POST', '/api/auth/register', { body: { email: 'contract@example.com', password: 'correct-horse-1' } });
    expect(reg.status).toBe(201);
    const uid = reg.body.uid as string;
    await call(anon, 'POST', '/api/auth/register', { body: { email: 'x', password: '1' } });
    await call(u, 'POST', '/api/auth/register', { body: { email: 'contract@example.com', password: 'correct-horse-1' }, csrf: false });
    const otherUid = (await other.signUp('contract-other@example.com')).uid;
    await call(anon, 'POST', '/api/auth/login', { body: { email: 'contract@example.com', password: 'wrong-password-1' } });
    await call(anon, 'POST', '/api/auth/login', { body: { email: 'contract@example.com', password: 'correct-horse-1' } });
    await call(anon, 'POST', '/api/auth/login', { body: {} });
    await call(u, 'POST', '/api/auth/verify-email', { body: { token: 'not-a-token' } });
    await call(u, 'POST', '/api/auth/verify-email', { body: {} });
    const verifyToken = tokenFromMail(app.dataDir, 'contract@example.com', '/verify-email-address');
    expect(verifyToken).not.toBe('');
    await call(u, 'POST', '/api/auth/verify-email', { body: { token: verifyToken } });
    await call(u, 'POST', '/api/auth/resend-verification');
    await call(nobody, 'POST', '/api/auth/resend-verification');
    await call(anon, 'POST', '/api/auth/forgot-password', { body: { email: 'contract@example.com' } });
    await call(anon, 'POST', '/api/auth/forgot-password', { body: { email: 'no' } });
    await call(anon, 'POST', '/api/auth/reset-password', { body: { token: 'not-a-token', password: 'correct-horse-2' } });
    await call(anon, 'POST', '/api/auth/reset-password', { body: {} });
    await call(u, 'GET', '/api/auth/me');
    await call(nobody, 'GET', '/api/auth/me');
    await call(u, 'POST', '/api/user', { body: { firstname: 'Ann', lastname: 'Lee', username: 'ann', picurl: 'https://example.com/a.png' } });
    await call(u, 'POST', '/api/user', { body: { picurl: 'ftp://x' } });
    await call(u, 'POST', '/api/user', { body: { userId: otherUid, username: 'x' } });
    // personal access tokens (issue 31)
    const made = await call(u, 'POST', '/api/tokens', { body: { name: 'contract script', scopes: ['read'], expiresInDays: 7 } });
    await call(u, 'POST', '/api/tokens', { body: { name: '', scopes: ['everything'], expiresInDays: 2 } });
    await call(u, 'GET', '/api/tokens');
    await call(nobody, 'GET', '/api/tokens');
    await call(u, 'DELETE', '/api/tokens/{id}', { fill: { id: String(made.body?.id ?? 'none') } });
    await call(u, 'DELETE', '/api/tokens/{id}', { fill: { id: 'no-such-token' } });

    // sessions
    const second = new Client(app.url);
    await second.post('/api/auth/login', { email: 'contract@example.com', password: 'correct-horse-1' });
    const sessions = await call(u, 'GET', '/api/sessions');
    await call(nobody, 'GET', '/api/sessions');
    const otherSession = (sessions.body.sessions as Array<{ id: string; current: boolean }>).find((s) => !s.current)?.id ?? 'none';
    await call(u, 'DELETE', '/api/sessions/{id}', { fill: { id: otherSession } });
    await call(u, 'DELETE', '/api/sessions/{id}', { fill: { id: 'no-such-session' } });
    await call(u, 'POST', '/api/sessions/sign-out-others');
    await call(nobody, 'POST', '/api/sessions/sign-out-others');
    // keys
    const access = { exchange: 'Binance', apiKey: 'contract-key-000001', keySecret: 'contract-secret-000001', passPhrase: '' };
    const key = await call(u, 'POST', '/api/api-credentials', { body: { access }, headers: { 'idempotency-key': 'contract-key-1' } });
    expect(key.status).toBe(201);
    await call(u, 'POST', '/api/api-credentials', { body: { access: { ...access, apiKey: 'x' } } });
    await call(u, 'POST', '/api/api-credentials', { body: { access }, headers: { 'idempotency-key': 'contract-key-1' }, csrf: false });
    await call(u, 'GET', '/api/api-credentials/{id}', { fill: { id: uid } });
    await call(u, 'GET', '/api/api-credentials/{id}', { fill: { id: otherUid } });
    // bots
    const bot = await call(u, 'POST', '/api/bots', { body: { ...spotBot }, headers: { 'idempotency-key': 'contract-bot-1' } });
    expect(bot.status).toBe(201);
    const botId = bot.body.id as string;
    await call(u, 'POST', '/api/bots', { body: { ...spotBot, takeProfit: 0 } });
    await call(u, 'POST', '/api/bots', { body: { ...spotBot, numOfOrders: 6 }, headers: { 'idempotency-key': 'contract-bot-1' } });
    await call(u, 'GET', '/api/bots/{id}', { fill: { id: uid } });
    await call(u, 'GET', '/api/bots/{id}', { fill: { id: otherUid } });
    await call(u, 'GET', '/api/bots', { query: 'limit=10&offset=0' });
    await call(u, 'GET', '/api/bots', { query: 'limit=1000' });
    const details = await call(u, 'GET', '/api/bot-details/{id}', { fill: { id: botId } });
    const etag = details.headers.get('etag')!;
    expect(etag).toMatch(/^"\d+"$/);
    await call(u, 'GET', '/api/bot-details/{id}', { fill: { id: 'nope' } });
    const edit = { exchange: 'Binance', numOfOrders: 4, orderSize: 0.01, interval: 100, entryPrice: 60000, takeProfit: 1 };
    await call(u, 'PUT', '/api/bots/{id}', { fill: { id: botId }, body: edit, headers: { 'if-match': etag } });
    await call(u, 'PUT', '/api/bots/{id}', { fill: { id: botId }, body: edit, headers: { 'if-match': etag } }); // stale: 412
    await call(u, 'PUT', '/api/bots/{id}', { fill: { id: botId }, body: { ...edit, numOfOrders: 0 } });
    await call(u, 'GET', '/api/market-rules', { query: 'exchange=Binance&symbol=BTCUSDT&botType=Spot' });
    await call(u, 'GET', '/api/market-rules', { query: 'exchange=Nope' });
    await call(u, 'GET', '/api/bot-capacity', { query: 'exchange=Binance&symbol=BTCUSDT&botType=Spot&numOfOrders=5' });
    await call(u, 'GET', '/api/bot-capacity', { query: 'exchange=Nope&symbol=BTCUSDT&numOfOrders=0' });
    await call(u, 'GET', '/api/bot-capacity', { query: `exchange=Binance&symbol=BTCUSDT&numOfOrders=5&id=${botId}` });
    await call(other, 'GET', '/api/bot-capacity', { query: `exchange=Binance&symbol=BTCUSDT&numOfOrders=5&id=${botId}` }); // not theirs: 404
    await call(u, 'GET', '/api/bot-capacity/{id}', { fill: { id: botId } });
    await call(other, 'GET', '/api/bot-capacity/{id}', { fill: { id: botId } });
    await call(u, 'GET', '/api/startBot', { query: `id=${botId}&userId=${uid}` });
    await call(u, 'GET', '/api/startBot', { query: `id=${botId}&userId=${otherUid}` });
    await call(u, 'GET', '/api/startBot', { query: 'id=nope' });
    // the embedded runner takes the bot to running on the paper exchange: then it can be checked
    for (let i = 0; i < 100 && (await u.get(`/api/bot-details/${botId}`)).body.state !== 'running'; i++) await new Promise((r) => setTimeout(r, 100));
    await call(u, 'POST', '/api/bots/{id}/check', { fill: { id: botId } });
    await call(u, 'GET', '/api/stopBot', { query: `id=${botId}&userId=${uid}&cancelAllOrders=true` });
    await call(u, 'GET', '/api/stopBot', { query: `id=${botId}&cancelAllOrders=maybe` });
    await call(u, 'POST', '/api/bots/{id}/check', { fill: { id: botId } }); // stopped: 409
    await call(u, 'GET', '/api/bots/{id}/chart', { fill: { id: botId } });
    await call(u, 'GET', '/api/bots/{id}/chart', { fill: { id: 'nope' } });
    await call(u, 'GET', '/api/bots/{id}/summary', { fill: { id: botId } });
    await call(u, 'GET', '/api/bots/{id}/summary', { fill: { id: 'nope' } });
    await call(u, 'GET', '/api/bots-overview');
    await call(nobody, 'GET', '/api/bots-overview');
    await call(u, 'GET', '/api/bots/{id}/trades', { fill: { id: botId } });
    await call(u, 'GET', '/api/bots/{id}/trades', { fill: { id: botId }, query: 'limit=0' });
    await call(u, 'GET', '/api/bots/{id}/trades.csv', { fill: { id: botId } });
    await call(u, 'GET', '/api/bots/{id}/trades.csv', { fill: { id: 'nope' } });
    await call(u, 'GET', '/api/bots/{id}/performance', { fill: { id: botId } });
    await call(u, 'GET', '/api/bots/{id}/performance', { fill: { id: 'nope' } });
    await call(u, 'GET', '/api/performance');
    await call(nobody, 'GET', '/api/performance');
    // signed signals (issue 32): the owner's settings, and the webhook as a script calls it (no cookie)
    await call(u, 'GET', '/api/bots/{id}/signals', { fill: { id: botId } });
    await call(u, 'GET', '/api/bots/{id}/signals', { fill: { id: 'nope' } });
    await call(u, 'POST', '/api/bots/{id}/signals', { fill: { id: botId }, body: { allowBodySecret: 'yes' } });
    expect((await call(u, 'POST', '/api/bots/{id}/signals', { fill: { id: botId }, body: {} })).status).toBe(201);
    const rotated = await call(u, 'POST', '/api/bots/{id}/signals/rotate', { fill: { id: botId }, body: { allowBodySecret: true } });
    // issue 40: the owner's choice for a held position
    expect((await call(u, 'PATCH', '/api/bots/{id}/signals', { fill: { id: botId }, body: { heldPosition: 'resume' } })).status).toBe(200);
    await call(u, 'PATCH', '/api/bots/{id}/signals', { fill: { id: botId }, body: { heldPosition: 'later' } });
    await call(u, 'PATCH', '/api/bots/{id}/signals', { fill: { id: 'nope' }, body: { heldPosition: 'refuse' } });
    await call(u, 'POST', '/api/bots/{id}/signals/rotate', { fill: { id: 'nope' }, body: {} });
    const signalTs = String(Math.floor(Date.now() / 1000));
    const signalBody = JSON.stringify({ action: 'stop' });
    const signalHeaders = { 'content-type': 'application/json', 'x-signal-timestamp': signalTs, 'x-signal-id': 'contract-1', 'x-signature': `sha256=${createHmac('sha256', String(rotated.body.secret)).update(`${signalTs}.${signalBody}`).digest('hex')}` };
    expect((await call(nobody, 'POST', '/api/signals/{botId}', { fill: { botId }, raw: signalBody, headers: signalHeaders, csrf: false })).status).toBe(202);
    await call(nobody, 'POST', '/api/signals/{botId}', { fill: { botId }, raw: signalBody, headers: signalHeaders, csrf: false }); // the same id: 409
    await call(nobody, 'POST', '/api/signals/{botId}', { fill: { botId }, raw: 'start', headers: { 'content-type': 'text/plain' }, csrf: false }); // unsigned: 400
    await call(nobody, 'POST', '/api/signals/{botId}', { fill: { botId }, raw: signalBody, headers: { ...signalHeaders, 'x-signal-id': 'contract-2', 'x-signature': `sha256=${'0'.repeat(64)}` }, csrf: false }); // 401
    await call(u, 'DELETE', '/api/bots/{id}/signals', { fill: { id: botId } });
    await call(u, 'DELETE', '/api/bots/{id}/signals', { fill: { id: 'nope' } });
    await call(nobody, 'POST', '/api/signals/{botId}', { fill: { botId }, raw: signalBody, headers: signalHeaders, csrf: false }); // disabled: 404
    for (const format of ['json', 'ndjson', 'csv']) await call(u, 'GET', '/api/bots/{id}/history', { fill: { id: botId }, query: `format=${format}` });
    await call(u, 'GET', '/api/bots/{id}/history', { fill: { id: botId }, query: 'format=xml' });
    await call(u, 'GET', '/api/bots/{id}/state', { fill: { id: botId } });
    await call(u, 'GET', '/api/bots/{id}/state', { fill: { id: botId }, query: 'at=yesterday' });
    // exchanges
    await call(u, 'GET', '/api/exchange-mode');
    await call(nobody, 'GET', '/api/exchange-mode');
    for (const route of ['/api/balanceSpot', '/api/balanceFutures', '/api/priceSpot', '/api/priceFutures', '/api/futuresPositionRisk']) {
      await call(u, 'GET', route, { query: 'exchange=Binance&symbol=BTCUSDT' });
      await call(u, 'GET', route, { query: 'exchange=Nope&symbol=BTCUSDT' });
    }
    // the balances page and the auditors' list (issue 40)
    await call(u, 'GET', '/api/balances');
    await call(u, 'GET', '/api/balances', { query: 'market=margin' });
    await call(nobody, 'GET', '/api/balances');
    const auditor = new Client(app.url);
    await auditor.signUp('contract-audit@example.com');
    await verifyByMail(auditor, app.dataDir, 'contract-audit@example.com');
    await call(u, 'GET', '/api/audit/me');
    await call(nobody, 'GET', '/api/audit/me');
    await call(auditor, 'GET', '/api/audit/bots', { query: `exchange=Binance&limit=5` });
    await call(auditor, 'GET', '/api/audit/bots', { query: 'status=paused' });
    await call(u, 'GET', '/api/audit/bots');
    await call(auditor, 'GET', '/api/audit/bots/{id}', { fill: { id: botId } });
    await call(auditor, 'GET', '/api/audit/bots/{id}', { fill: { id: 'nope' } });
    // backtests
    const csv = ['time,open,high,low,close', ...Array.from({ length: 50 }, (_, i) => `${1_700_000_000_000 + i * 60_000},60000,60100,59900,60000`)].join('\n');
    const upload = await call(u, 'POST', '/api/backtests/candles', { raw: csv, headers: { 'content-type': 'text/csv' } });
    await call(u, 'POST', '/api/backtests/candles', { raw: 'not,csv', headers: { 'content-type': 'application/json' } });
    await call(u, 'GET', '/api/backtests/candles');
    await call(nobody, 'GET', '/api/backtests/candles');
    const btBody = { ...spotBot, days: 1, timeframe: '1h' };
    const bt = await call(u, 'POST', '/api/backtests', { body: btBody });
    await call(u, 'POST', '/api/backtests', { body: { ...btBody, days: 0 } });
    const sweep = await call(u, 'POST', '/api/backtests/sweep', { body: { ...btBody, ranges: { interval: { from: 100, to: 200, step: 100 }, numOfOrders: { from: 3, to: 4, step: 1 }, takeProfit: { from: 1, to: 1, step: 1 } } } });
    await call(u, 'POST', '/api/backtests/sweep', { body: btBody });
    await call(u, 'GET', '/api/backtests');
    await call(nobody, 'GET', '/api/backtests');
    /** Waits until the backtest has finished (a condition, polled), and answers its status. */
    const finished = async (id: string) => {
      for (let i = 0; i < 600; i++) {
        const r = await u.get(`/api/backtests/${id}`);
        if (r.body?.status !== 'running') return r.body?.status as string;
        await new Promise((res) => setTimeout(res, 100));
      }
      return 'running';
    };
    expect(await finished(bt.body.id)).toBe('done');
    await call(u, 'GET', '/api/backtests/{id}', { fill: { id: bt.body.id } });
    // issue 42: a finished sweep (its points and best) and the list of finished ones (no curve, a sweep's count) as documented
    expect(await finished(sweep.body.id)).toBe('done');
    await call(u, 'GET', '/api/backtests/{id}', { fill: { id: sweep.body.id } });
    await call(u, 'GET', '/api/backtests');
    await call(u, 'GET', '/api/backtests/{id}', { fill: { id: 'nope' } });
    await call(u, 'DELETE', '/api/backtests/{id}', { fill: { id: sweep.body.id } }); // finished by now: 409
    // a sweep of 1,900 grids over a year of hours runs for a while: cancelled at once
    const long = await u.post('/api/backtests/sweep', { ...btBody, days: 365, ranges: { interval: { from: 10, to: 1000, step: 10 }, numOfOrders: { from: 2, to: 20, step: 1 }, takeProfit: { from: 1, to: 1, step: 1 } } });
    expect(long.status).toBe(202);
    await call(u, 'DELETE', '/api/backtests/{id}', { fill: { id: long.body.id } });
    // issue 32: an infinity spot grid's backtest (the request's other schema), and one on futures (400)
    const infinityBody = { style: 'infinity', exchange: 'Binance', symbol: 'BTCUSDT', botType: 'Spot', entryPrice: 60000, stepPercent: 1, quoteValue: 100, lowerPrice: 55000, days: 1, timeframe: '1h' };
    const infinityBt = await call(u, 'POST', '/api/backtests', { body: infinityBody });
    expect(await finished(infinityBt.body.id)).toBe('done');
    await call(u, 'GET', '/api/backtests/{id}', { fill: { id: infinityBt.body.id } }); // issue 42: its result's style and steps as documented
    await call(u, 'POST', '/api/backtests', { body: { ...infinityBody, botType: 'Futures' } });
    await call(u, 'DELETE', '/api/backtests/{id}', { fill: { id: '00000000-0000-4000-8000-000000000000' } });
    await call(u, 'DELETE', '/api/backtests/candles/{id}', { fill: { id: upload.body?.candlesId ?? 'nope' } });
    await call(u, 'DELETE', '/api/backtests/candles/{id}', { fill: { id: '00000000-0000-4000-8000-000000000000' } });
    // alerts
    await call(u, 'GET', '/api/alerts/{userId}', { fill: { userId: uid } });
    await call(u, 'GET', '/api/alerts/{userId}', { fill: { userId: otherUid } });
    await call(u, 'PUT', '/api/alerts/{userId}', { fill: { userId: uid }, body: { kinds: ['cycle', 'botFailed'], email: { enabled: true } } });
    await call(u, 'PUT', '/api/alerts/{userId}', { fill: { userId: uid }, body: { kinds: {} } });
    await call(u, 'PUT', '/api/alerts/{userId}', { fill: { userId: uid }, body: { webhook: { url: 'not a url' } } });
    await call(u, 'GET', '/api/alerts/{userId}/deliveries', { fill: { userId: uid } });
    await call(u, 'GET', '/api/alerts/{userId}/deliveries', { fill: { userId: otherUid } });
    // "Send a test" (issue 40): e-mail is on (a mail file here); the webhook is not set up
    expect((await call(u, 'POST', '/api/alerts/{userId}/test', { fill: { userId: uid }, body: { channel: 'email' } })).status).toBe(200);
    await call(u, 'POST', '/api/alerts/{userId}/test', { fill: { userId: uid }, body: { channel: 'webhook' } });
    await call(u, 'POST', '/api/alerts/{userId}/test', { fill: { userId: otherUid }, body: { channel: 'email' } });
    // two-factor: setup, enable, sign in with a recovery code, disable
    await call(u, 'GET', '/api/auth/2fa');
    await call(nobody, 'GET', '/api/auth/2fa');
    await call(nobody, 'POST', '/api/auth/2fa/setup');
    const setup = await call(u, 'POST', '/api/auth/2fa/setup');
    const auth = new Authenticator(setup.body.secret);
    await call(u, 'POST', '/api/auth/2fa/enable', { body: { code: 'abc' } });
    const on = await call(u, 'POST', '/api/auth/2fa/enable', { body: { code: await auth.code() } });
    const pending = new Client(app.url);
    await call(pending, 'POST', '/api/auth/login', { body: { email: 'contract@example.com', password: 'correct-horse-1' } });
    await call(pending, 'POST', '/api/auth/2fa/verify', { body: { code: '12' } });
    await call(pending, 'POST', '/api/auth/2fa/verify', { body: { recoveryCode: on.body.recoveryCodes[0] } });
    await call(u, 'POST', '/api/auth/2fa/disable', { body: { code: 'abc' } });
    await call(u, 'POST', '/api/auth/2fa/disable', { body: { code: await auth.code() } });
    // the ends: delete what was made, sign out
    // issue 32: a bot given as a range, and bot templates
    await call(u, 'POST', '/api/bots', { body: { exchange: 'Binance', symbol: 'BTCUSDT', botType: 'Spot', orderSize: '0.01', takeProfit: 1, lower: 50000, upper: 60000, levels: 5, kind: 'geometric' } });
    await call(u, 'POST', '/api/bots', { body: { exchange: 'Binance', symbol: 'BTCUSDT', botType: 'Spot', orderSize: '0.01', takeProfit: 1, lower: 60000, upper: 50000, levels: 1 } });
    // issue 32: an infinity spot bot (the body's third schema; the Bot answer carries its style and settings), and one on futures (400)
    const infinityBot = { style: 'infinity', exchange: 'Binance', symbol: 'BTCUSDT', botType: 'Spot', entryPrice: 60000, stepPercent: 1, quoteValue: 100, lowerPrice: 55000, initialQuote: 200 };
    const infinity = await call(u, 'POST', '/api/bots', { body: infinityBot });
    expect(infinity.body).toMatchObject({ style: 'infinity', steppercent: 1, quotevalue: 100, lowerprice: 55000, initialquote: 200 });
    await call(u, 'POST', '/api/bots', { body: { ...infinityBot, botType: 'Futures' } });
    await call(u, 'PUT', '/api/bots/{id}', { fill: { id: botId }, body: { exchange: 'Binance', orderSize: 0.01, takeProfit: 1, lower: 59000, upper: 60000, levels: 3 } });
    const template = await call(u, 'POST', '/api/bot-templates', { body: { name: 'contract template', botId } });
    expect(template.status).toBe(201);
    await call(u, 'POST', '/api/bot-templates', { body: { name: '', botId } });
    await call(other, 'POST', '/api/bot-templates', { body: { name: 'not mine', botId } });
    await call(u, 'GET', '/api/bot-templates');
    await call(nobody, 'GET', '/api/bot-templates');
    await call(u, 'GET', '/api/bot-templates/{id}', { fill: { id: template.body.id } });
    await call(other, 'GET', '/api/bot-templates/{id}', { fill: { id: template.body.id } });
    await call(other, 'DELETE', '/api/bot-templates/{id}', { fill: { id: template.body.id } });
    await call(u, 'DELETE', '/api/bot-templates/{id}', { fill: { id: template.body.id } });
    await call(u, 'DELETE', '/api/bots/{id}', { fill: { id: botId } });
    await call(u, 'DELETE', '/api/bots/{id}', { fill: { id: botId } });
    await call(u, 'DELETE', '/api/api-credentials/{id}', { fill: { id: key.body.id } });
    await call(u, 'DELETE', '/api/api-credentials/{id}', { fill: { id: key.body.id } });
    await call(u, 'POST', '/api/auth/logout');
    await call(nobody, 'POST', '/api/auth/logout');
    const resetToken = tokenFromMail(app.dataDir, 'contract@example.com', '/reset-password');
    expect(resetToken).not.toBe('');
    await call(anon, 'POST', '/api/auth/reset-password', { body: { token: resetToken, password: 'correct-horse-2' } });

    // Every answer is one the document describes, its body valid against the schema of its status and type.
    expect(answerProblems(doc, answers)).toEqual([]);

    // Every operation was called, and answered both a success and a client error.
    const NO_CLIENT_ERROR = new Set(['get /api/health', 'get /api/config', 'get /api/auth/csrf']);
    const missing: string[] = [];
    for (const { path, method } of operations(doc)) {
      const mine = answers.filter((a) => a.template === path && a.method === method);
      if (!mine.some((a) => a.status < 300)) missing.push(`${method} ${path}: no 2xx`);
      if (!NO_CLIENT_ERROR.has(`${method} ${path}`) && !mine.some((a) => a.status >= 400 && a.status < 500)) missing.push(`${method} ${path}: no 4xx`);
    }
    expect(missing).toEqual([]);
  }, 120_000);
});

/** What is wrong with real answers, measured against the document (empty when each is as documented). */
function answerProblems(doc: Doc, answers: Answer[]): string[] {
  const ajv = contractAjv(doc);
  const problems: string[] = [];
  for (const a of answers) {
    const at = `${a.method.toUpperCase()} ${a.template} → ${a.status}`;
    const op = doc.paths[a.template]?.[a.method];
    if (!op) {
      problems.push(`${at}: no such operation in the document`);
      continue;
    }
    const response = op.responses[String(a.status)];
    if (!response) {
      problems.push(`${at}: status not documented (${a.text.slice(0, 120)})`);
      continue;
    }
    if (!response.content) {
      if (a.text !== '') problems.push(`${at}: documented without a body, answered ${a.text.slice(0, 80)}`);
      continue;
    }
    if (!response.content[a.type]) {
      problems.push(`${at}: answered ${a.type}, documented ${Object.keys(response.content).join(', ')}`);
      continue;
    }
    const validate = ajv.getSchema(`contract#/${pointer('paths', a.template, a.method, 'responses', String(a.status), 'content', a.type, 'schema')}`)!;
    const bodies = a.type === 'application/json' ? [a.body] : a.type === 'application/x-ndjson' ? [a.text] : [a.text];
    for (const b of bodies) if (!validate(b)) problems.push(`${at}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(b).slice(0, 200)}`);
    if (a.type === 'application/x-ndjson') {
      const line = ajv.getSchema('contract#/components/schemas/HistoryEvent')!;
      for (const l of a.text.split('\n').filter(Boolean)) if (!line(JSON.parse(l))) problems.push(`${at}: an NDJSON line: ${ajv.errorsText(line.errors)}`);
    }
  }
  return problems;
}

/**
 * Ajv (JSON Schema draft-07) over the document. OpenAPI 3.0's schema dialect differs in one keyword the
 * document uses: a boolean `exclusiveMinimum`/`exclusiveMaximum` beside `minimum`/`maximum` (draft-04
 * style), which becomes draft-07's number form here; `nullable` Ajv knows.
 */
function contractAjv(doc: Doc) {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  const draft7 = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(draft7);
    if (!node || typeof node !== 'object') return node;
    const o: Record<string, unknown> = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, draft7(v)]));
    for (const [flag, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']]) {
      if (o[flag] === true) {
        o[flag] = o[bound];
        delete o[bound];
      } else if (o[flag] === false) delete o[flag];
    }
    return o;
  };
  ajv.addSchema({ ...(draft7(doc) as object), $id: 'contract' });
  return ajv;
}
