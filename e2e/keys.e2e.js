/**
 * Browser steps of issue 30, keys that cannot withdraw, called from e2e/walk-bots.e2e.js once the bots' timed steps
 * are done. The paper venue reads what a key may do from DATA_DIR/paper-key-permissions.json (its "API
 * Management page", docs/exchanges.md), so this file plays a withdraw-capable key and one without an IP
 * restriction: the first is refused with the venue's how-to under the form (the dialog stays open), the
 * second is added and the key list shows its warning under it. Pictures at 1280 and 375 px. The open key
 * is removed again at the end, so later steps see the keys they expect.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { addKeyInForm } = require('./support/account-form');

async function keySteps({ page, step, shot, T, dataDir }) {
  const url = (p) => new URL(p, page.url()).toString();
  const toast = (text) => page.locator('.toast').filter({ hasText: text }).first().waitFor({ state: 'visible', timeout: T });
  const dismissToasts = async () => {
    const buttons = page.getByRole('button', { name: 'Dismiss notification' });
    for (let i = 0; i < 10 && (await buttons.count()) > 0; i++) await buttons.first().click({ timeout: 2000 }).catch(() => undefined);
  };
  fs.writeFileSync(
    path.join(dataDir, 'paper-key-permissions.json'),
    JSON.stringify({ 'e2e-withdraw-key': { withdraw: true }, 'e2e-open-key': { ipRestricted: false } }),
  );
  const addKey = async (apiKey) => {
    await page.goto(url('/security'), { waitUntil: 'domcontentloaded' });
    return addKeyInForm(page, { apiKey, secret: 'e2e-binance-secret-0123456789' });
  };

  await step('a key that can withdraw is refused, with how to make a trading-only key under the form (issue 30)', async () => {
    const dialog = await addKey('e2e-withdraw-key');
    const refusal = dialog.getByTestId('key-add-refusal');
    await refusal.waitFor({ timeout: T });
    const text = (await refusal.textContent()) || '';
    if (!/can withdraw funds; GridRocket accepts only keys that cannot\./.test(text) || !/"Enable Withdrawals" unticked/.test(text)) throw new Error(`the refusal says: ${text}`);
    await dismissToasts();
    await refusal.scrollIntoViewIfNeeded();
    await shot('security-key-refused-withdraw');
    // at 375 the dialog scrolls: a picture with the refusal in view, inside the window
    const size = page.viewportSize();
    await page.setViewportSize({ width: 375, height: 812 });
    await refusal.scrollIntoViewIfNeeded();
    const box = await refusal.boundingBox();
    if (!box || box.x < 0 || box.x + box.width > 375) throw new Error(`at 375 the refusal runs past the window: ${JSON.stringify(box)}`);
    await page.screenshot({ path: path.join(__dirname, 'artifacts', 'security-key-refused-withdraw-in-view-375.png') });
    await page.setViewportSize(size);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    if (await page.locator('table td', { hasText: 'e2e-withdraw-key' }).count()) throw new Error('the refused key is listed');
  });

  await step('a key without an IP restriction is added; the key list warns under it with the address to allow (issue 30)', async () => {
    await addKey('e2e-open-key');
    await toast('API Key successfully added!');
    const note = page.getByRole('note', { name: 'Binance API key e2e-open-key: warning' });
    await note.waitFor({ timeout: T });
    const text = (await note.textContent()) || '';
    if (!/Not restricted to IP addresses/.test(text) || !/the address of this GridRocket server/.test(text)) throw new Error(`the warning says: ${text}`);
    if ((await page.getByRole('note').count()) !== 1) throw new Error('a warning shows for a key without one');
    await dismissToasts();
    await shot('security-key-warning');
    const narrow = page.viewportSize();
    await page.setViewportSize({ width: 375, height: 812 });
    const box = await note.boundingBox();
    if (!box || box.x < 0 || box.x + box.width > 375) throw new Error(`at 375 the warning runs past the window: ${JSON.stringify(box)}`);
    await page.setViewportSize(narrow);
    // removed again: later steps count on the keys they added
    await page.getByRole('button', { name: 'Remove Binance API key e2e-open-key' }).click();
    await page.getByRole('alertdialog', { name: 'Delete API key' }).getByRole('button', { name: 'Yes' }).click();
    await toast('API Key successfully deleted!');
    await page.locator('table td', { hasText: 'e2e-open-key' }).waitFor({ state: 'detached', timeout: T });
  });
  fs.rmSync(path.join(dataDir, 'paper-key-permissions.json'), { force: true });
}

module.exports = { keySteps };
