/**
 * Browser steps of issue 29's warnings before money moves, called from e2e/walk-bots.e2e.js once the Binance key
 * exists: a spot bot whose entry sits above the market (the warning with its numbers, Save only after the
 * confirmation), started so its crossing buys fill on the paper exchange, stopped without cancel-all (the
 * "orders still open" notice on its page and card, next to the Paper badge), started again (the dialog
 * says what it holds, "Start anyway"), and the Binance key it signs with refused for deletion on the
 * Security page (the 409 naming the bot stays on the page). The bot is stopped and deleted at the end.
 *
 * What the paper exchange does with the bot is certain on the e2e price path (e2e/paper-prices.js, Binance
 * BTCUSDT always in [94,924, 95,076]), whenever the steps run: of its buys at p × 1.01, p × 1.004 and
 * p × 0.998 (p, the pre-filled price, in that band) the first two are above every price (≥ 95,303), so they
 * fill when placed; the third is below every price (≤ 94,886) and stays open; the take-profit, 1 % above
 * entries ≥ 94,924, is above every price (≥ 95,873) and never fills. So the bot holds a position from its
 * start to its clean-up: the restart dialog always has something to say.
 */
'use strict';
const { stopWithCancelAll } = require('./support/bot-form');

async function safetySteps({ page, step, fillBot, shot, T }) {
  const url = (p) => new URL(p, page.url()).toString();
  const toast = (text) => page.locator('.toast').filter({ hasText: text }).first().waitFor({ state: 'visible', timeout: T });
  const fit = (n) => {
    for (let d = 2; d >= 0; d--) {
      const s = String(Number(n.toFixed(d)));
      if (s.length <= 10) return s;
    }
    return String(Math.round(n));
  };
  let botId = null;
  /** The toasts of earlier steps cover the figures in the pictures: dismissed first, as a user would. */
  const dismissToasts = async () => {
    const buttons = page.getByRole('button', { name: 'Dismiss notification' });
    for (let i = 0; i < 10 && (await buttons.count()) > 0; i++) await buttons.first().click({ timeout: 2000 }).catch(() => undefined);
  };

  await step('entry above the market: the warning with its numbers, Save only after the confirmation, the balance says Paper (issue 29)', async () => {
    await page.goto(url('/bots?tab=spot'), { waitUntil: 'domcontentloaded' });
    await page.getByRole('tab', { name: /Spot bots/, selected: true }).waitFor();
    await page.getByRole('button', { name: 'Create bot' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create new bot' });
    await fillBot(dialog, { exchange: 'Binance', symbol: 'BTCUSDT' });
    // the balance next to the form is simulated: it says so
    const badge = dialog.getByTestId('mode-badge');
    await badge.waitFor();
    if ((await badge.textContent()) !== 'Paper') throw new Error(`the balance's mode badge says ${await badge.textContent()}`);
    const entry = dialog.getByLabel('Entry Price');
    const p = Number(await entry.inputValue());
    // 1 % above the market with rungs 0.6 % apart: the first two buys would fill at once
    await entry.fill(fit(p * 1.01));
    await dialog.getByLabel('Grid size').focus();
    const warning = dialog.getByTestId('above-market-warning');
    await warning.waitFor({ timeout: T });
    const said = ((await warning.locator('p').textContent()) || '').trim();
    if (!/\d/.test(said) || !/USDT/.test(said)) throw new Error(`the above-market warning has no numbers: ${said}`);
    const save = dialog.getByRole('button', { name: 'Save' });
    const confirm = warning.getByRole('checkbox');
    if (await confirm.isChecked()) throw new Error('the above-market confirmation is ticked before the trader ticked it');
    if (!(await save.isDisabled())) throw new Error('Save is enabled before the above-market confirmation');
    await warning.scrollIntoViewIfNeeded();
    await shot('bots-create-above-market');
    // at 375 the form is one column and the warning sits below the fold of the dialog: a picture of it in view
    const size = page.viewportSize();
    await page.setViewportSize({ width: 375, height: 812 });
    await warning.scrollIntoViewIfNeeded();
    await page.mouse.move(0, 0);
    const box = await warning.boundingBox();
    if (!box || box.x < 0 || box.x + box.width > 375) throw new Error(`at 375 the warning runs past the window: ${JSON.stringify(box)}`);
    await page.screenshot({ path: require('node:path').join(__dirname, 'artifacts', 'bots-create-above-market-warning-375.png') });
    await page.setViewportSize(size);
    await confirm.check();
    if (await save.isDisabled()) throw new Error(`Save stays disabled after the confirmation: ${(await dialog.locator('.field__error').allTextContents()).join(' | ')}`);
    // the new bot is the one this Save created (its answer), not "a card that was not there before": read
    // before the list had loaded, that took the ETCUSDT bot of the risk steps (a BTC position never came)
    const created = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/bots' && r.request().method() === 'POST', { timeout: T });
    await save.click();
    const answer = await created;
    if (answer.status() !== 201) throw new Error(`POST /api/bots answered ${answer.status()}`);
    botId = (await answer.json()).id || null;
    await toast('Bot successfully added!');
    await dialog.waitFor({ state: 'detached' });
    if (!botId) throw new Error('the create answer has no bot id');
    await page.locator(`[data-bot-id="${botId}"]`).waitFor({ timeout: T });
  });

  await step('start it, its crossing buys fill; stop WITHOUT cancel-all: the page and the card say its orders are still open (issue 29)', async () => {
    if (!botId) throw new Error('no bot from the previous step');
    await page.locator(`[data-bot-id="${botId}"]`).getByRole('link', { name: /^Details of / }).click();
    await page.waitForURL((u) => new URL(u).pathname === `/bots/${botId}`, { timeout: T });
    await page.getByTestId('bot-page').waitFor();
    await page.getByRole('button', { name: /^Start / }).click();
    await toast('Bot successfully started!');
    await page.locator('[data-testid="bot-page"][data-state="running"]').waitFor({ timeout: T });
    const table = page.getByRole('table', { name: 'Ladder orders' });
    // the two buys above every price of the e2e path fill when placed; the lowest rests below every price
    await table.locator('tr[data-kind="buy"][data-state="filled"]').first().waitFor({ timeout: 30000 });
    await table.locator('tr[data-state="open"]').first().waitFor({ timeout: T });
    await page.waitForFunction(() => /[1-9]/.test(document.querySelector('[data-testid="figure-position"]')?.textContent || ''), null, { timeout: T });
    await page.getByRole('button', { name: /^Stop / }).click();
    const dlg = page.getByRole('alertdialog', { name: 'Stop Bot' });
    await dlg.getByText('Are you sure you want to stop the Bot?').waitFor();
    if (await dlg.getByLabel('Cancel all orders').isChecked()) throw new Error('"Cancel all orders" is ticked by default');
    await dlg.getByRole('button', { name: 'Yes' }).click();
    await toast('Bot successfully stopped!');
    await page.locator('[data-testid="bot-page"][data-state="stopped"]').waitFor({ timeout: T });
    const notice = page.getByTestId('bot-page').getByTestId('orders-left-open');
    await notice.waitFor({ timeout: T });
    if (!/still open on Binance and no longer managed/.test((await notice.textContent()) || '')) throw new Error(`the page's notice: ${await notice.textContent()}`);
    const badge = page.getByTestId('bot-page').getByTestId('mode-badge');
    if ((await badge.textContent()) !== 'Paper') throw new Error(`the bot page's mode badge says ${await badge.textContent()}`);
    // issue 29: this run lasts about a second: the page said "0s"; now the length of its last run, said so
    const lastRun = '^(under 1s|\\d+[smhd]( \\d+[smh])?) \\(last run\\)$';
    // (the figures are read again once the stop is pushed: wait for that read)
    await page
      .waitForFunction((re) => new RegExp(re).test((document.querySelector('[data-testid="figure-runtime"]')?.textContent || '').trim()), lastRun, { timeout: T })
      .catch(async () => {
        throw new Error(`a stopped bot's runtime reads "${((await page.getByTestId('figure-runtime').textContent()) || '').trim()}"`);
      });
    await dismissToasts();
    await shot('bot-page-orders-left-open');
    await page.getByRole('link', { name: 'Back to bots' }).click();
    await page.waitForURL((u) => new URL(u).pathname === '/bots', { timeout: T });
    const card = page.locator(`[data-bot-id="${botId}"][data-state="stopped"]`);
    await card.getByTestId('orders-left-open').waitFor({ timeout: T });
    const cardBadge = card.getByTestId('mode-badge');
    if ((await cardBadge.textContent()) !== 'Paper') throw new Error(`the card's mode badge says ${await cardBadge.textContent()}`);
    await card.scrollIntoViewIfNeeded();
    await dismissToasts();
    await shot('bots-card-orders-left-open');
  });

  await step('start it again: the dialog says what it holds; "Cancel" keeps it stopped, "Start anyway" starts it (issue 29)', async () => {
    await page.locator(`[data-bot-id="${botId}"]`).getByRole('link', { name: /^Details of / }).click();
    await page.waitForURL((u) => new URL(u).pathname === `/bots/${botId}`, { timeout: T });
    await page.locator('[data-testid="bot-page"][data-state="stopped"]').waitFor({ timeout: T });
    const ask = async () => {
      await page.getByRole('button', { name: /^Start / }).click();
      const dlg = page.getByRole('alertdialog', { name: 'Start Bot' });
      await dlg.getByText(/^The bot holds .* BTC \(bought for .* USDT\)/).waitFor({ timeout: T });
      return dlg;
    };
    await dismissToasts();
    // it holds what its first run bought: its take-profit is above every price of the e2e path
    let dlg = await ask();
    const said = ((await dlg.locator('.confirm__question').textContent()) || '').trim();
    if (/confirmPosition/.test(said)) throw new Error(`the dialog shows the API parameter: ${said}`);
    await shot('bot-start-with-position');
    await dlg.getByRole('button', { name: 'Cancel' }).click();
    await dlg.waitFor({ state: 'detached' });
    await page.locator('[data-testid="bot-page"][data-state="stopped"]').waitFor({ timeout: T });
    dlg = await ask();
    await dlg.getByRole('button', { name: 'Start anyway' }).click();
    await toast('Bot successfully started!');
    await page.locator('[data-testid="bot-page"][data-state="running"]').waitFor({ timeout: T });
  });

  await step('delete the Binance key the running bot signs with: refused, the message names the bot and stays (issue 29)', async () => {
    await page.goto(url('/security'), { waitUntil: 'domcontentloaded' });
    await page.locator('table td', { hasText: 'e2e-binance-public-key' }).first().waitFor();
    await page.getByRole('button', { name: 'Remove Binance API key e2e-binance-public-key' }).click();
    const dlg = page.getByRole('alertdialog', { name: 'Delete API key' });
    await dlg.getByText('Remove selected API keys?').waitFor();
    await dlg.getByRole('button', { name: 'Yes' }).click();
    const refusal = page.getByTestId('key-refusal');
    await refusal.waitFor({ timeout: T });
    const said = ((await refusal.textContent()) || '').trim();
    if (!/^This API key is used by a running bot: .*BTC.*Stop it before deleting the key\.$/.test(said)) throw new Error(`the refusal says: ${said}`);
    // the toast goes, the message stays, and the key is still listed
    await page.locator('.toast').filter({ hasText: 'Error deleting API Key!' }).first().waitFor({ state: 'detached', timeout: 8000 }).catch(() => undefined);
    await refusal.waitFor({ state: 'visible' });
    await page.locator('table td', { hasText: 'e2e-binance-public-key' }).first().waitFor();
    await dismissToasts();
    await shot('security-key-in-use');
  });

  await step('clean up: stop it with cancel-all and delete it', async () => {
    await page.goto(url(`/bots/${botId}`), { waitUntil: 'domcontentloaded' });
    await page.locator('[data-testid="bot-page"][data-state="running"]').waitFor({ timeout: T });
    await stopWithCancelAll(page, T);
    await page.getByRole('button', { name: /^Delete / }).click();
    const del = page.getByRole('alertdialog', { name: 'Delete Bot' });
    await del.getByRole('button', { name: 'Yes' }).click();
    await toast('Bot successfully deleted!');
  });
  await page.goto(url('/bots'), { waitUntil: 'domcontentloaded' });
}

module.exports = { safetySteps };
