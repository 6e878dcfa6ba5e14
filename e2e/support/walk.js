/**
 * What the walks of the whole product share (issue 42: e2e/run.js was one walk of ~580 s, the long pole of
 * `npm run test:e2e`; it is now e2e/run.js and e2e/walk-bots.e2e.js, run side by side by e2e/all.js): the
 * server they walk (E2E_BASE_URL's, the contract stand-in with E2E_SERVER=stub, or the built one on the e2e
 * price path), one persistent Chromium profile and its page with what a visitor would see in the console,
 * the screenshots at 1280 and 375 px (each noting a horizontal overflow at 375), the create form's
 * realistic grid (`fillBot`), and the two closing checks. A walk is then its steps:
 *
 *   runWalk('GridRocket e2e', async (w) => { await w.step('...', async () => { ... }); });
 */
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { chromium } = require('playwright-core');
const { WIDE, NARROW } = require('../layout');
const { writePricesCsv } = require('../paper-prices');
const { ARTIFACTS, CHROMIUM, ARGS, T, log, startServer, steps } = require('./harness');

/** The server the walk runs against: E2E_BASE_URL's, the contract stand-in (E2E_SERVER=stub), or the built one. */
async function startAppServer(dataDir, logName) {
  if (process.env.E2E_BASE_URL) return { url: process.env.E2E_BASE_URL.replace(/\/$/, ''), stop: async () => undefined };
  const NODE_ENV = process.env.NODE_ENV || 'production';
  if (process.env.E2E_SERVER === 'stub') return startServer(dataDir, { logName, entry: path.join(__dirname, '..', 'stub-server.js'), nodeArgs: [], env: { NODE_ENV } });
  // the paper exchange on a known price path instead of the random walk (e2e/paper-prices.js): the steps
  // that wait for fills rely on its band, not on where a walk happens to go under the machine's load
  // and backtests on the simulated history (issue 40; the venue's candles are e2e/backtest-history.e2e.js's)
  return startServer(dataDir, { logName, env: { NODE_ENV, PAPER_PRICES: writePricesCsv(dataDir), BACKTEST_HISTORY: 'simulated' } });
}

const fit = (n) => {
  for (let d = 6; d >= 0; d--) {
    const s = String(Number(n.toFixed(d)));
    if (s.length <= 10) return s;
  }
  return String(Math.round(n));
};

/**
 * A realistic grid: 3 buys 0.6 % apart, take profit 1 % above the average entry, and a ladder
 * that costs less than the paper balance of 10,000 USDT. `crossing`: the first buy sits 0.2 %
 * above the market, and the others 1.2 % apart. On the e2e price path (e2e/paper-prices.js, BTCUSDT
 * in [94,924, 95,076]) that is certain whenever the bot starts: the first buy (≥ 94,924 × 1.002 =
 * 95,113.8) is above every price, so it fills when placed; the second (≤ 95,076 × 0.990 = 94,125)
 * is below every price and stays open, as does the take-profit (≥ 94,924 × 1.01 = 95,873).
 */
const fillBotOn = (page) => async (dialog, { exchange, symbol, crossing = false }) => {
  await dialog.getByLabel('Exchange').selectOption(exchange);
  await dialog.getByLabel('Pair').selectOption(symbol);
  const entry = dialog.getByLabel('Entry Price');
  // the current price pre-fills the entry price
  await page.waitForFunction((el) => el && el.value !== '', await entry.elementHandle(), { timeout: T });
  const p = Number(await entry.inputValue());
  if (crossing) await entry.fill(fit(Number((p * 1.002).toFixed(2))));
  await dialog.getByLabel('Grid size').fill('3');
  await dialog.getByLabel('Order size').fill(p > 1000 ? '0.01' : p > 10 ? '1' : '20');
  // on the tick of every market of the pair: Binance's BTCUSDT perpetual ticks by 0.1 (issue 32, venues/markets.ts)
  await dialog.getByLabel('Price interval').fill(fit(Number((p * (crossing ? 0.012 : 0.006)).toFixed(p > 1000 ? 1 : 2))));
  await dialog.getByLabel('Take profit').fill('1');
  await dialog.getByLabel('Grid size').focus();
  const hint = await dialog.getByLabel('Take profit').evaluate((el) => document.getElementById(el.getAttribute('aria-describedby') || '')?.textContent || '');
  if (!hint.includes('Sold at the average entry price + this %')) throw new Error(`take profit hint: ${hint}`);
  if (!/after the first fill: [0-9,]+\.\d\d USDT/.test(hint)) throw new Error(`take profit hint without a 2-decimal price: ${hint}`);
  const cost = (await dialog.getByTestId('total-cost').textContent()) || '';
  if (!/USDT/.test(cost)) throw new Error(`total cost not shown: ${cost}`);
  const costValue = Number(cost.replace(/[^0-9.]/g, ''));
  if (!(costValue > 0 && costValue < 10000)) throw new Error(`the ladder costs ${cost}: more than the 10,000 USDT paper balance`);
  // the preview lists every rung and the take-profit price after the first fill
  const rows = await dialog.getByRole('table', { name: 'Buy orders of the ladder' }).locator('tbody tr').count();
  if (rows !== 3) throw new Error(`the ladder preview has ${rows} rows`);
  await dialog.getByTestId('tp-after-first-fill').waitFor();
  const save = dialog.getByRole('button', { name: 'Save' });
  if (await save.isDisabled()) {
    const errs = await dialog.locator('.field__error').allTextContents();
    throw new Error(`Save is disabled for a valid form: ${errs.join(' | ')}`);
  }
  return cost;
};

