#!/usr/bin/env node
/**
 * The capacity answer in the bot form, in Chromium (issue 39, "done when": shown in the form at 1280 and
 * 375 px; a start that would exceed the venue's order-count limit is refused with the numbers). The built
 * server (`npm run build`) on the paper exchange's known price path (e2e/paper-prices.js: Binance BTCUSDT
 * near 95,000). A trader with one running 99-rung bot on BTCUSDT (up to 100 open orders there) opens the
 * create form: BTCUSDT, grid size 20: "121 of 200" open orders (MAX_NUM_ORDERS), the orders at start and the
 * weight budget, no warning. With a second 99-rung bot running (200 held) the same form warns with the
 * numbers; the bot is saved anyway, and its Start is refused with the server's 409 in a toast. Screenshots
 * go to e2e/artifacts/capacity-*.png at both widths; nothing of the panel is cut off at either.
 *
 *   node e2e/capacity.e2e.js          (after `npm run build`; `npm run test:e2e` runs it after e2e/run.js)
 */
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { chromium } = require('playwright-core');
const { atBothWidths, nothingCutOff, WIDE } = require('./layout');
const { writePricesCsv, CENTRE } = require('./paper-prices');

const ROOT = path.resolve(__dirname, '..');
const ARTIFACTS = path.join(__dirname, 'artifacts');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];
const T = Number(process.env.E2E_TIMEOUT_MS || 15000);

let passed = 0;
let failed = 0;
const failures = [];
const log = (...a) => console.log(...a);

