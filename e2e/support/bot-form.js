/**
 * The create-bot dialog, as the browser scripts open it (issue 42: each script had its own copy): the bots
 * page's tab, "Create bot", the market picked and the entry price the form fills in from it; and the stop
 * with cancel-all on a bot's page.
 */
'use strict';

/** The create dialog on the bots page's `tab` ('spot' or 'futures'), at `base` or where the page already is. */
async function openCreateForm(page, tab, base) {
  const where = base ? `${base}/bots?tab=${tab}` : new URL(`/bots?tab=${tab}`, page.url()).toString();
  await page.goto(where, { waitUntil: 'domcontentloaded' });
  await page.getByRole('tab', { name: tab === 'futures' ? /Futures bots/ : /Spot bots/, selected: true }).waitFor();
  await page.getByRole('button', { name: 'Create bot' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create new bot' });
  await dialog.waitFor();
  return dialog;
}

/** Picks `exchange` and `symbol` in the dialog and waits for the entry price the form fills in; returns that field. */
async function pickMarket(page, dialog, { exchange = 'Binance', symbol = 'BTCUSDT', T }) {
  await dialog.getByLabel('Exchange').selectOption(exchange);
  await dialog.getByLabel('Pair').selectOption(symbol);
  const entry = dialog.getByLabel('Entry Price');
  await page.waitForFunction((el) => el && el.value !== '', await entry.elementHandle(), { timeout: T });
  return entry;
}

/**
 * On a stopped bot's page: marks the page (window.__e2eNoReload, gone after a reload), clicks Start, and waits for
 * the toast and the page turned to running; the caller checks the mark to prove the change was pushed.
 */
async function startOnItsPage(page, T) {
  await page.evaluate(() => {
    window.__e2eNoReload = true;
  });
  await page.getByRole('button', { name: /^Start / }).click();
  await page.locator('.toast').filter({ hasText: 'Bot successfully started!' }).first().waitFor({ state: 'visible', timeout: T });
  await page.locator('[data-testid="bot-page"][data-state="running"]').waitFor({ timeout: T });
}

/** On a running bot's page: Stop with "Cancel all orders", the toast, and the page turned to stopped. */
async function stopWithCancelAll(page, T) {
  await page.getByRole('button', { name: /^Stop / }).click();
  const dlg = page.getByRole('alertdialog', { name: 'Stop Bot' });
  await dlg.getByLabel('Cancel all orders').check();
  await dlg.getByRole('button', { name: 'Yes' }).click();
  await page.locator('.toast').filter({ hasText: 'Bot successfully stopped!' }).first().waitFor({ state: 'visible', timeout: T });
  await page.locator('[data-testid="bot-page"][data-state="stopped"]').waitFor({ timeout: T });
}

module.exports = { openCreateForm, pickMarket, startOnItsPage, stopWithCancelAll };