/**
 * The premise of every step that waits for a fill: the paper exchange follows the e2e price path (not on the
 * contract stand-in, which has no paper exchange).
 */
async function pricePathStep({ page, step }) {
  if (process.env.E2E_SERVER === 'stub') return;
  await step("the paper exchange follows the e2e price path: Binance BTCUSDT inside its band, and moving", async () => {
    // the premise of every step that waits for a fill (e2e/paper-prices.js): said here once, so a server
    // on another feed (E2E_BASE_URL) fails in words rather than in a fill that never comes
    const { BAND } = require('../paper-prices');
    const read = () => page.evaluate(async () => Number(await (await fetch('/api/priceSpot?symbol=BTCUSDT&exchange=Binance', { credentials: 'include' })).text()));
    const first = await read();
    if (!(first >= BAND.low && first <= BAND.high)) throw new Error(`BTCUSDT is at ${first}, outside the e2e band ${BAND.low}–${BAND.high}: is the server on PAPER_PRICES from e2e/paper-prices.js?`);
    const deadline = Date.now() + T;
    let now = first;
    while (now === first && Date.now() < deadline) {
      await page.waitForTimeout(500);
      now = await read();
    }
    if (now === first) throw new Error(`BTCUSDT stayed at ${first} for ${T} ms`);
    if (!(now >= BAND.low && now <= BAND.high)) throw new Error(`BTCUSDT moved to ${now}, outside the e2e band`);
  });
}

/**
 * One walk: the server (its log in e2e/artifacts/`logName`), a persistent Chromium profile, its page, and
 * `body(w)` with w = { base, dataDir, page, step, fail, go, path_, expectPath, toast, shot, heading, fillBot,
 * consoleLog, requests, closingSteps }. `w.closingSteps()` runs the checks every walk ends with (no overflow
 * at 375 in any picture, no uncaught page error). Prints `N passed, M failed` last and exits 1 on a failure.
 */
function runWalk(title, { logName = 'server.log' } = {}, body) {
  const { step, fail, report } = steps({ lines: 6 });
  const main = async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    const dataDir = process.env.E2E_DATA_DIR || fs.mkdtempSync(path.join(os.tmpdir(), 'gridrocket-e2e-data-'));
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'gridrocket-e2e-profile-'));
    let server = null;
    let context = null;
    try {
      log(title);
      server = await startAppServer(dataDir, logName);
      const base = server.url;
      log(`  server: ${base} (data ${dataDir})`);
      context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ARGS, headless: true, viewport: WIDE });
      context.setDefaultTimeout(T);
      const page = context.pages()[0] || (await context.newPage());
      const consoleErrors = [];
      page.on('pageerror', (e) => consoleErrors.push(String(e)));
      // what a visitor would see in the console (failed requests are logged there as errors)
      const consoleLog = [];
      page.on('console', (m) => {
        if (m.type() === 'error') consoleLog.push(m.text());
      });
      page.on('response', (r) => {
        if (r.status() === 401) consoleLog.push(`401 ${r.url()}`);
      });
      const requests = [];
      page.on('request', (r) => requests.push(r.url()));
      const go = (p) => page.goto(base + p, { waitUntil: 'domcontentloaded' });
      const path_ = () => new URL(page.url()).pathname;
      const expectPath = async (p) => {
        await page.waitForURL((u) => new URL(u).pathname === p, { timeout: T });
      };
      const toast = (text) => page.locator('.toast').filter({ hasText: text }).first().waitFor({ state: 'visible', timeout: T });
      const overflowAt375 = [];
      const shot = async (name) => {
        await page.mouse.move(0, 0); // no hover crosshair or tooltip in the pictures
        await page.evaluate(() => window.scrollTo(0, 0)); // a full-page picture of a scrolled page draws the sticky navbar mid-page
        await page.waitForTimeout(150);
        await page.screenshot({ path: path.join(ARTIFACTS, `${name}-1280.png`), fullPage: true });
        await page.setViewportSize(NARROW);
        await page.waitForTimeout(250);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        if (overflow > 1) overflowAt375.push(`${name}: ${overflow} px`);
        await page.screenshot({ path: path.join(ARTIFACTS, `${name}-375.png`), fullPage: true });
        await page.setViewportSize(WIDE);
        await page.waitForTimeout(100);
      };
      const heading = (name) => page.getByRole('heading', { name, exact: true }).first().waitFor({ state: 'visible' });
      const closingSteps = async () => {
        await step('no screen overflows horizontally at 375 px', async () => {
          if (overflowAt375.length) throw new Error(overflowAt375.join(', '));
        });
        await step('no uncaught page errors', async () => {
          if (consoleErrors.length) throw new Error(consoleErrors.slice(0, 3).join('\n'));
        });
      };
      await body({ base, dataDir, context, page, step, fail, go, path_, expectPath, toast, shot, heading, fillBot: fillBotOn(page), consoleLog, requests, closingSteps });
    } catch (e) {
      fail(null, e);
    } finally {
      if (context) await context.close().catch(() => undefined);
      if (server) await server.stop();
      fs.rmSync(profile, { recursive: true, force: true });
    }
    log(`\nscreenshots: ${path.relative(process.cwd(), ARTIFACTS)}/`);
    process.exit(report() ? 0 : 1);
  };
  main();
}

module.exports = { startAppServer, runWalk, pricePathStep, fit };
