#!/usr/bin/env node
/**
 * Issue 40, the access points, in Chromium at 1280 and 375 px, on the built server (`npm run build`) with the
 * paper exchange:
 * - point 10: the verification link opened in a browser with no session says "verified, sign in" and shows no
 *   signed-in shell (the navbar offers Login, not Logout);
 * - point 11: an auditor (AUDITOR_EMAILS, address verified by the mailed link) finds every user's bots on
 *   /audit, filters them, and opens one read-only (no start, stop, edit or delete);
 * - the balances page: a trader whose bot has open buys sees Binance spot USDT free and locked, and the
 *   other accounts.
 * Screenshots go to e2e/artifacts/access-*.png; nothing in them is cut off at either width.
 *
 *   node e2e/access.e2e.js          (after `npm run build`)
 */
'use strict';
const path = require('node:path');
const { atBothWidths, nothingCutOff, WIDE } = require('./layout');
const { CENTRE } = require('./paper-prices');
const { ARTIFACTS, mailedToken, newClient, runPaperScript, signUp } = require('./support/harness');

const AUDITOR = 'audit-e2e@example.com';
const PASSWORD = 'correct-horse-1';

runPaperScript('access', { env: { AUDITOR_EMAILS: AUDITOR } }, async ({ base, dataDir, browser, pageErrors, step, T }) => {
  const shot = async (page, name, width, locator) => {
    await page.mouse.move(0, 0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(150);
    await page.screenshot({ path: path.join(ARTIFACTS, `access-${name}-${width}.png`), fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    return [...(overflow > 1 ? [`the page scrolls sideways by ${overflow} px`] : []), ...(locator ? await nothingCutOff(locator, 'td, th, p, h1, h2, a, button, span') : [])];
  };
  // a trader with two bots, one running (its buys, below the paper price's band, stay open: USDT locked)
  const trader = await newClient(browser, base);
  const { uid } = await signUp(trader.context, base, 'trader-e2e@example.com', { password: PASSWORD, binanceKey: true });
  const entry = Math.floor(CENTRE * 0.99);
  const running = await trader.call('POST', '/api/bots', { exchange: 'Binance', symbol: 'BTCUSDT', botType: 'Spot', numOfOrders: 3, orderSize: '0.01', interval: 500, entryPrice: entry, takeProfit: 1 });
  const idle = await trader.call('POST', '/api/bots', { exchange: 'Binance', symbol: 'ETHUSDT', botType: 'Spot', numOfOrders: 3, orderSize: '0.01', interval: 20, entryPrice: 2000, takeProfit: 1 });
  if (running.status !== 201 || idle.status !== 201) throw new Error(`create ${running.status} ${JSON.stringify(running.body)} / ${idle.status} ${JSON.stringify(idle.body)}`);
  const started = await trader.call('GET', `/api/startBot?id=${running.body.id}&userId=${uid}`);
  if (started.status !== 202) throw new Error(`start ${started.status} ${JSON.stringify(started.body)}`);

  // the auditor registers; the verification link is opened in another browser, with no session there
  const auditor = await newClient(browser, base);
  const aud = await auditor.call('POST', '/api/auth/register', { email: AUDITOR, password: PASSWORD });
  if (aud.status !== 201) throw new Error(`register the auditor ${aud.status}`);
  const token = await mailedToken(dataDir, AUDITOR);

  await step('the verification link in a browser with no session: verified, "Sign in", no signed-in shell (issue 40, point 10)', async () => {
    const other = await browser.newContext({ viewport: WIDE });
    const page = await other.newPage();
    page.setDefaultTimeout(T);
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    await page.goto(`${base}/verify-email-address?token=${token}`, { waitUntil: 'domcontentloaded' });
    await page.getByRole('heading', { name: 'Email address verified' }).waitFor();
    await page.getByRole('main').getByRole('link', { name: 'Sign in' }).waitFor();
    if (await page.getByRole('button', { name: 'Logout' }).count()) throw new Error('a Logout button: the page shows a signed-in shell');
    await page.getByRole('button', { name: 'Login' }).waitFor();
    const stored = await page.evaluate(() => window.localStorage.getItem('user'));
    if (stored && stored !== 'null') throw new Error(`the verified account was stored as this browser's user: ${stored}`);
    await atBothWidths(page, (w) => shot(page, 'verified-signed-out', w, page.locator('.auth-card')));
    await other.close();
  });

  const login = await auditor.call('POST', '/api/auth/login', { email: AUDITOR, password: PASSWORD });
  if (login.status !== 200 || !login.body.emailVerified) throw new Error(`auditor login ${login.status} ${JSON.stringify(login.body)}`);
  await auditor.remember(login.body);
  const page = await auditor.context.newPage();
  page.setDefaultTimeout(T);
  page.on('pageerror', (e) => pageErrors.push(String(e)));

  await step("the auditor's list: every user's bots, filtered by status, in the navigation (issue 40, point 11)", async () => {
    await page.goto(`${base}/bots`, { waitUntil: 'domcontentloaded' });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit' }).click();
    const table = page.getByRole('table', { name: 'Bots to audit' });
    await table.waitFor();
    await page.getByTestId('audit-total').filter({ hasText: '2 bots' }).waitFor();
    const owners = await table.getByTestId('audit-row').allTextContents();
    if (!owners.every((t) => t.includes('trader-e2e@example.com'))) throw new Error(`rows: ${owners.join(' | ')}`);
    await atBothWidths(page, (w) => shot(page, 'audit-list', w, page.getByTestId('audit-page')));
    await page.getByLabel('Status').selectOption('running');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByTestId('audit-total').filter({ hasText: '1 bot' }).waitFor();
    const row = table.getByTestId('audit-row');
    if ((await row.getAttribute('data-bot-id')) !== running.body.id) throw new Error('the filtered row is not the running bot');
    await atBothWidths(page, (w) => shot(page, 'audit-filtered', w, page.getByTestId('audit-page')));
  });

  await step("a bot opens read-only for the auditor: figures and settings, no start, stop, edit or delete", async () => {
    await page.getByRole('table', { name: 'Bots to audit' }).getByRole('link', { name: /^Overview of/ }).click();
    const view = page.getByTestId('audit-bot-page');
    await view.waitFor();
    await view.getByTestId('read-only').filter({ hasText: 'Read-only: you are auditing trader-e2e@example.com’s bot.' }).waitFor();
    await view.getByTestId('figure-capital').waitFor();
    for (const name of [/^Start/, /^Stop/, /^Edit/, /^Delete/]) if (await page.getByRole('button', { name }).count()) throw new Error(`a ${name} button on the auditor's page`);
    await atBothWidths(page, (w) => shot(page, 'audit-bot', w, view.locator('.page__head, [data-testid="read-only"], .audit__facts')));
    await view.getByRole('link', { name: 'History' }).click();
    await page.getByRole('heading', { name: 'History' }).waitFor();
    await page.getByText('Bot created').first().waitFor();
  });

  await step('the balances page: Binance spot USDT free and locked by the open buys, and the other accounts', async () => {
    const tpage = await trader.context.newPage();
    tpage.setDefaultTimeout(T);
    tpage.on('pageerror', (e) => pageErrors.push(String(e)));
    // the bot's buys are placed once it runs
    for (let i = 0; i < 100; i++) {
      const s = await trader.call('GET', `/api/bots/${running.body.id}/summary`);
      if ((s.body.ladder || []).filter((r) => r.state === 'open').length === 3) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    await tpage.goto(`${base}/bots`, { waitUntil: 'domcontentloaded' });
    await tpage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Balances' }).click();
    const spot = tpage.getByTestId('bal-Binance-spot');
    await spot.waitFor();
    const locked = Number(((await tpage.getByTestId('bal-Binance-spot-USDT-locked').textContent()) || '').replace(/,/g, ''));
    const free = Number(((await tpage.getByTestId('bal-Binance-spot-USDT-free').textContent()) || '').replace(/,/g, ''));
    const held = 0.01 * (entry + (entry - 500) + (entry - 1000));
    if (!(locked >= held - 0.01 && Math.abs(free + locked - 10000) < 0.01)) throw new Error(`USDT free ${free}, locked ${locked}; the buys hold ${held}`);
    for (const id of ['bal-Binance-futures', 'bal-Kucoin-spot', 'bal-Kucoin-futures']) await tpage.getByTestId(id).waitFor();
    await tpage.getByText('Paper: simulated balances of the paper exchange').waitFor();
    await atBothWidths(tpage, (w) => shot(tpage, 'balances', w, tpage.getByTestId('balances-page')));
    if (pageErrors.length) throw new Error(`page errors: ${pageErrors.join('; ')}`);
  });
});
