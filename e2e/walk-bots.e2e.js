#!/usr/bin/env node
/**
 * GridRocket browser test, the bots walk (issue 42: the second half of what e2e/run.js walked, in a browser
 * and server of its own, so that e2e/all.js runs the two side by side). A trader as run.js leaves one
 * (registered in the form, verified through the mailed link, a Kucoin and a Binance key), then: a spot and a
 * futures bot with every risk setting (risk.e2e.js), the warnings before money moves (safety.e2e.js), ranges,
 * templates and copies (templates.e2e.js), signed signals (signals.e2e.js), keys that cannot withdraw
 * (keys.e2e.js), two-factor sign-in in browsers of its own (two-factor.e2e.js), page 2 of the list, and every
 * section from the navbar at 375. Same server, flags and pictures as run.js (e2e/support/walk.js).
 *
 *   node e2e/walk-bots.e2e.js       after `npm run build` (E2E_SERVER and E2E_BASE_URL as in e2e/run.js)
 *
 * Prints `N passed, M failed` last and exits non-zero on any failure.
 */
'use strict';
const path = require('node:path');
const { WIDE, NARROW } = require('./layout');
const { ARTIFACTS, T, apiCalls, findMailLink, log } = require('./support/harness');
const { registerInForm } = require('./support/account-form');
const { runWalk, pricePathStep } = require('./support/walk');

/** The keys run.js adds in its forms before these steps: a Kucoin key, and the Binance key the bots sign with. */
const KEYS = [
  { exchange: 'Kucoin', apiKey: 'e2e-kucoin-public-key', keySecret: 'e2e-kucoin-secret-0123456789', passPhrase: 'e2e-passphrase' },
  { exchange: 'Binance', apiKey: 'e2e-binance-public-key', keySecret: 'e2e-binance-secret-0123456789', passPhrase: '' },
];

runWalk('GridRocket e2e: the bots walk', { logName: 'walk-bots-server.log' }, async (w) => {
  const { base, dataDir, context, page, step, go, expectPath, heading, fillBot, shot, closingSteps } = w;
  // the trader (set up, not checked: e2e/run.js walks the forms)
  const email = `e2e-bots-${Date.now()}@example.com`;
  await registerInForm(page, go, email, 'Launch-2025-pad');
  await expectPath('/myaccount');
  const link = new URL(await findMailLink(dataDir, email, 'verify-email-address'), base);
  await go(link.pathname + link.search);
  await heading('Email address verified');
  const { call } = apiCalls(context, base);
  const { uid } = JSON.parse(await page.evaluate(() => window.localStorage.getItem('user')));
  for (const access of KEYS) {
    const added = await call('POST', '/api/api-credentials', { access: { ...access, userId: uid } });
    if (added.status !== 201) throw new Error(`add the ${access.exchange} key: ${added.status} ${JSON.stringify(added.body)}`);
  }
  await go('/bots');
  await heading('Bots');

  log('bots');
  await pricePathStep(w);

  await require('./risk.e2e').riskSteps({ page, step, fillBot, shot, T });
  await require('./safety.e2e').safetySteps({ page, step, fillBot, shot, T });
  // issue 32: a bot set by a price range, templates and copies (the server's routes: not on the stub)
  if (process.env.E2E_SERVER !== 'stub') await require('./templates.e2e').rangeTemplateSteps({ page, step, shot, T });
  // issue 32 (signals.e2e.js): the stub server has no signal routes
  if (process.env.E2E_SERVER !== 'stub') await require('./signals.e2e').signalsSteps({ page, step, shot, T, base });
  // issue 30 (keys.e2e.js): here, after the bots' timed steps, whose crossing orders are priced minutes earlier
  if (process.env.E2E_SERVER !== 'stub' && (!process.env.E2E_BASE_URL || process.env.E2E_DATA_DIR)) await require('./keys.e2e').keySteps({ page, step, shot, T, dataDir });
  // two-factor sign-in (issue 30): a new account in browsers of its own, so this walk's user is not asked for codes
  const twoFactor = require('./two-factor.e2e');
  await twoFactor.twoFactorSteps({ base, step, T, launch: twoFactor.launchBrowser });

  await step('page 2 of the list starts at the list top, and the page survives a reload', async () => {
    // ten more spot bots through the API (the form was walked above)
    const made = await page.evaluate(async () => {
      const token = decodeURIComponent((document.cookie.match(/(?:^|; )csrf_token=([^;]+)/) || [])[1] || '');
      const price = Number(await (await fetch('/api/priceSpot?symbol=BTCUSDT&exchange=Binance', { credentials: 'include' })).text());
      const entry = Math.floor(price * 0.9);
      let ok = 0;
      for (let i = 0; i < 10; i++) {
        const res = await fetch('/api/bots', {
          method: 'POST',
          credentials: 'include',
          headers: { 'content-type': 'application/json', 'x-csrf-token': token },
          body: JSON.stringify({ exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 2, orderSize: '0.01', interval: 10, entryPrice: entry - i, takeProfit: 1, botType: 'Spot', status: false, pid: -1 }),
        });
        if (res.status === 201) ok++;
      }
      return ok;
    });
    if (made !== 10) throw new Error(`created ${made} of 10 bots`);
    await page.setViewportSize(NARROW);
    await go('/bots');
    const nav = page.getByRole('navigation', { name: 'Spot bots pages' });
    await nav.waitFor();
    await nav.scrollIntoViewIfNeeded();
    await nav.getByRole('button', { name: 'Page 2' }).click();
    await page.waitForFunction(() => new URL(location.href).searchParams.get('page') === '2');
    await page.waitForTimeout(300);
    const top = await page.locator('.toolbar').evaluate((el) => el.getBoundingClientRect().top);
    if (top < -2 || top > 200) throw new Error(`after "Page 2" the list top is at ${Math.round(top)} px of the window`);
    await page.reload({ waitUntil: 'domcontentloaded' });
    await page.getByRole('navigation', { name: 'Spot bots pages' }).getByRole('button', { name: 'Page 2', pressed: undefined }).waitFor();
    const current = await page.getByRole('navigation', { name: 'Spot bots pages' }).locator('[aria-current="page"]').textContent();
    if ((current || '').trim() !== '2') throw new Error(`after a reload the list shows page ${current}`);
    await page.setViewportSize(WIDE);
    await shot('bots-page-2');
  });

  log('mobile');
  await step('at 375 px every section is reachable from the navbar', async () => {
    await page.setViewportSize(NARROW);
    await go('/bots');
    await heading('Bots');
    const sections = [
      ['Home', 'How it works'],
      ['Bots', 'Bots'],
      ['API keys', 'Security'],
      ['Dashboard', 'User Profile'],
      ['Profile', 'Profile'],
      ['FAQ', 'Frequently asked questions'],
    ];
    for (const [link, h] of sections) {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Menu' }).click();
      const menu = page.getByRole('list', { name: 'All sections' });
      await menu.waitFor();
      if (link === 'Home') await page.screenshot({ path: path.join(ARTIFACTS, 'nav-menu-375.png') });
      await menu.getByRole('link', { name: link, exact: true }).click();
      await heading(h);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (overflow > 1) throw new Error(`${link}: ${overflow} px of horizontal overflow at 375`);
    }
    await page.setViewportSize(WIDE);
  });
  await step('the FAQ at 1280 and 375', async () => {
    await go('/faq');
    await heading('Frequently asked questions');
    await page.locator('.faq__item summary').first().click();
    await shot('faq-open');
  });

  await closingSteps();
});
