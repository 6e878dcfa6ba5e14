/**
 * Browser steps of issue 30's sessions under the user's control, called from e2e/run.js once the user is
 * signed in again: a second browser (another Chromium with a Firefox-on-Windows User-Agent) signs in
 * to the same account; My account lists both sessions, this one marked; "Sign out everywhere else" ends
 * the other, whose next page asks to sign in. Screenshots at 1280 and 375 px.
 */
'use strict';
const { signInInForm } = require('./support/account-form');

const OTHER_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

async function sessionsSteps({ page, step, shot, T, base, email, password, newBrowser }) {
  const url = (p) => new URL(p, base).toString();
  let other = null;
  try {
    await step('a second browser signs in: My account lists both sessions, this one marked (issue 30)', async () => {
      other = await newBrowser({ userAgent: OTHER_UA });
      const p = other.page;
      await p.goto(url('/sign-in'), { waitUntil: 'domcontentloaded' });
      await signInInForm(p, email, password);
      await p.waitForURL((u) => new URL(u).pathname === '/bots', { timeout: T });

      await page.goto(url('/myaccount'), { waitUntil: 'domcontentloaded' });
      const list = page.getByRole('list', { name: 'Signed-in sessions' });
      await list.waitFor({ timeout: T });
      await list.getByRole('listitem', { name: 'Firefox on Windows' }).waitFor({ timeout: T });
      const items = await list.getByRole('listitem').count();
      if (items < 2) throw new Error(`the list shows ${items} session(s)`);
      const current = list.locator('li', { hasText: 'This browser' });
      if ((await current.count()) !== 1) throw new Error('not exactly one session is marked "This browser"');
      const text = (await current.textContent()) || '';
      if (!/Headless Chrome|Chrome/.test(text) || !/From \S+/.test(text)) throw new Error(`this browser's entry says: ${text}`);
      await page.getByRole('heading', { name: 'Sessions' }).scrollIntoViewIfNeeded();
      await shot('myaccount-sessions');
    });

    await step('"Sign out everywhere else" ends the other browser\'s session: its next page asks to sign in (issue 30)', async () => {
      if (!other) throw new Error('no second browser from the previous step');
      await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
      const confirm = page.getByRole('group', { name: 'Confirm sign out everywhere else' });
      await confirm.waitFor();
      await shot('myaccount-sessions-confirm');
      await confirm.getByRole('button', { name: /^Sign out \d+ sessions?$/ }).click();
      await page.locator('.toast').filter({ hasText: /Signed out \d+ other sessions?\./ }).first().waitFor({ state: 'visible', timeout: T });
      const list = page.getByRole('list', { name: 'Signed-in sessions' });
      await list.getByRole('listitem', { name: 'Firefox on Windows' }).waitFor({ state: 'detached', timeout: T });
      await page.getByText('No other browser is signed in.').waitFor({ timeout: T });
      await shot('myaccount-sessions-after');
      // the other browser: signed out
      await other.page.goto(url('/bots'), { waitUntil: 'domcontentloaded' });
      await other.page.waitForURL((u) => new URL(u).pathname === '/sign-in', { timeout: T });
      // this one goes on
      await page.goto(url('/bots'), { waitUntil: 'domcontentloaded' });
      await page.waitForURL((u) => new URL(u).pathname === '/bots', { timeout: T });
    });
  } finally {
    if (other) await other.close().catch(() => undefined);
  }
}

module.exports = { sessionsSteps };
