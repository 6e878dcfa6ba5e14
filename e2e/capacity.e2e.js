#!/usr/bin/env node
/**
 * The capacity answer in the bot form, in Chromium (issue 39, "done when": shown in the form at 1280 and
 * 375 px; a start that would exceed the venue's order-count limit is refused with the numbers). The built
 * server (`npm run build`) on the paper exchange's known price path (e2e/paper-prices.js: Binance BTCUSDT
 * near 95,000). A trader with one running 99-rung bot on BTCUSDT (up to 100 open orders there) opens the
 * create form: BTCUSDT, grid size 20: "121 of 200" open orders (MAX_NUM_ORDERS), the orders at start and the
 * weight budget, no warning. With a second 99-rung bot running (200 held) the same form warns with the
 * numbers; the bot is saved anyway, and its Start is refused with the server's 409 in a toast. Screenshots
 * go to e2e/artifacts/capacity-*.png at both widths; nothing of the panel is cut off at either.
 *
 *   node e2e/capacity.e2e.js          (after `npm run build`; `npm run test:e2e` runs it after e2e/run.js)
 */
'use strict';
const path = require('node:path');
const { atBothWidths, nothingCutOff } = require('./layout');
const { CENTRE } = require('./paper-prices');
const { openCreateForm, pickMarket } = require('./support/bot-form');
const { ARTIFACTS, runPaperScript, signUp } = require('./support/harness');

runPaperScript('capacity', {}, async ({ base, context, page, step, T }) => {
  const shot = (name) => page.screenshot({ path: path.join(ARTIFACTS, `capacity-${name}.png`), fullPage: false });

  // the trader and the bots already there, through the API with the browser's own session
  const { uid, call } = await signUp(context, base, 'capacity-e2e@example.com', { binanceKey: true });
  const entry = Math.floor(CENTRE * 0.99);
  const runningBot = async () => {
    const made = await call('POST', '/api/bots', { userId: uid, exchange: 'Binance', symbol: 'BTCUSDT', botType: 'Spot', numOfOrders: 99, orderSize: '0.0001', interval: 10, entryPrice: entry, takeProfit: 1 });
    if (made.status !== 201) throw new Error(`create ${made.status} ${JSON.stringify(made.body)}`);
    const started = await call('GET', `/api/startBot?id=${made.body.id}&userId=${uid}`);
    if (started.status !== 202) throw new Error(`start ${started.status} ${JSON.stringify(started.body)}`);
    return made.body.id;
  };

  const openForm = async () => {
    const dialog = await openCreateForm(page, 'spot', base);
    const entryField = await pickMarket(page, dialog, { T });
    await entryField.fill(String(entry));
    await dialog.getByLabel('Grid size').fill('20');
    await dialog.getByLabel('Order size').fill('0.0001');
    await dialog.getByLabel('Price interval').fill('10');
    await dialog.getByLabel('Take profit').fill('1');
    return dialog;
  };
  const panelShown = async (dialog, name) => {
    const panel = dialog.getByTestId('capacity');
    await atBothWidths(page, async (width) => {
      await panel.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(ARTIFACTS, `capacity-${name}-${width}.png`) });
      await panel.screenshot({ path: path.join(ARTIFACTS, `capacity-${name}-panel-${width}.png`) });
      return nothingCutOff(panel);
    });
  };
  await step('the form shows what the key can carry: orders at start, open orders on BTCUSDT out of 200 (MAX_NUM_ORDERS), the weight budget', async () => {
    await runningBot();
    const dialog = await openForm();
    const open = dialog.getByTestId('capacity-open');
    await open.getByText('121 of 200').waitFor();
    const text = (await open.textContent()) || '';
    if (!text.includes('your other bots up to 100, this bot up to 21 (MAX_NUM_ORDERS)')) throw new Error(`open orders read "${text}"`);
    const orders = (await dialog.getByTestId('capacity-orders').textContent()) || '';
    if (!/^20placed over about 2 s; at most 20 in 10 s, Binance spot allows 100 \(ORDERS\)/.test(orders)) throw new Error(`orders at start read "${orders}"`);
    const weight = (await dialog.getByTestId('capacity-weight').textContent()) || '';
    if (!/your bots 26 per 1 min of this install's 3,000 \(50 % of 6,000, REQUEST_WEIGHT\)/.test(weight)) throw new Error(`weight read "${weight}"`);
    if (await dialog.getByTestId('capacity-warning').count()) throw new Error('a warning shows although the start fits');
    await panelShown(dialog, 'fits');
  });

  await step('with 200 orders held on BTCUSDT the form warns with the numbers; the bot is saved, and its start is refused with them', async () => {
    await runningBot();
    const dialog = await openForm();
    const warning = dialog.getByTestId('capacity-warning');
    await warning.waitFor();
    const said = (await warning.textContent()) || '';
    const refusal =
      'This start places 20 orders on BTCUSDT and rests up to 21 there; Binance spot allows 200 open orders per symbol (MAX_NUM_ORDERS); your other bots hold up to 200 open on BTCUSDT: 221 in all.';
    if (!said.includes(refusal)) throw new Error(`the warning reads "${said}"`);
    await dialog.getByTestId('capacity-open').getByText('221 of 200').waitFor();
    await panelShown(dialog, 'over');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.locator('.toast').filter({ hasText: 'Bot successfully added!' }).first().waitFor();
    await dialog.waitFor({ state: 'detached' });
    // the new bot is the stopped one on the list
    const card = page.locator('[data-testid="bot-card"][data-state="stopped"]').first();
    await card.getByRole('button', { name: /^Start / }).click();
    const toast = page.locator('.toast').filter({ hasText: 'Binance spot allows 200 open orders per symbol (MAX_NUM_ORDERS)' }).first();
    await toast.waitFor();
    const toastText = (await toast.textContent()) || '';
    if (!toastText.includes('your other bots hold up to 200 open on BTCUSDT: 221 in all')) throw new Error(`the toast reads "${toastText}"`);
    await shot('start-refused-1280');
    if ((await card.getAttribute('data-state')) !== 'stopped') throw new Error('the refused bot is not stopped');
  });
});
