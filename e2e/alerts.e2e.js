#!/usr/bin/env node
/**
 * "Send a test" on the Alerts page, in Chromium (issue 40, point 9: "a browser step at 1280 and 375 px for
 * the test alert, the result shown"). The built server (`npm run build`) with the repository's stand-ins of
 * Telegram's Bot API and of a signed-webhook receiver (test/support/alert-stand-ins.ts, loaded through the
 * tests' TypeScript register): a trader saves a webhook and a Telegram chat on /alerts, then sends a test on
 * each. The webhook's is delivered (the page says its receiver answered 200, and the receiver verified the
 * signature); the Telegram one goes to a chat the bot is not in, and the page shows Telegram's own error
 * ("Bad Request: chat not found"). Both are in the delivery log. Screenshots of the channels and of the
 * whole page at 1280 and 375 px go to e2e/artifacts/alerts-*.png; nothing of the results is cut off. Then, on a
 * bot's Signals panel, the standing choice for a held position (point 8): sent with "Turn signals on", changed
 * and saved at once, and the note that a refused signal reaches nobody until "Signal refused" is ticked.
 *
 *   node e2e/alerts.e2e.js          (after `npm run build`)
 */
'use strict';
const path = require('node:path');
const { atBothWidths, nothingCutOff } = require('./layout');
const { CENTRE } = require('./paper-prices');
const { ROOT, ARTIFACTS, runPaperScript, signUp, addBinanceKey } = require('./support/harness');

require(path.join(ROOT, 'libs/streaming/src/testing/ts-register.js'));
const { TelegramStandIn, WebhookReceiver } = require(path.join(ROOT, 'test/support/alert-stand-ins.ts'));

const WEBHOOK_SECRET = 'whsec-e2e-0123456789-abcdXYZ9';
const BOT_TOKEN = '123456789:AAE-e2eSecretPartOfTheToken_abcdefgh';
const CHAT = '987654321';

/** The Telegram API and a webhook receiver on loopback, started before the server (it is told their addresses). */
async function prepare() {
  const telegram = await new TelegramStandIn(BOT_TOKEN, [CHAT]).start();
  const webhook = await new WebhookReceiver(WEBHOOK_SECRET).start();
  const close = async () => {
    await telegram.close();
    await webhook.close();
  };
  // loopback receivers: the server is told to allow private webhook addresses (off by default)
  return { env: { ALERTS_ALLOW_PRIVATE_URLS: 'true', ALERTS_TELEGRAM_API: telegram.url }, close, telegram, webhook };
}

