#!/usr/bin/env node
/**
 * Forms that say why, and the investment-based form, in Chromium (issue 40, point 7 and "what traders from
 * the hosted grids expect": "a browser step at 1280 and 375 px for the neutral form"). The built server
 * (`npm run build`) on its paper exchange, BTCUSDT held near 95,000 (e2e/paper-prices.js):
 *  - the neutral futures form has no Take profit field; while its grid is not filled in, Save is disabled
 *    and says which fields it waits for (tied to the button); filled, it saves without a take profit;
 *  - the spot form set by its total investment: 20 USDT is refused with the numbers (the smallest
 *    investment for the grid, 28.20 USDT, from Binance spot's minimum order value of 5 USDT), Save says so;
 *    1000 USDT sizes 0.00212 BTC per order (rungs 95,000 … 93,000, Σ 470,000), shown with the market's
 *    minimums; the bot is saved with its investment and its name, which its card shows.
 * Screenshots of the forms at 1280 and 375 px go to e2e/artifacts/forms-*.png; nothing in them is cut off.
 *
 *   node e2e/forms.e2e.js          (after `npm run build`)
 */
'use strict';
const path = require('node:path');
const { atBothWidths, nothingCutOff } = require('./layout');
const { openCreateForm, pickMarket } = require('./support/bot-form');
const { ARTIFACTS, runPaperScript, signUp } = require('./support/harness');

