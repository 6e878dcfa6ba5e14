#!/usr/bin/env node
/**
 * GridRocket browser test (issue 6): playwright-core driving Debian's Chromium against the built app.
 *
 *   node e2e/run.js                 starts `node dist/apps/api/src/main.js` (after `npm run build`)
 *   E2E_SERVER=stub node e2e/run.js starts e2e/stub-server.js instead (a contract stand-in)
 *   E2E_BASE_URL=http://...         uses a server that is already running (mail from E2E_DATA_DIR)
 *
 * The flow: guards while signed out → register → verify through the link in DATA_DIR/mail/*.eml →
 * add a Kucoin key (the passphrase field appears) → create a spot and a futures bot → start one,
 * which turns running without a reload → stop it with cancel-all → its History (timeline, exports, time
 * slider) → delete it → guards while signed in
 * → logout. Screenshots of every screen at 1280 and 375 px wide go to e2e/artifacts/.
 * Prints `N passed, M failed` last and exits non-zero on any failure.
 */
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { chromium } = require('playwright-core');

const ROOT = path.resolve(__dirname, '..');
const ARTIFACTS = path.join(__dirname, 'artifacts');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];
const WIDE = { width: 1280, height: 860 };
const NARROW = { width: 375, height: 812 };
const T = Number(process.env.E2E_TIMEOUT_MS || 15000);

let passed = 0;
let failed = 0;
const failures = [];

function log(...a) {
  console.log(...a);
}

