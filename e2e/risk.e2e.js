/**
 * Browser steps of issue 14 (docs/risk.md), called from e2e/walk-bots.e2e.js once bots can be created: a spot
 * bot with every advanced setting (percent spacing, size scale, stop-loss %, trailing take-profit,
 * follow with a limit) and a futures bot with a stop-loss price are created through the form's
 * "Advanced" section, whose preview follows the settings live; each bot's page then shows its
 * settings and levels.
 */
'use strict';
const { openCreateForm } = require('./support/bot-form');

const { futuresRiskSteps } = require('./futures-risk.e2e');

async function riskSteps({ page, step, fillBot, shot, T }) {
  const openAdvanced = async (dialog) => {
    const section = dialog.getByTestId('advanced');
    if (!(await section.evaluate((el) => el.open))) await section.locator('summary').click();
    return section;
  };
  /** Saves the form and returns the id the server gave the new bot (a diff of the cards raced the list's loading). */
  const saveNew = async (dialog) => {
    const created = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/bots' && r.request().method() === 'POST', { timeout: T });
    await dialog.getByRole('button', { name: 'Save' }).click();
    const answer = await created;
    if (answer.status() !== 201) throw new Error(`POST /api/bots answered ${answer.status()}`);
    const id = (await answer.json()).id;
    if (!id) throw new Error('the create answer has no bot id');
    return id;
  };
  const botPageOf = async (id) => {
    await page.locator(`[data-bot-id="${id}"]`).getByRole('link', { name: /^Details of / }).click();
    await page.waitForURL((u) => new URL(u).pathname === `/bots/${id}`, { timeout: T });
    await page.getByTestId('bot-page').waitFor();
    return id;
  };

  /** Saves the new bot, waits for its toast and its card, and reads the advanced summary on its page. */
  const savedBotSummary = async (dialog) => {
    const id = await saveNew(dialog);
    await page.locator('.toast').filter({ hasText: 'Bot successfully added!' }).first().waitFor({ state: 'visible', timeout: T });
    await page.locator(`[data-bot-id="${id}"]`).waitFor({ timeout: T });
    await botPageOf(id);
    const summary = page.getByTestId('advanced-summary');
    await summary.waitFor({ timeout: T });
    return (await summary.textContent()) || '';
  };

  await step('advanced: a spot bot with percent spacing, size scale, stop-loss, trailing and follow; the preview follows live', async () => {
    const dialog = await openCreateForm(page, 'spot');
    await fillBot(dialog, { exchange: 'Binance', symbol: 'ETCUSDT' });
    const section = await openAdvanced(dialog);
    const rows = () => section.getByTestId('advanced-preview').locator('tbody tr').allTextContents();
    const equal = await rows();
    await section.getByLabel('Spacing').selectOption('percent');
    await dialog.getByLabel('Price interval').fill('1');
    await section.getByLabel('Size scale').fill('1.5');
    await section.getByLabel('Stop-loss', { exact: true }).fill('8');
    await section.getByLabel('Trailing take-profit').fill('0.5');
    await section.getByLabel('Grid', { exact: true }).selectOption('follow');
    const entry = Number(await dialog.getByLabel('Entry Price').inputValue());
    await section.getByLabel('Follow up to').fill(String(Math.round(entry * 1.5)));
    await dialog.getByLabel('Grid size').focus();
    const scaled = await rows();
    if (scaled.length !== 3 || JSON.stringify(scaled) === JSON.stringify(equal)) throw new Error(`the preview did not follow: ${equal.join(' / ')} → ${scaled.join(' / ')}`);
    await section.getByTestId('advanced-stop').waitFor();
    await section.getByText(/Trailing from/).waitFor();
    const save = dialog.getByRole('button', { name: 'Save' });
    if (await save.isDisabled()) throw new Error(`Save is disabled: ${(await dialog.locator('.field__error').allTextContents()).join(' | ')}`);
    await shot('bots-create-advanced');
    const text = await savedBotSummary(dialog);
    for (const want of [/Percent spacing/, /Order sizes × 1\.5/, /Stop-loss 8 % below the average entry/, /Trailing take-profit 0\.5 %/, /Follows the price up to/]) {
      if (!want.test(text)) throw new Error(`the bot page does not show ${want}: ${text}`);
    }
    await shot('bot-page-advanced');
  });

  await step('advanced: a futures bot with a stop-loss price; its liquidation price is shown before the start and on its page', async () => {
    const dialog = await openCreateForm(page, 'futures');
    await fillBot(dialog, { exchange: 'Binance', symbol: 'ETCUSDT' });
    const section = await openAdvanced(dialog);
    const entry = Number(await dialog.getByLabel('Entry Price').inputValue());
    const stop = (entry * 0.8).toFixed(2);
    // (issue 40: a stop 20 % below at the account's 20× lies beyond the liquidation price and is refused: 2× keeps it above)
    await dialog.getByTestId('futures-risk').getByLabel('Leverage').fill('2');
    await section.getByLabel('Stop-loss price').fill(stop);
    await dialog.getByLabel('Grid size').focus();
    await section.getByTestId('advanced-liquidation').waitFor();
    await section.getByTestId('advanced-stop').filter({ hasText: new RegExp(Number(stop).toLocaleString('en-US').replace(/\./g, '\\.')) }).waitFor();
    const text = await savedBotSummary(dialog);
    if (!/Stop-loss at/.test(text) || !/Liquidation of the full ladder/.test(text)) throw new Error(`the futures bot page shows: ${text}`);
    await shot('bot-page-advanced-futures');
  });
  // issue 40 point 3: leverage, margin mode, liquidation prices and the warning (e2e/futures-risk.e2e.js)
  await futuresRiskSteps({ page, step, fillBot, shot, T });
  await page.goto(new URL('/bots', page.url()).toString(), { waitUntil: 'domcontentloaded' });
}

module.exports = { riskSteps };
