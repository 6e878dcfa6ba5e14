#!/usr/bin/env node
/**
 * GridRocket through Debian's nginx with TLS, in Chromium (issue 31's "done when"): the built server
 * (`npm run build`) behind nginx running deploy/nginx/gridrocket.conf (e2e/nginx.js: a self-signed
 * certificate made by openssl, nginx as a non-root process on a free port), with COOKIE_SECURE=true,
 * PUBLIC_URL the https address and TRUST_PROXY nginx's address. A browser registers, gets Secure
 * cookies, adds a key, creates a spot bot, starts it and sees it turn running without a reload: the
 * push came over wss through nginx. Screenshots go to e2e/artifacts/proxy-*.png.
 *
 * The lockout half (failed logins from one client address do not lock out another) needs two client
 * addresses, which a browser cannot choose: test/proxy-nginx.spec.ts does it with HTTP clients bound
 * to 127.0.0.2 and 127.0.0.3. Without nginx or openssl this prints why and exits 0 (skipped).
 *
 *   node e2e/proxy.e2e.js          (after `npm run build`; `npm run test:e2e` runs it after e2e/run.js)
 */
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { findNginx, hasOpenssl, startNginx } = require('./nginx');
const { ARTIFACTS, CHROMIUM, T, freePort, launchBrowser, log, startServer, steps } = require('./support/harness');
const { registerInForm, signInInForm, addKeyInForm } = require('./support/account-form');
const { startOnItsPage } = require('./support/bot-form');

const NGINX_FROM = '127.0.0.4';