runPaperScript('forms', {}, async ({ base, context, page, pageErrors: consoleErrors, step, T }) => {
  const { uid, call } = await signUp(context, base, 'forms-e2e@example.com', { binanceKey: true });

  const openForm = async (tab) => {
    const dialog = await openCreateForm(page, tab, base);
    const entryField = await pickMarket(page, dialog, { T });
    await entryField.fill('95000');
    return dialog;
  };
  /** The form at both widths: the whole window, and the Save area, with nothing of the form cut off. */
  const shots = async (dialog, name) => {
    await atBothWidths(page, async (width) => {
      await page.mouse.move(0, 0);
      const save = dialog.getByRole('button', { name: 'Save' });
      await save.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(ARTIFACTS, `forms-${name}-${width}.png`) });
      const reasons = dialog.getByTestId('save-reasons');
      if (await reasons.count()) await reasons.screenshot({ path: path.join(ARTIFACTS, `forms-${name}-reasons-${width}.png`) });
      // the ladder's fields (a neutral grid's: no Take profit among them)
      await dialog.getByLabel('Price interval').scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(ARTIFACTS, `forms-${name}-fields-${width}.png`) });
      const investment = dialog.getByTestId('investment');
      if (await investment.count()) {
        await investment.scrollIntoViewIfNeeded();
        await page.screenshot({ path: path.join(ARTIFACTS, `forms-${name}-investment-${width}.png`) });
      }
      return nothingCutOff(dialog, 'label, small, li, p, button, input, select');
    });
  };
  const describedBy = async (button) => {
    const ids = (await button.getAttribute('aria-describedby')) || '';
    return ids ? ((await page.locator(`[id="${ids}"]`).textContent()) || '').trim() : '';
  };
  await step('the neutral form: no Take profit field; Save is disabled and says it waits for Grid size, Order size and Price interval', async () => {
    const dialog = await openForm('futures');
    await dialog.getByLabel('Direction').selectOption('neutral');
    if (await dialog.getByLabel('Take profit').count()) throw new Error('the neutral form still has a Take profit field');
    const save = dialog.getByRole('button', { name: 'Save' });
    if (!(await save.isDisabled())) throw new Error('Save is enabled on an empty grid');
    const why = await describedBy(save);
    if (why !== 'Save is disabled:Fill in: Grid size, Order size, Price interval') throw new Error(`the disabled Save says "${why}"`);
    await shots(dialog, 'neutral-disabled');
    // the grid filled in: buys 94,900 … 94,700 and sells 95,100 … 95,300, 0.002 BTC each (≥ 100 USDT, USDⓈ-M's minimum)
    await dialog.getByLabel('Grid size').fill('3');
    await dialog.getByLabel('Order size').fill('0.002');
    await dialog.getByLabel('Price interval').fill('100');
    await page.waitForFunction((el) => el && !el.disabled, await save.elementHandle(), { timeout: T });
    if (await dialog.getByTestId('save-reasons').count()) throw new Error('the reasons stay once Save is enabled');
    await shots(dialog, 'neutral-ready');
    await save.click();
    await page.locator('.toast').filter({ hasText: 'Bot successfully added!' }).first().waitFor();
    const bots = (await call('GET', `/api/bots/${uid}`)).body;
    const neutral = bots.find((b) => b.direction === 'neutral');
    if (!neutral || neutral.takeprofit !== 0 || neutral.numoforders !== 3) throw new Error(`the server has ${JSON.stringify(neutral)}`);
  });

  await step('the investment form: 20 USDT is refused with the numbers; 1000 USDT sizes 0.00212 BTC per order with the minimums shown; saved with its investment and its name', async () => {
    const dialog = await openForm('spot');
    await dialog.getByLabel('Name (optional)').fill('Night grid');
    await dialog.getByLabel('Grid size').fill('5');
    await dialog.getByLabel('Price interval').fill('500');
    await dialog.getByLabel('Take profit').fill('1');
    await dialog.getByRole('radio', { name: 'Total investment (USDT)' }).check();
    await dialog.getByLabel('Investment (USDT)', { exact: true }).fill('20');
    await dialog.getByLabel('Investment (USDT)', { exact: true }).blur();
    const message = "An investment of 20.00 USDT is too small for this grid: its 5 orders would be 0.00004 BTC each, and the smallest would be worth 3.72 USDT, below the market's minimum order value of 5 USDT. The smallest investment for this grid is 28.20 USDT";
    await dialog.locator('.field__error').filter({ hasText: message }).waitFor();
    const save = dialog.getByRole('button', { name: 'Save' });
    if (!(await save.isDisabled())) throw new Error('Save is enabled with an investment too small');
    const why = await describedBy(save);
    if (why !== `Save is disabled:Investment (USDT): ${message}`) throw new Error(`the disabled Save says "${why}"`);
    const minimums = ((await dialog.getByTestId('investment-minimums').textContent()) || '').trim();
    if (minimums !== "The market's minimums: amount step 0.00001 BTC, minimum amount 0.00001 BTC, minimum order value 5 USDT. Smallest investment for this grid: 28.20 USDT") throw new Error(`the minimums read "${minimums}"`);
    await shots(dialog, 'investment-too-small');

    await dialog.getByLabel('Investment (USDT)', { exact: true }).fill('1000');
    await dialog.getByTestId('investment-sizing').filter({ hasText: '0.00212 BTC per order × 5 orders: 996.40 USDT locked by the orders' }).waitFor();
    if ((await dialog.getByLabel('Order size').inputValue()) !== '0.00212') throw new Error('the order size field does not show the sized 0.00212');
    await page.waitForFunction((el) => el && !el.disabled, await save.elementHandle(), { timeout: T });
    await shots(dialog, 'investment-ready');
    await save.click();
    await page.locator('.toast').filter({ hasText: 'Bot successfully added!' }).first().waitFor();
    const bot = (await call('GET', `/api/bots/${uid}`)).body.find((b) => b.investment !== undefined);
    if (!bot || bot.investment !== 1000 || bot.ordersize !== 0.00212 || bot.name !== 'Night grid') throw new Error(`the server has ${JSON.stringify(bot)}`);
    const card = page.locator(`[data-testid="bot-card"][data-bot-id="${bot.id}"]`);
    await card.getByTestId('bot-name').filter({ hasText: 'Night grid' }).waitFor();
    await atBothWidths(page, async (width) => {
      await card.scrollIntoViewIfNeeded();
      await card.screenshot({ path: path.join(ARTIFACTS, `forms-named-card-${width}.png`) });
      return nothingCutOff(card, 'span, a, strong, dt, dd');
    });
    if (consoleErrors.length) throw new Error(`page errors: ${consoleErrors.join('; ')}`);
  });
});
