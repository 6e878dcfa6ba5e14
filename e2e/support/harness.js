/**
 * What every browser script repeats, once (issue 42): the built server started in a data folder of its own,
 * Chromium, the `✓ name (ms)` / `✗ name` steps and the closing `N passed, M failed`, a trader signed up
 * through the API with the browser's own session, and the verification links read from the mailed .eml
 * files. A script is then its scenario and its numbers:
 *
 *   runPaperScript('capacity', {}, async ({ base, page, context, step }) => { ... steps ... });
 */
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { chromium } = require('playwright-core');
const { WIDE } = require('../layout');
const { writePricesCsv } = require('../paper-prices');

const ROOT = path.resolve(__dirname, '../..');
const ARTIFACTS = path.join(ROOT, 'e2e', 'artifacts');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];
const T = Number(process.env.E2E_TIMEOUT_MS || 15000);
const SERVER_ENTRY = path.join(ROOT, 'dist/apps/api/src/main.js');
/** As `npm start` runs the server (package.json; test/node-flags.spec.ts checks that they stay the same). */
const SERVER_NODE_FLAGS = ['--max-semi-space-size=64'];
const PASSWORD = 'correct-horse-1';
const log = (...a) => console.log(...a);

/** A tally of steps: `step(name, fn)` runs one and says ✓ or ✗ (the first `lines` lines of its error). */
function steps({ lines = 8 } = {}) {
  const tally = { passed: 0, failed: 0, failures: [] };
  const fail = (name, e) => {
    tally.failed += 1;
    const msg = (e && e.message ? e.message : String(e)).split('\n').slice(0, lines).join('\n      ');
    tally.failures.push(name ? `${name}: ${msg}` : msg);
    log(name ? `  ✗ ${name}\n      ${msg}` : `  ✗ ${msg}`);
  };
  const step = async (name, fn) => {
    const t0 = Date.now();
    try {
      await fn();
      tally.passed += 1;
      log(`  ✓ ${name} (${Date.now() - t0} ms)`);
      return true;
    } catch (e) {
      fail(name, e);
      return false;
    }
  };
  /** Prints `N passed, M failed` last (after the failures when `listFailures`); true when none failed. */
  const report = ({ listFailures = true } = {}) => {
    if (listFailures && tally.failures.length) log(`\nfailures:\n  - ${tally.failures.join('\n  - ')}`);
    log(`${tally.passed} passed, ${tally.failed} failed`);
    return tally.failed === 0;
  };
  return { step, fail, report, tally };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * The built server (or `entry`) on `port` (a free one by default) with DATA_DIR=`dataDir` and `env`, its
 * output in e2e/artifacts/`logName`; resolves when it prints "GridRocket listening on <url>".
 */
async function startServer(dataDir, { env = {}, logName = 'server.log', entry = SERVER_ENTRY, nodeArgs = SERVER_NODE_FLAGS, port } = {}) {
  if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` first`);
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const listenOn = port ?? (await freePort());
  const child = spawn(process.execPath, [...nodeArgs, entry], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(listenOn), HOST: '127.0.0.1', DATA_DIR: dataDir, NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logFile = path.join(ARTIFACTS, logName);
  const out = fs.createWriteStream(logFile);
  child.stdout.pipe(out);
  child.stderr.pipe(out);
  const url = await new Promise((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => reject(new Error(`server did not print "GridRocket listening on" within 90 s:\n${buf.slice(-2000)}`)), 90000);
    const onData = (d) => {
      buf += d.toString();
      const m = buf.match(/GridRocket listening on (http:\/\/[^\s]+)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1].replace(/\/$/, ''));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${buf.slice(-2000)}`));
    });
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  return { url, child, logFile, stop };
}

/** The server on the paper exchange's known price path (e2e/paper-prices.js), without Kafka. */
function startPaperServer(dataDir, name, env = {}) {
  return startServer(dataDir, { logName: `${name}-server.log`, env: { PAPER_PRICES: writePricesCsv(dataDir), KAFKA_BROKERS: '', ...env } });
}

const launchBrowser = () => chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });

/** `call(method, path, body)` → { status, body } through the context's own cookies and its CSRF token. */
function apiCalls(context, base) {
  const api = context.request;
  const csrf = async () => (await context.cookies(base)).find((c) => c.name === 'csrf_token')?.value ?? '';
  const call = async (method, p, data) => {
    const res = await api.fetch(`${base}${p}`, { method, headers: { 'x-csrf-token': await csrf(), 'content-type': 'application/json' }, ...(data ? { data } : {}) });
    const text = await res.text();
    return { status: res.status(), body: text ? JSON.parse(text) : null };
  };
  /** The dashboard keeps the signed-in user as its sign-in form leaves it (store/authSlice.ts). */
  const remember = (user) => context.addInitScript((u) => window.localStorage.setItem('user', JSON.stringify(u)), user);
  const ready = () => api.get(`${base}/api/auth/csrf`);
  return { api, csrf, call, remember, ready };
}

/** A browser context of its own at 1280 px, with `call` ready (its CSRF cookie fetched). */
async function newClient(browser, base) {
  const context = await browser.newContext({ viewport: WIDE });
  const calls = apiCalls(context, base);
  await calls.ready();
  return { context, ...calls };
}

/**
 * A trader registered through the API in `context` and remembered by the dashboard, with a Binance key when
 * `binanceKey`: { uid, user, call, ... }.
 */
async function signUp(context, base, email, { password = PASSWORD, binanceKey = false } = {}) {
  const calls = apiCalls(context, base);
  await calls.ready();
  const reg = await calls.call('POST', '/api/auth/register', { email, password });
  if (reg.status !== 201) throw new Error(`register ${reg.status} ${JSON.stringify(reg.body)}`);
  const uid = reg.body.uid;
  await calls.remember(reg.body);
  if (binanceKey) await addBinanceKey(calls.call, uid);
  return { ...calls, uid, user: reg.body };
}

/** A Binance key (a paper one: the paper exchange takes any) for the trader `uid`, through `call`. */
async function addBinanceKey(call, uid) {
  const key = await call('POST', '/api/api-credentials', { access: { exchange: 'Binance', apiKey: 'e2e-binance-key', keySecret: 'e2e-secret-0123456789', passPhrase: '', userId: uid } });
  if (key.status !== 201) throw new Error(`add key ${key.status} ${JSON.stringify(key.body)}`);
  return key.body;
}

/** Decodes an .eml enough to find links: quoted-printable soft breaks and =XX, and base64 parts. */
function emlText(raw) {
  // Decoded forms only: in the raw quoted-printable text a soft line break can cut a link in two.
  const texts = [];
  const qp = raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h) => String.fromCharCode(parseInt(h, 16)));
  texts.push(qp);
  for (const m of raw.matchAll(/Content-Transfer-Encoding:\s*base64\s*\r?\n(?:[^\r\n]+\r?\n)*\r?\n([A-Za-z0-9+/=\r\n]+)/gi)) {
    try {
      texts.push(Buffer.from(m[1].replace(/\s+/g, ''), 'base64').toString('utf8'));
    } catch {
      /* not base64 after all */
    }
  }
  return texts.join('\n').replace(/&amp;/g, '&');
}

/** The newest `/<route>?token=` link mailed to `email` (the embedded mail: DATA_DIR/mail/*.eml), waiting for it. */
async function findMailLink(dataDir, email, route, timeoutMs = 20000) {
  const dir = path.join(dataDir, 'mail');
  const deadline = Date.now() + timeoutMs;
  const re = new RegExp(`(?:https?://[^\\s"'<>]+)?/${route}\\?token=[A-Za-z0-9._~%+-]+`, 'g');
  while (Date.now() < deadline) {
    if (fs.existsSync(dir)) {
      const files = fs.readdirSync(dir).filter((f) => f.endsWith('.eml')).map((f) => path.join(dir, f));
      files.sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
      for (const f of files) {
        const raw = fs.readFileSync(f, 'utf8');
        if (!(/^To: (.*)$/m.exec(raw)?.[1] ?? '').toLowerCase().includes(email.toLowerCase())) continue;
        const links = emlText(raw).match(re);
        if (links && links.length) return links[0];
      }
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no mail with a /${route}?token= link for ${email} in ${dir}`);
}

/** The token of the newest verification link mailed to `email`. */
async function mailedToken(dataDir, email) {
  const link = await findMailLink(dataDir, email, 'verify-email-address');
  return new URL(link, 'http://mail.invalid').searchParams.get('token');
}

/**
 * One script on the paper server: a fresh data folder (`gr-e2e-<name>-…`), `prepare({ dataDir })` → { env,
 * close, … } for what the server needs first (stand-ins; handed to `body` as `prepared`), the server with
 * `env`, Chromium, and a page at 1280 px whose uncaught errors gather in `pageErrors`. `body` runs the steps; everything is closed after it, the tally
 * printed, and the process exits 1 on any failure.
 */
function runPaperScript(name, { env, prepare, lines } = {}, body) {
  const main = async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `gr-e2e-${name}-`));
    const { step, report } = steps({ lines });
    const prepared = prepare ? await prepare({ dataDir }) : {};
    const server = await startPaperServer(dataDir, name, { ...env, ...prepared.env });
    const browser = await launchBrowser();
    try {
      const context = await browser.newContext({ viewport: WIDE });
      const page = await context.newPage();
      page.setDefaultTimeout(T);
      const pageErrors = [];
      page.on('pageerror', (e) => pageErrors.push(String(e)));
      await body({ base: server.url, dataDir, server, prepared, browser, context, page, pageErrors, step, T });
    } finally {
      await browser.close();
      await server.stop();
      if (prepared.close) await prepared.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    if (!report()) process.exit(1);
  };
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}

module.exports = {
  ROOT,
  ARTIFACTS,
  CHROMIUM,
  ARGS,
  T,
  PASSWORD,
  SERVER_NODE_FLAGS,
  log,
  steps,
  freePort,
  startServer,
  startPaperServer,
  launchBrowser,
  apiCalls,
  newClient,
  signUp,
  addBinanceKey,
  emlText,
  findMailLink,
  mailedToken,
  runPaperScript,
};