async function step(name, fn) {
  const t0 = Date.now();
  try {
    await fn();
    passed += 1;
    log(`  ✓ ${name} (${Date.now() - t0} ms)`);
  } catch (e) {
    failed += 1;
    const msg = (e && e.message ? e.message : String(e)).split('\n').slice(0, 8).join('\n      ');
    failures.push(`${name}: ${msg}`);
    log(`  ✗ ${name}\n      ${msg}`);
  }
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

async function startServer(dataDir) {
  const entry = path.join(ROOT, 'dist/apps/api/src/main.js');
  if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` first`);
  const port = await freePort();
  const child = spawn(process.execPath, [entry], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, NODE_ENV: 'production', PAPER_PRICES: writePricesCsv(dataDir), KAFKA_BROKERS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logFile = fs.createWriteStream(path.join(ARTIFACTS, 'capacity-server.log'));
  child.stdout.pipe(logFile);
  child.stderr.pipe(logFile);
  const url = await new Promise((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => reject(new Error(`server did not listen within 90 s:\n${buf.slice(-2000)}`)), 90000);
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
  return { url, child };
}

async function main() {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gr-e2e-capacity-'));
  const { url: base, child } = await startServer(dataDir);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  const context = await browser.newContext({ viewport: WIDE });
  const page = await context.newPage();
  page.setDefaultTimeout(T);
  const shot = (name) => page.screenshot({ path: path.join(ARTIFACTS, `capacity-${name}.png`), fullPage: false });

  // the trader and the bots already there, through the API with the browser's own session
  const api = context.request;
  const csrf = async () => (await context.cookies(base)).find((c) => c.name === 'csrf_token')?.value ?? '';
  const call = async (method, p, data) => {
    const res = await api.fetch(`${base}${p}`, { method, headers: { 'x-csrf-token': await csrf(), 'content-type': 'application/json' }, ...(data ? { data } : {}) });
    const text = await res.text();
    return { status: res.status(), body: text ? JSON.parse(text) : null };
  };
  await api.get(`${base}/api/auth/csrf`);
  const reg = await call('POST', '/api/auth/register', { email: 'capacity-e2e@example.com', password: 'correct-horse-1' });
  if (reg.status !== 201) throw new Error(`register ${reg.status} ${JSON.stringify(reg.body)}`);
  const uid = reg.body.uid;
  // the dashboard keeps the signed-in user as its sign-in form leaves it (store/authSlice.ts)
  await context.addInitScript((user) => window.localStorage.setItem('user', JSON.stringify(user)), reg.body);
  const key = await call('POST', '/api/api-credentials', { access: { exchange: 'Binance', apiKey: 'e2e-binance-key', keySecret: 'e2e-secret-0123456789', passPhrase: '', userId: uid } });
  if (key.status !== 201 && key.status !== 200) throw new Error(`add key ${key.status} ${JSON.stringify(key.body)}`);
  const entry = Math.floor(CENTRE * 0.99);
  const runningBot = async () => {
    const made = await call('POST', '/api/bots', { userId: uid, exchange: 'Binance', symbol: 'BTCUSDT', botType: 'Spot', numOfOrders: 99, orderSize: '0.0001', interval: 10, entryPrice: entry, takeProfit: 1 });
    if (made.status !== 201) throw new Error(`create ${made.status} ${JSON.stringify(made.body)}`);
    const started = await call('GET', `/api/startBot?id=${made.body.id}&userId=${uid}`);
    if (started.status !== 202) throw new Error(`start ${started.status} ${JSON.stringify(started.body)}`);
    return made.body.id;
  };

  const openForm = async () => {
    await page.goto(`${base}/bots?tab=spot`, { waitUntil: 'domcontentloaded' });
    await page.getByRole('button', { name: 'Create bot' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create new bot' });
    await dialog.waitFor();
    await dialog.getByLabel('Exchange').selectOption('Binance');
    await dialog.getByLabel('Pair').selectOption('BTCUSDT');
    const entryField = dialog.getByLabel('Entry Price');
    await page.waitForFunction((el) => el && el.value !== '', await entryField.elementHandle(), { timeout: T });
    await entryField.fill(String(entry));
    await dialog.getByLabel('Grid size').fill('20');
    await dialog.getByLabel('Order size').fill('0.0001');
    await dialog.getByLabel('Price interval').fill('10');
    await dialog.getByLabel('Take profit').fill('1');
    return dialog;
  };
  const panelShown = async (dialog, name) => {
    const panel = dialog.getByTestId('capacity');
    await atBothWidths(page, async (width) => {
      await panel.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(ARTIFACTS, `capacity-${name}-${width}.png`) });
      await panel.screenshot({ path: path.join(ARTIFACTS, `capacity-${name}-panel-${width}.png`) });
      return nothingCutOff(panel);
    });
  };

  try {
    await step('the form shows what the key can carry: orders at start, open orders on BTCUSDT out of 200 (MAX_NUM_ORDERS), the weight budget', async () => {
      await runningBot();
      const dialog = await openForm();
      const open = dialog.getByTestId('capacity-open');
      await open.getByText('121 of 200').waitFor();
      const text = (await open.textContent()) || '';
      if (!text.includes('your other bots up to 100, this bot up to 21 (MAX_NUM_ORDERS)')) throw new Error(`open orders read "${text}"`);
      const orders = (await dialog.getByTestId('capacity-orders').textContent()) || '';
      if (!/^20placed over about 2 s; at most 20 in 10 s, Binance spot allows 100 \(ORDERS\)/.test(orders)) throw new Error(`orders at start read "${orders}"`);
      const weight = (await dialog.getByTestId('capacity-weight').textContent()) || '';
      if (!/your bots 26 per 1 min of this install's 3,000 \(50 % of 6,000, REQUEST_WEIGHT\)/.test(weight)) throw new Error(`weight read "${weight}"`);
      if (await dialog.getByTestId('capacity-warning').count()) throw new Error('a warning shows although the start fits');
      await panelShown(dialog, 'fits');
    });

    await step('with 200 orders held on BTCUSDT the form warns with the numbers; the bot is saved, and its start is refused with them', async () => {
      await runningBot();
      const dialog = await openForm();
      const warning = dialog.getByTestId('capacity-warning');
      await warning.waitFor();
      const said = (await warning.textContent()) || '';
      const refusal =
        'This start places 20 orders on BTCUSDT and rests up to 21 there; Binance spot allows 200 open orders per symbol (MAX_NUM_ORDERS); your other bots hold up to 200 open on BTCUSDT: 221 in all.';
      if (!said.includes(refusal)) throw new Error(`the warning reads "${said}"`);
      await dialog.getByTestId('capacity-open').getByText('221 of 200').waitFor();
      await panelShown(dialog, 'over');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await page.locator('.toast').filter({ hasText: 'Bot successfully added!' }).first().waitFor();
      await dialog.waitFor({ state: 'detached' });
      // the new bot is the stopped one on the list
      const card = page.locator('[data-testid="bot-card"][data-state="stopped"]').first();
      await card.getByRole('button', { name: /^Start / }).click();
      const toast = page.locator('.toast').filter({ hasText: 'Binance spot allows 200 open orders per symbol (MAX_NUM_ORDERS)' }).first();
      await toast.waitFor();
      const toastText = (await toast.textContent()) || '';
      if (!toastText.includes('your other bots hold up to 200 open on BTCUSDT: 221 in all')) throw new Error(`the toast reads "${toastText}"`);
      await shot('start-refused-1280');
      if ((await card.getAttribute('data-state')) !== 'stopped') throw new Error('the refused bot is not stopped');
    });
  } finally {
    await browser.close();
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  log(`${passed} passed, ${failed} failed`);
  if (failed) {
    for (const f of failures) log(`  - ${f}`);
    process.exit(1);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