async function step(name, fn) {
  const t0 = Date.now();
  try {
    await fn();
    passed += 1;
    log(`  ✓ ${name} (${Date.now() - t0} ms)`);
    return true;
  } catch (e) {
    failed += 1;
    const msg = (e && e.message ? e.message : String(e)).split('\n').slice(0, 6).join('\n      ');
    failures.push(`${name}: ${msg}`);
    log(`  ✗ ${name}\n      ${msg}`);
    return false;
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
  if (process.env.E2E_BASE_URL) return { url: process.env.E2E_BASE_URL.replace(/\/$/, ''), child: null };
  const stub = process.env.E2E_SERVER === 'stub';
  const entry = stub ? path.join(__dirname, 'stub-server.js') : path.join(ROOT, 'dist/apps/api/src/main.js');
  if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` first`);
  const port = await freePort();
  const child = spawn(process.execPath, [entry], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, NODE_ENV: process.env.NODE_ENV || 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logFile = fs.createWriteStream(path.join(ARTIFACTS, 'server.log'));
  child.stdout.pipe(logFile);
  child.stderr.pipe(logFile);
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
  return { url, child };
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

async function findMailLink(dataDir, email, route, timeoutMs = 20000) {
  const dir = path.join(dataDir, 'mail');
  const deadline = Date.now() + timeoutMs;
  const re = new RegExp(`(?:https?://[^\\s"'<>]+)?/${route}\\?token=[A-Za-z0-9._~%+-]+`, 'g');
  while (Date.now() < deadline) {
    if (fs.existsSync(dir)) {
      const files = fs.readdirSync(dir).filter((f) => f.endsWith('.eml')).map((f) => path.join(dir, f));
      files.sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
      for (const f of files) {
        const text = emlText(fs.readFileSync(f, 'utf8'));
        if (!text.toLowerCase().includes(email.toLowerCase())) continue;
        const links = text.match(re);
        if (links && links.length) return links[0];
      }
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no mail with a /${route}?token= link for ${email} in ${dir}`);
}

async function main() {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const dataDir = process.env.E2E_DATA_DIR || fs.mkdtempSync(path.join(os.tmpdir(), 'gridrocket-e2e-data-'));
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'gridrocket-e2e-profile-'));
  let server = null;
  let context = null;
  try {
    log('GridRocket e2e');
    server = await startServer(dataDir);
    const base = server.url;
    log(`  server: ${base} (data ${dataDir})`);
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ARGS, headless: true, viewport: WIDE });
    context.setDefaultTimeout(T);
    const page = context.pages()[0] || (await context.newPage());
    const consoleErrors = [];
    page.on('pageerror', (e) => consoleErrors.push(String(e)));
    const requests = [];
    page.on('request', (r) => requests.push(r.url()));
    const go = (p) => page.goto(base + p, { waitUntil: 'domcontentloaded' });
    const path_ = () => new URL(page.url()).pathname;
    const expectPath = async (p) => {
      await page.waitForURL((u) => new URL(u).pathname === p, { timeout: T });
    };
    const toast = (text) => page.locator('.toast').filter({ hasText: text }).first().waitFor({ state: 'visible', timeout: T });
    const shot = async (name) => {
      await page.waitForTimeout(150);
      await page.screenshot({ path: path.join(ARTIFACTS, `${name}-1280.png`), fullPage: true });
      await page.setViewportSize(NARROW);
      await page.waitForTimeout(250);
      await page.screenshot({ path: path.join(ARTIFACTS, `${name}-375.png`), fullPage: true });
      await page.setViewportSize(WIDE);
      await page.waitForTimeout(100);
    };
    const heading = (name) => page.getByRole('heading', { name, exact: true }).first().waitFor({ state: 'visible' });

    log('signed out');
    await step('home renders with the how-it-works steps and exchange links', async () => {
      await go('/home');
      await heading('How it works');
      await page.getByRole('link', { name: /Sign up at Kucoin/ }).waitFor();
      const n = await page.getByRole('link', { name: /Sign up at (Binance|Kucoin)/ }).count();
      if (n !== 2) throw new Error(`expected 2 exchange sign-up links, saw ${n}`);
      await page.getByText(/© 2025/).waitFor();
      await shot('home');
    });
    await step('login dialog with its three panels', async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Login' }).click();
      const dialog = page.getByRole('dialog', { name: 'Login' });
      await dialog.waitFor();
      await shot('login-dialog');
      await dialog.getByRole('button', { name: 'Register' }).click();
      await page.getByRole('dialog', { name: 'Create a free account!' }).waitFor();
      await page.getByRole('dialog').getByRole('button', { name: 'Login', exact: true }).click();
      await page.getByRole('dialog', { name: 'Login' }).getByRole('button', { name: 'send email' }).click();
      await page.getByRole('dialog', { name: 'Reset Password' }).waitFor();
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
    });
    for (const p of ['/bots', '/dashboard', '/security', '/myaccount']) {
      await step(`guard: ${p} signed out goes to /sign-in`, async () => {
        await go(p);
        await expectPath('/sign-in');
      });
    }
    for (const p of ['/no-such-place', '/']) {
      await step(`unknown route ${p} redirects to /home`, async () => {
        await go(p);
        await expectPath('/home');
      });
    }
    const openScreens = [
      ['/sign-in', 'Create a free account!', 'sign-in'],
      ['/register-user', 'Create a free account!', 'register-user'],
      ['/forgot-password', 'Reset Password', 'forgot-password'],
      ['/verify-email-address', 'Thank You for Registering', 'verify-email-address'],
      ['/reset-password', 'Choose a new password', 'reset-password'],
      ['/privacypolicy', 'Privacy policy', 'privacypolicy'],
      ['/termsofservice', 'Terms of Use', 'termsofservice'],
      ['/faq', 'Frequently asked questions', 'faq'],
    ];
    for (const [p, h, name] of openScreens) {
      await step(`screen ${p}`, async () => {
        await go(p);
        await heading(h);
        await shot(name);
      });
    }
    await step('sign-in shows the spec validation messages', async () => {
      await go('/sign-in');
      const form = page.getByRole('form', { name: 'Login' });
      await form.getByRole('button', { name: 'Login' }).click();
      await form.getByText('Email is required').waitFor();
      await form.getByText('Password is required').waitFor();
      await shot('sign-in-errors');
    });

    log('account');
    const email = `e2e-${Date.now()}@example.com`;
    const password = 'Launch-2025-pad';
    const flowOk = await step('register a new user → /myaccount', async () => {
      await go('/register-user');
      const form = page.getByRole('form', { name: 'Register' });
      await form.getByLabel('Email').fill(email);
      await form.getByLabel('Password', { exact: true }).fill(password);
      await form.getByLabel('Repeat password').fill(password);
      await form.getByRole('button', { name: 'Register' }).click();
      await expectPath('/myaccount');
      await heading('Profile');
      await shot('myaccount');
    });
    if (!flowOk) throw new Error('registration failed: the rest of the flow cannot run');

    await step('verify the email through the link in the mail folder', async () => {
      const link = await findMailLink(dataDir, email, 'verify-email-address');
      const u = new URL(link, base);
      await go(u.pathname + u.search);
      await heading('Email address verified');
      await shot('verify-email-done');
      await go('/dashboard');
      await heading('User Profile');
      await page.getByText(email).first().waitFor();
      const dd = await page.locator('dt:has-text("Email verified") + dd').first().textContent();
      if ((dd || '').trim() !== 'true') throw new Error(`dashboard says email verified = ${dd}`);
      await shot('dashboard');
    });
    for (const p of ['/sign-in', '/register-user']) {
      await step(`guard: ${p} signed in goes to /dashboard`, async () => {
        await go(p);
        await expectPath('/dashboard');
      });
    }
    await step('unknown route redirects to /home when signed in', async () => {
      await go('/definitely/not/here');
      await expectPath('/home');
    });

    log('api keys');
    await step('add a Kucoin key: the passphrase field appears', async () => {
      await go('/security');
      await heading('Security');
      await shot('security-empty');
      await page.getByRole('button', { name: 'Add API Keys' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add api keys' });
      await dialog.waitFor();
      if (await dialog.getByLabel('Passphrase', { exact: true }).count()) throw new Error('passphrase visible before Kucoin was chosen');
      await dialog.getByLabel('Exchange').selectOption('Kucoin');
      await dialog.getByLabel('Passphrase', { exact: true }).waitFor({ state: 'visible' });
      await dialog.getByLabel('API Key', { exact: true }).fill('e2e-kucoin-public-key');
      await dialog.getByLabel('Secret Key', { exact: true }).fill('e2e-kucoin-secret-0123456789');
      await dialog.getByLabel('Passphrase', { exact: true }).fill('e2e-passphrase');
      await shot('security-add-key');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await toast('API Key successfully added!');
      await page.locator('table td', { hasText: 'e2e-kucoin-public-key' }).first().waitFor();
      const html = await page.content();
      if (html.includes('e2e-kucoin-secret-0123456789')) throw new Error('the secret is on the page');
      await shot('security');
    });

    log('bots');
    const fillBot = async (dialog, { exchange, symbol }) => {
      await dialog.getByLabel('Exchange').selectOption(exchange);
      await dialog.getByLabel('Pair').selectOption(symbol);
      const entry = dialog.getByLabel('Entry Price');
      // the current price pre-fills the entry price
      await page.waitForFunction((el) => el && el.value !== '', await entry.elementHandle(), { timeout: T });
      const p = Number(await entry.inputValue());
      const fit = (n) => {
        for (let d = 6; d >= 0; d--) {
          const s = String(Number(n.toFixed(d)));
          if (s.length <= 10) return s;
        }
        return String(Math.round(n));
      };
      // a realistic grid: 3 buys 0.6 % apart, take profit 1 % above the average entry, and a ladder
      // that costs less than the paper balance of 10,000 USDT
      await dialog.getByLabel('Grid size').fill('3');
      await dialog.getByLabel('Order size').fill(p > 1000 ? '0.01' : p > 10 ? '1' : '20');
      await dialog.getByLabel('Price interval').fill(fit(Number((p * 0.006).toPrecision(4))));
      await dialog.getByLabel('Take profit').fill('1');
      const hint = await dialog.getByLabel('Take profit').evaluate((el) => document.getElementById(el.getAttribute('aria-describedby') || '')?.textContent || '');
      if (!hint.includes('Sold at the average entry price + this %')) throw new Error(`take profit hint: ${hint}`);
      const cost = (await dialog.getByTestId('total-cost').textContent()) || '';
      if (!/USDT/.test(cost)) throw new Error(`total cost not shown: ${cost}`);
      const costValue = Number(cost.replace(/[^0-9.]/g, ''));
      if (!(costValue > 0 && costValue < 10000)) throw new Error(`the ladder costs ${cost}: more than the 10,000 USDT paper balance`);
      const save = dialog.getByRole('button', { name: 'Save' });
      if (await save.isDisabled()) throw new Error('Save is disabled for a valid form');
      return cost;
    };
    await step('create a spot bot', async () => {
      await go('/bots');
      await heading('Bots');
      await page.getByRole('tab', { name: /Spot bots/ }).waitFor();
      await shot('bots-empty');
      await page.getByRole('button', { name: 'Create bot' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create new bot' });
      await dialog.getByRole('button', { name: 'Save' }).waitFor();
      if (!(await dialog.getByRole('button', { name: 'Save' }).isDisabled())) throw new Error('Save enabled on an empty form');
      await dialog.getByText('Minimum: 20 USDT').waitFor();
      await fillBot(dialog, { exchange: 'Binance', symbol: 'BTCUSDT' });
      await shot('bots-create-spot');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await toast('Bot successfully added!');
      await page.getByTestId('bot-card').first().waitFor();
    });
    await step('create a futures bot (leverage shown as Nx)', async () => {
      await page.getByRole('tab', { name: /Futures bots/ }).click();
      await page.getByRole('button', { name: 'Create bot' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create new bot' });
      await dialog.getByText('Minimum: 60 USDT').waitFor();
      await fillBot(dialog, { exchange: 'Binance', symbol: 'BTCUSDT' });
      await shot('bots-create-futures');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await toast('Bot successfully added!');
      await page.locator('[data-testid="bot-card"]').first().waitFor();
      await shot('bots-futures');
    });

    await require('./backtest.e2e').backtestSteps({ page, step, fillBot, shot, T });

    let botId = null;
    await step('start the spot bot: it turns running without a reload', async () => {
      await page.getByRole('tab', { name: /Spot bots/ }).click();
      const card = page.getByTestId('bot-card').first();
      await card.waitFor();
      botId = await card.getAttribute('data-bot-id');
      await page.evaluate(() => {
        window.__e2eNoReload = true;
      });
      await card.getByRole('button', { name: /^Start / }).click();
      await toast('Bot successfully started!');
      await page.locator(`[data-bot-id="${botId}"][data-state="running"]`).waitFor({ timeout: T });
      if (!(await page.evaluate(() => window.__e2eNoReload === true))) throw new Error('the page reloaded');
      const c = page.locator(`[data-bot-id="${botId}"]`);
      if (!(await c.getByRole('button', { name: /^Edit / }).isDisabled())) throw new Error('Edit enabled while running');
      if (!(await c.getByRole('button', { name: /^Delete / }).isDisabled())) throw new Error('Delete enabled while running');
      await shot('bots-running');
    });
    await step('the grid chart opens (or says it has no data yet)', async () => {
      const c = page.locator(`[data-bot-id="${botId}"]`);
      await c.getByRole('button', { name: 'Chart' }).click();
      await c.locator('.chart, .chart-empty').first().waitFor();
      await page.waitForTimeout(400);
      await shot('bots-chart');
      await c.getByRole('button', { name: 'Chart' }).click();
    });
    await step('stop it with "Cancel all orders"', async () => {
      const c = page.locator(`[data-bot-id="${botId}"]`);
      await c.getByRole('button', { name: /^Stop / }).click();
      const dlg = page.getByRole('alertdialog', { name: 'Stop Bot' });
      await dlg.getByText('Are you sure you want to stop the Bot?').waitFor();
      await dlg.getByLabel('Cancel all orders').check();
      await shot('bots-stop-dialog');
      await dlg.getByRole('button', { name: 'Yes' }).click();
      await toast('Bot successfully stopped!');
      await page.locator(`[data-bot-id="${botId}"][data-state="stopped"]`).waitFor();
      const stopUrl = requests.find((u) => u.includes('/api/stopBot'));
      if (!stopUrl || new URL(stopUrl).searchParams.get('cancelAllOrders') !== 'true') throw new Error(`stop call without cancelAllOrders=true: ${stopUrl}`);
    });
    await step('history: the timeline shows BotCreated … BotStopped, the slider shows the state then', async () => {
      const c = page.locator(`[data-bot-id="${botId}"]`);
      const tp = await c.locator('dt:has-text("Take profit") + dd').first().textContent();
      if ((tp || '').trim() !== '1%') throw new Error(`the card shows take profit as ${tp}`);
      await c.getByRole('link', { name: /^History of / }).click();
      await expectPath(`/bots/${botId}/history`);
      await heading('History');
      const timeline = page.getByRole('list', { name: 'Events, oldest first' });
      await timeline.locator('li[data-type="BotStopped"]').first().waitFor();
      const types = await timeline.locator(':scope > li').evaluateAll((els) => els.map((e) => e.getAttribute('data-type')));
      const lifecycle = types.filter((t) => /^Bot/.test(t));
      const want = ['BotCreated', 'BotStartRequested', 'BotStarted', 'BotStopRequested', 'BotStopped'];
      if (lifecycle.join(',') !== want.join(',')) throw new Error(`timeline lifecycle: ${lifecycle.join(', ')} (all: ${types.join(', ')})`);
      await timeline.locator('li[data-type="BotCreated"]').getByText('Bot created').waitFor();
      await timeline.locator('li[data-type="BotCreated"]').getByText('you', { exact: true }).waitFor();
      await timeline.locator('li[data-type="BotStopRequested"]').getByText('cancel all open orders').waitFor();
      // the exports answer with CSV and NDJSON
      const csvHref = await page.getByRole('link', { name: 'Download the history as CSV' }).getAttribute('href');
      const ndHref = await page.getByRole('link', { name: 'Download the history as NDJSON' }).getAttribute('href');
      const [csv, nd] = await page.evaluate(async (urls) => Promise.all(urls.map(async (u) => (await fetch(u, { credentials: 'include' })).text())), [csvHref, ndHref]);
      if (!csv.startsWith('revision,position,id,type')) throw new Error(`CSV export: ${csv.slice(0, 120)}`);
      if (csv.trim().split(/\r?\n/).length !== types.length + 1) throw new Error(`CSV export has ${csv.trim().split(/\r?\n/).length - 1} rows for ${types.length} events`);
      const firstNd = JSON.parse(nd.split('\n')[0]);
      if (firstNd.type !== 'BotCreated') throw new Error(`NDJSON export starts with ${firstNd.type}`);
      // the slider, by keyboard: End is the latest state, Home the first event
      const slider = page.getByRole('slider', { name: 'Time' });
      const state = page.getByTestId('state-at');
      const status = page.getByTestId('state-status');
      const waitState = async (applied, text) => {
        await page.waitForFunction(
          ([a, t]) => {
            const s = document.querySelector('[data-testid="state-at"]');
            const st = document.querySelector('[data-testid="state-status"]');
            return s && st && s.getAttribute('aria-busy') !== 'true' && s.textContent.includes(`${a} of `) && st.textContent.trim() === t;
          },
          [applied, text],
          { timeout: T },
        ).catch(async () => {
          throw new Error(`state: expected ${applied} applied and "${text}", saw "${await state.textContent()}"`);
        });
      };
      await waitState(types.length, 'Stopped');
      await slider.focus();
      await page.keyboard.press('Home');
      if ((await slider.inputValue()) !== '0') throw new Error(`Home moved the slider to ${await slider.inputValue()}`);
      await waitState(1, 'Stopped');
      if (!/Bot created/.test((await slider.getAttribute('aria-valuetext')) || '')) throw new Error('the slider does not name the first event');
      // step by step to the moment the runner said it started: running then
      const startedAt = types.indexOf('BotStarted');
      for (let i = 0; i < startedAt; i++) await page.keyboard.press('ArrowRight');
      await waitState(startedAt + 1, 'Running');
      if ((await status.textContent()).trim() !== 'Running') throw new Error('not running after BotStarted');
      await shot('history');
      await page.keyboard.press('Home');
      await waitState(1, 'Stopped');
      await page.getByRole('link', { name: 'Back to bots' }).click();
      await expectPath('/bots');
      await page.locator(`[data-bot-id="${botId}"]`).waitFor();
    });
    await step('delete it', async () => {
      const c = page.locator(`[data-bot-id="${botId}"]`);
      await c.getByRole('button', { name: /^Delete / }).click();
      const dlg = page.getByRole('alertdialog', { name: 'Delete Bot' });
      await dlg.getByText('Are you sure you want to Delete the Bot?').waitFor();
      await shot('bots-delete-dialog');
      await dlg.getByRole('button', { name: 'Yes' }).click();
      await toast('Bot successfully deleted!');
      await page.locator(`[data-bot-id="${botId}"]`).waitFor({ state: 'detached' });
      await shot('bots-after-delete');
    });

    log('sign out');
    await step('logout goes to /home and the guards hold again', async () => {
      await page.getByRole('button', { name: 'Logout' }).click();
      await expectPath('/home');
      await go('/bots');
      await expectPath('/sign-in');
    });
    await step('email login goes to /bots', async () => {
      const form = page.getByRole('form', { name: 'Login' });
      await form.getByLabel('Email').fill(email);
      await form.getByLabel('Password').fill(password);
      await form.getByRole('button', { name: 'Login' }).click();
      await expectPath('/bots');
      await page.getByRole('tab', { name: /Futures bots/ }).click();
      await page.getByTestId('bot-card').first().waitFor();
      await shot('bots');
    });
    await step('no uncaught page errors', async () => {
      if (consoleErrors.length) throw new Error(consoleErrors.slice(0, 3).join('\n'));
    });
  } catch (e) {
    failed += 1;
    failures.push(String(e && e.message ? e.message : e));
    log(`  ✗ ${String(e && e.message ? e.message : e)}`);
  } finally {
    if (context) await context.close().catch(() => undefined);
    if (server && server.child) {
      server.child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 300));
    }
    fs.rmSync(profile, { recursive: true, force: true });
  }
  if (failures.length) log(`\nfailures:\n  - ${failures.join('\n  - ')}`);
  log(`\nscreenshots: ${path.relative(process.cwd(), ARTIFACTS)}/`);
  log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main();