async function main() {
  log('GridRocket e2e through nginx with TLS');
  const nginx = findNginx();
  const missing = !nginx.path ? nginx.reason : !hasOpenssl() ? 'openssl is not installed' : !fs.existsSync(CHROMIUM) ? `no Chromium at ${CHROMIUM}` : null;
  if (missing) {
    log(`  skipped: ${missing}`);
    log('0 passed, 0 failed, 1 skipped');
    return;
  }
  const { step, fail, report } = steps({ lines: 6 });
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridrocket-e2e-proxy-'));
  let proxy = null;
  let server = null;
  let browser = null;
  try {
    const apiPort = await freePort();
    // nginx first (it waits for its upstream), so that the server knows its public https address
    proxy = await startNginx({ upstreamPort: apiPort, proxyBind: NGINX_FROM });
    // the built server as `npm start` runs it, behind the proxy at its public address
    server = await startServer(dataDir, { port: apiPort, logName: 'proxy-server.log', env: { COOKIE_SECURE: 'true', PUBLIC_URL: proxy.url, TRUST_PROXY: NGINX_FROM, LOG_LEVEL: 'info' } });
    const base = proxy.url;
    log(`  nginx ${base} (pid ${proxy.pid}) → API 127.0.0.1:${apiPort}, TRUST_PROXY=${NGINX_FROM}`);

    browser = await launchBrowser();
    // the certificate is the test's own, self-signed
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, ignoreHTTPSErrors: true });
    context.setDefaultTimeout(T);
    const page = await context.newPage();
    const pageErrors = [];
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    const sockets = [];
    const frames = [];
    page.on('websocket', (ws) => {
      sockets.push(ws);
      ws.on('framereceived', (f) => frames.push({ url: ws.url(), payload: String(f.payload) }));
    });
    const go = (p) => page.goto(base + p, { waitUntil: 'domcontentloaded' });
    const shot = (name) => page.screenshot({ path: path.join(ARTIFACTS, `proxy-${name}-1280.png`), fullPage: true });
    const toast = (text) => page.locator('.toast').filter({ hasText: text }).first().waitFor({ state: 'visible', timeout: T });
    const email = `proxy-${Date.now()}@example.com`;
    const password = 'Launch-2025-pad';

    const registered = await step('register over https through nginx: Secure, HttpOnly session cookie and HSTS', async () => {
      const first = await registerInForm(page, go, email, password);
      const hsts = (await first.allHeaders())['strict-transport-security'] || '';
      if (!/max-age=\d+/.test(hsts)) throw new Error(`no HSTS header through nginx: ${hsts}`);
      await page.waitForURL((u) => new URL(u).pathname === '/myaccount', { timeout: T });
      const cookies = await context.cookies(base);
      if (!cookies.length) throw new Error('no cookies');
      const notSecure = cookies.filter((c) => !c.secure).map((c) => c.name);
      if (notSecure.length) throw new Error(`cookies without Secure: ${notSecure.join(', ')}`);
      const session = cookies.find((c) => c.name === 'gr_session');
      if (!session || !session.httpOnly) throw new Error(`session cookie: ${JSON.stringify(session)} (cookies: ${cookies.map((c) => c.name).join(', ')})`);
      await shot('myaccount');
    });
    if (!registered) throw new Error('registration failed: the rest cannot run');

    await step('sign out and sign in again through nginx', async () => {
      await context.clearCookies();
      await go('/sign-in');
      await signInInForm(page, email, password);
      await page.waitForURL((u) => new URL(u).pathname === '/bots', { timeout: T });
    });

    await step('add a Binance key', async () => {
      await go('/security');
      await addKeyInForm(page, { apiKey: 'e2e-proxy-public-key', secret: 'e2e-proxy-secret-0123456789' });
      await toast('API Key successfully added!');
    });

    let botId = null;
    await step('create a spot bot', async () => {
      await go('/bots');
      await page.getByRole('button', { name: 'Create bot' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create new bot' });
      await dialog.getByLabel('Exchange').selectOption('Binance');
      await dialog.getByLabel('Pair').selectOption('BTCUSDT');
      const entry = dialog.getByLabel('Entry Price');
      await page.waitForFunction((el) => el && el.value !== '', await entry.elementHandle(), { timeout: T });
      const p = Number(await entry.inputValue());
      await dialog.getByLabel('Grid size').fill('3');
      await dialog.getByLabel('Order size').fill('0.01');
      await dialog.getByLabel('Price interval').fill(String(Number((p * 0.006).toFixed(2))));
      await dialog.getByLabel('Take profit').fill('1');
      await dialog.getByLabel('Grid size').focus();
      await shot('bots-create');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await toast('Bot successfully added!');
      const card = page.getByTestId('bot-card').first();
      await card.waitFor();
      botId = await card.getAttribute('data-bot-id');
    });

    await step('start it: it turns running without a reload (the push came over wss through nginx)', async () => {
      if (!botId) throw new Error('no bot from the previous step');
      await page.locator(`[data-bot-id="${botId}"]`).getByRole('link', { name: /^Details of / }).click();
      await page.waitForURL((u) => new URL(u).pathname === `/bots/${botId}`, { timeout: T });
      await page.getByTestId('bot-page').waitFor();
      await startOnItsPage(page, T);
      // the ladder's orders appear as the runner places them: pushed, not fetched by a reload
      await page.getByRole('table', { name: 'Ladder orders' }).locator('tr[data-kind="buy"]').first().waitFor({ timeout: T });
      if (!(await page.evaluate(() => window.__e2eNoReload === true))) throw new Error('the page reloaded');
      const live = sockets.filter((ws) => ws.url().startsWith(`${base.replace('https:', 'wss:')}/socket.io/`) && !ws.isClosed());
      if (!live.length) throw new Error(`no open wss socket.io connection to nginx; sockets: ${sockets.map((ws) => ws.url()).join(', ') || 'none'}`);
      // the push itself, as it arrived on that connection: socket.io's frame 42["bot:status",{…,"botstatus":true}]
      const pushed = frames.filter((f) => f.url.startsWith(base.replace('https:', 'wss:')) && f.payload.includes('"bot:status"') && f.payload.includes(botId) && f.payload.includes('"botstatus":true'));
      if (!pushed.length) throw new Error(`no bot:status push for ${botId} over wss; frames: ${frames.map((f) => f.payload.slice(0, 60)).join(' | ').slice(0, 500)}`);
      await shot('bot-running');
    });

    await step('the API logged the client as nginx reported it, with correlation ids', async () => {
      const lines = fs.readFileSync(server.logFile, 'utf8').split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
      const requests = lines.filter((l) => l.msg === 'request' && l.path === '/api/auth/login');
      if (!requests.length) throw new Error('no request line for the sign-in');
      // Chromium connects to nginx from 127.0.0.1; nginx to the API from 127.0.0.4 (proxy_bind)
      const bad = requests.filter((l) => l.ip !== '127.0.0.1' || !l.correlationId);
      if (bad.length) throw new Error(`request lines: ${JSON.stringify(bad[0])}`);
    });

    await step('no uncaught page errors', async () => {
      if (pageErrors.length) throw new Error(pageErrors.slice(0, 3).join('\n'));
    });
  } catch (e) {
    fail(null, e);
    if (proxy) log(`  nginx said:\n${proxy.log().slice(-2000)}`);
  } finally {
    if (browser) await browser.close().catch(() => undefined);
    if (server) await server.stop();
    if (proxy) await proxy.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  log(`\nscreenshots: ${path.relative(process.cwd(), ARTIFACTS)}/proxy-*.png`);
  process.exitCode = report() ? 0 : 1;
}

main();