runPaperScript('alerts', { prepare }, async ({ base, context, page, pageErrors: consoleErrors, step, T, prepared: { telegram, webhook } }) => {
  const { uid, call } = await signUp(context, base, 'alerts-e2e@example.com');

  const fieldset = (legend) => page.locator('fieldset').filter({ has: page.locator('legend', { hasText: legend }) });
  const shots = async (name) => {
    await atBothWidths(page, async (width) => {
      await page.mouse.move(0, 0);
      const channels = page.locator('fieldset').filter({ has: page.getByRole('button', { name: 'Send a test' }) });
      // a full-page picture of a scrolled page draws the sticky navbar mid-page: from the top
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.waitForTimeout(150);
      await page.screenshot({ path: path.join(ARTIFACTS, `alerts-${name}-${width}.png`), fullPage: true });
      for (const legend of ['Webhook', 'Telegram']) await fieldset(legend).screenshot({ path: path.join(ARTIFACTS, `alerts-${name}-${legend.toLowerCase()}-${width}.png`), style: '.navbar { visibility: hidden; }' });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      const log = page.locator('.alerts-log');
      return [
        ...(overflow > 1 ? [`the page scrolls sideways by ${overflow} px`] : []),
        ...(await nothingCutOff(channels, 'button, p, small, label')),
        // the delivery log, whole at both widths (at 375 it cut its Status, Code and Attempts columns off)
        ...((await log.count()) ? await nothingCutOff(log, 'td, th') : []),
      ];
    });
  };
  await step('Alerts: before a channel is saved, "Send a test" is off and says why', async () => {
    await page.goto(`${base}/alerts`, { waitUntil: 'domcontentloaded' });
    await page.getByRole('heading', { name: 'Alerts', exact: true }).waitFor();
    const test = fieldset('Webhook').getByRole('button', { name: 'Send a test' });
    await test.waitFor();
    if (!(await test.isDisabled())) throw new Error('"Send a test" is enabled for a webhook that is not saved');
    await fieldset('Webhook').getByText('Turn the webhook on and save to send a test.').waitFor();
    await shots('before');
  });

  await step('save a webhook and a Telegram chat, send a test on each: delivered (200) and Telegram\'s own error, shown under each button (issue 40)', async () => {
    const hook = fieldset('Webhook');
    await hook.getByLabel('Post a signed JSON request').check();
    await hook.getByLabel('Webhook URL').fill(`${webhook.url}/hooks/gridrocket`);
    await hook.getByLabel('Webhook secret').fill(WEBHOOK_SECRET);
    const tg = fieldset('Telegram');
    await tg.getByLabel('Message me through my Telegram bot').check();
    await tg.getByLabel('Bot token').fill(BOT_TOKEN);
    await tg.getByLabel('Chat id').fill('111222333'); // a chat the bot is not in: Telegram answers "chat not found"
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.locator('.toast').filter({ hasText: 'Alerts saved.' }).first().waitFor();
    await hook.getByText(/A secret ending in …XYZ9 is set/).waitFor();
    await page.getByRole('button', { name: 'Dismiss notification' }).first().click().catch(() => undefined);

    const before = webhook.calls.length;
    await hook.getByRole('button', { name: 'Send a test' }).click();
    const hookResult = page.getByRole('status', { name: 'Webhook test result' });
    await hookResult.waitFor();
    const hookText = ((await hookResult.textContent()) || '').trim();
    if (hookText !== 'Delivered: your webhook answered 200.') throw new Error(`the webhook test says "${hookText}"`);
    const received = webhook.calls.slice(before);
    if (received.length !== 1 || !received[0].verified || JSON.parse(received[0].raw).kind !== 'test') throw new Error(`the receiver saw ${JSON.stringify(received.map((c) => ({ verified: c.verified, status: c.status })))}`);

    await tg.getByRole('button', { name: 'Send a test' }).click();
    const tgResult = page.getByRole('status', { name: 'Telegram test result' });
    await tgResult.waitFor();
    const tgText = ((await tgResult.textContent()) || '').trim();
    if (tgText !== 'Not delivered: Telegram answered 400: Bad Request: chat not found.') throw new Error(`the Telegram test says "${tgText}"`);
    if (telegram.calls.length !== 1 || String(telegram.calls[0].body.chat_id) !== '111222333') throw new Error(`Telegram saw ${JSON.stringify(telegram.calls.map((c) => c.body.chat_id))}`);

    // both in the delivery log, the failure with Telegram's words
    const logTable = page.getByRole('table');
    await logTable.getByText('Test alert (Webhook)').waitFor();
    await logTable.getByText('Test alert (Telegram)').waitFor();
    await logTable.getByText('Telegram answered 400: Bad Request: chat not found').waitFor();
    await shots('results');
    if (consoleErrors.length) throw new Error(`page errors: ${consoleErrors.join('; ')}`);
  });

  await step('Signals panel: the standing choice for a held position is shown when signals are on, saved at once, and says where a refused signal is reported (issue 40, point 8)', async () => {
    await addBinanceKey(call, uid);
    const made = await call('POST', '/api/bots', { exchange: 'Binance', symbol: 'BTCUSDT', botType: 'Spot', numOfOrders: 3, orderSize: '0.01', interval: 500, entryPrice: Math.floor(CENTRE * 0.99), takeProfit: 1 });
    if (made.status !== 201) throw new Error(`create ${made.status} ${JSON.stringify(made.body)}`);
    await page.goto(`${base}/bots/${made.body.id}`, { waitUntil: 'domcontentloaded' });
    const panel = page.getByTestId('signal-panel');
    await panel.getByText('Signals are off for this bot.').waitFor();
    const choice = panel.getByRole('group', { name: 'When the bot holds a position, a start signal…' });
    await choice.getByRole('radio', { name: /Sell it first/ }).check();
    await panel.getByRole('button', { name: 'Turn signals on' }).click();
    await panel.getByRole('group', { name: 'Your new signal secret' }).getByRole('button', { name: 'I have copied it' }).click();
    if (!(await choice.getByRole('radio', { name: /Sell it first/ }).isChecked())) throw new Error('the choice sent with "Turn signals on" is not the one shown');
    await choice.getByRole('radio', { name: /Start with the position/ }).check();
    await choice.getByRole('status').filter({ hasText: 'Saved: start with the position.' }).waitFor();
    const saved = await call('GET', `/api/bots/${made.body.id}/signals`);
    if (saved.body.heldPosition !== 'resume') throw new Error(`the server has ${saved.body.heldPosition}`);
    // the trader's alerts do not include "Signal refused": the panel says a refusal reaches nobody yet
    await panel.getByTestId('signal-refusal-reach').getByText(/A refused signal alerts nobody yet/).waitFor();
    await atBothWidths(page, async (width) => {
      await page.mouse.move(0, 0);
      await panel.scrollIntoViewIfNeeded();
      await panel.screenshot({ path: path.join(ARTIFACTS, `alerts-signals-choice-${width}.png`), style: '.navbar { visibility: hidden; }' });
      return nothingCutOff(panel, 'label, legend, p, small, button, code');
    });
  });
});
