/**
 * Browser steps of issue 32's signed signals (docs/signals.md), called from e2e/walk-bots.e2e.js once the Binance key
 * exists (not against the stub server, which has no signal routes): on a bot's page the Signals panel turns
 * the webhook on and shows the secret once; this test process then sends a signed start as a script would
 * (Node's HMAC-SHA256 over "<timestamp>.<body>", no cookie) and the page turns running without a reload;
 * the same request sent again is refused (409) and the bot's history shows it refused as a replay; a
 * signed stop with cancel-all stops it, and the bot is deleted. Screenshots at 1280 and 375 px.
 *
 * The bot's buys sit 1 % and more below the e2e price path's band (e2e/paper-prices.js: Binance BTCUSDT
 * always ≥ 94,924; its first buy ≤ 95,076 × 0.99 = 94,125): they never fill, so it holds nothing, and a
 * signal may start it (a bot holding a position needs its owner's confirmation, which a signal cannot give).
 */
'use strict';
const { createHmac, randomUUID } = require('node:crypto');
const path = require('node:path');
const { atBothWidths, nothingCutOff } = require('./layout');

const ARTIFACTS = path.join(__dirname, 'artifacts');

/** A signed signal as docs/signals.md tells a script to send it: X-Signature = sha256=<hex HMAC(secret, "<ts>.<body>")>. */
function signedSignal(secret, body, { ts = Math.floor(Date.now() / 1000), id = randomUUID() } = {}) {
  const signature = createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex');
  return {
    id,
    body,
    headers: { 'content-type': 'application/json', 'x-signal-timestamp': String(ts), 'x-signal-id': id, 'x-signature': `sha256=${signature}` },
  };
}

async function signalsSteps({ page, step, shot, T, base }) {
  const url = (p) => new URL(p, base).toString();
  const toast = (text) => page.locator('.toast').filter({ hasText: text }).first().waitFor({ state: 'visible', timeout: T });
  const dismissToasts = async () => {
    const buttons = page.getByRole('button', { name: 'Dismiss notification' });
    for (let i = 0; i < 10 && (await buttons.count()) > 0; i++) await buttons.first().click({ timeout: 2000 }).catch(() => undefined);
  };
  /** Sends a signal from this process (no cookie, as TradingView or a script); the webhook's address from the page. */
  let webhook = null;
  const send = async (req) => {
    const res = await fetch(webhook, { method: 'POST', headers: req.headers, body: req.body });
    const text = await res.text();
    return { status: res.status, text, body: text ? JSON.parse(text) : undefined };
  };
  const panel = page.getByTestId('signal-panel');
  /**
   * The panel in its own pictures: the full-page ones at 375 put it far below the fold. (The sticky navbar,
   * no part of the panel, is left out of them: scrolled to the panel it was drawn over its heading.)
   */
  const panelShots = async (name) => {
    const style = '.navbar { visibility: hidden; }';
    await page.mouse.move(0, 0);
    await panel.scrollIntoViewIfNeeded();
    await panel.screenshot({ path: path.join(ARTIFACTS, `${name}-1280.png`), style });
    await page.setViewportSize({ width: 375, height: 812 });
    await page.waitForTimeout(250);
    const box = await panel.boundingBox();
    await panel.scrollIntoViewIfNeeded();
    await panel.screenshot({ path: path.join(ARTIFACTS, `${name}-375.png`), style });
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.waitForTimeout(100);
    if (!box || box.x < 0 || box.x + box.width > 376) throw new Error(`at 375 the Signals panel runs past the window: ${JSON.stringify(box)}`);
  };

  let botId = null;
  let secret = null;
  let start = null;

  await step('Signals panel: turn the webhook on; its secret is shown once, with the URL to send to (issue 32)', async () => {
    // a spot bot through the API (the form is walked above) whose buys rest under every price of the e2e path
    botId = await page.evaluate(async () => {
      const token = decodeURIComponent((document.cookie.match(/(?:^|; )csrf_token=([^;]+)/) || [])[1] || '');
      const price = Number(await (await fetch('/api/priceSpot?symbol=BTCUSDT&exchange=Binance', { credentials: 'include' })).text());
      const res = await fetch('/api/bots', {
        method: 'POST',
        credentials: 'include',
        headers: { 'content-type': 'application/json', 'x-csrf-token': token },
        body: JSON.stringify({ exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 3, orderSize: '0.01', interval: 500, entryPrice: Math.floor(price * 0.99), takeProfit: 1, botType: 'Spot', status: false, pid: -1 }),
      });
      if (res.status !== 201) throw new Error(`POST /api/bots: ${res.status} ${await res.text()}`);
      return (await res.json()).id;
    });
    await page.goto(url(`/bots/${botId}`), { waitUntil: 'domcontentloaded' });
    await page.locator('[data-testid="bot-page"][data-state="stopped"]').waitFor({ timeout: T });
    await panel.getByRole('heading', { name: 'Signals' }).waitFor({ timeout: T });
    await panel.getByText('Signals are off for this bot.').waitFor({ timeout: T });
    await panelShots('bot-signals-off');
    await panel.getByRole('button', { name: 'Turn signals on' }).click();
    const made = panel.getByRole('group', { name: 'Your new signal secret' });
    await made.waitFor({ timeout: T });
    await made.getByText('Copy the secret now: it is not shown again.').waitFor();
    secret = ((await made.getByLabel('Signal secret').textContent()) || '').trim();
    if (!/^grs_[A-Za-z0-9_-]{43}$/.test(secret)) throw new Error(`the panel shows "${secret}" as the secret`);
    const shownUrl = ((await panel.getByLabel('Webhook URL').textContent()) || '').trim();
    if (new URL(shownUrl).pathname !== `/api/signals/${botId}`) throw new Error(`the webhook URL shown: ${shownUrl}`);
    // PUBLIC_URL is not set here (http://localhost:<port>): the request goes to the address this test reached
    webhook = url(new URL(shownUrl).pathname);
    const last4 = ((await panel.locator('dt:has-text("Secret") + dd').textContent()) || '').trim();
    if (last4 !== `ends in …${secret.slice(-4)}`) throw new Error(`the settings say "${last4}" for a secret ending in ${secret.slice(-4)}`);
    await panel.getByText('signed requests only (X-Signature)').waitFor();
    // the long URL and secret fit: nothing past the card or the window
    // (the first pictures showed the URL over the secret's column at 1280 and cut off at 375)
    await atBothWidths(page, async () => [
      ...(await nothingCutOff(panel, 'code, dt, dd, button, p')),
      // each fact within its own cell (the URL ran over the secret's cell, inside the card)
      ...(await nothingCutOff(panel.locator('.settings-facts > div'), 'code, dd, button')),
    ]);
    await dismissToasts();
    await panelShots('bot-signals-secret');
    await made.getByRole('button', { name: 'I have copied it' }).click();
    await made.waitFor({ state: 'detached' });
    if ((await page.content()).includes(secret)) throw new Error('the secret is still on the page after "I have copied it"');
    // and no answer gives it again: the settings show its last 4 characters only
    const again = await page.evaluate(async (u) => (await fetch(u, { credentials: 'include' })).text(), `/api/bots/${botId}/signals`);
    if (again.includes(secret) || !again.includes(secret.slice(-4))) throw new Error(`GET …/signals answers ${again}`);
  });

  await step('a signed start sent by a script: the bot page turns running without a reload (issue 32)', async () => {
    if (!secret) throw new Error('no secret from the previous step');
    await page.evaluate(() => {
      window.__e2eNoReload = true;
    });
    start = signedSignal(secret, '{"action":"start"}');
    const res = await send(start);
    if (res.status !== 202 || res.body.action !== 'start' || res.body.outcome !== 'requested') throw new Error(`the signed start was answered ${res.status} ${res.text}`);
    await page.locator('[data-testid="bot-page"][data-state="running"]').waitFor({ timeout: T });
    // its ladder is placed: three buys resting under the market
    await page.getByRole('table', { name: 'Ladder orders' }).locator('tr[data-kind="buy"][data-state="open"]').nth(2).waitFor({ timeout: T });
    if (!(await page.evaluate(() => window.__e2eNoReload === true))) throw new Error('the page reloaded');
    await dismissToasts();
    await shot('bot-page-signal-started');
  });

  await step('the same signal sent again is refused (409); the history shows it refused as a replay, by an unknown sender (issue 32)', async () => {
    if (!start) throw new Error('no signal from the previous step');
    const res = await send(start);
    if (res.status !== 409) throw new Error(`the replayed signal was answered ${res.status} ${res.text}`);
    await page.getByRole('navigation', { name: 'Bot views' }).getByRole('link', { name: 'History' }).click();
    await page.waitForURL((u) => new URL(u).pathname === `/bots/${botId}/history`, { timeout: T });
    const timeline = page.getByRole('list', { name: 'Events, oldest first' });
    const refused = timeline.locator('li[data-type="SignalRefused"]');
    await refused.first().waitFor({ timeout: T });
    if ((await refused.count()) !== 1) throw new Error(`${await refused.count()} refusals in the history for one replay`);
    const said = ((await refused.locator('.timeline__what').textContent()) || '').trim();
    if (said !== `its id was used before (a replay) (409) · id ${start.id}`) throw new Error(`the refusal says: ${said}`);
    await refused.getByText('unknown sender', { exact: true }).waitFor();
    // the start it took: received (signed), handled, and the start requested by the owner
    const received = ((await timeline.locator('li[data-type="SignalReceived"]').first().locator('.timeline__what').textContent()) || '').trim();
    if (received !== `start · id ${start.id} · signed`) throw new Error(`the received signal says: ${received}`);
    await timeline.locator('li[data-type="SignalHandled"]').getByText('start requested').first().waitFor();
    await timeline.locator('li[data-type="BotStartRequested"]').getByText('you', { exact: true }).waitFor();
    await refused.scrollIntoViewIfNeeded();
    await dismissToasts();
    await shot('history-signal-replay');
    // the panel lists it too, newest first
    await page.getByRole('navigation', { name: 'Bot views' }).getByRole('link', { name: 'Overview' }).click();
    await page.waitForURL((u) => new URL(u).pathname === `/bots/${botId}`, { timeout: T });
    const latest = panel.getByRole('list', { name: 'Latest signals' });
    await latest.waitFor({ timeout: T });
    const first = latest.locator('li').first();
    if ((await first.getAttribute('data-type')) !== 'SignalRefused') throw new Error(`the newest signal listed is ${await first.getAttribute('data-type')}`);
    await first.getByText(/a replay/).waitFor();
    await panelShots('bot-signals-latest');
  });

  await step('a signed stop with cancel-all stops it (the page follows), then it is deleted (issue 32)', async () => {
    if (!secret) throw new Error('no secret from the first step');
    const res = await send(signedSignal(secret, '{"action":"stop","cancelAllOrders":true}'));
    if (res.status !== 202 || res.body.action !== 'stop' || res.body.outcome !== 'requested') throw new Error(`the signed stop was answered ${res.status} ${res.text}`);
    await page.locator('[data-testid="bot-page"][data-state="stopped"]').waitFor({ timeout: T });
    const ladder = page.getByRole('table', { name: 'Ladder orders' });
    await ladder.locator('tr[data-state="cancelled"]').first().waitFor({ timeout: T });
    // all three, as the page is told of each cancel
    await page
      .waitForFunction(() => document.querySelectorAll('table[aria-label="Ladder orders"] tr[data-kind="buy"][data-state="cancelled"]').length === 3, null, { timeout: T })
      .catch(async () => {
        throw new Error(`after a stop with cancel-all the ladder shows ${await ladder.locator('tr[data-state="open"]').count()} open orders`);
      });
    await page.getByRole('button', { name: /^Delete / }).click();
    await page.getByRole('alertdialog', { name: 'Delete Bot' }).getByRole('button', { name: 'Yes' }).click();
    await toast('Bot successfully deleted!');
  });
  await page.goto(url('/bots'), { waitUntil: 'domcontentloaded' });
}

module.exports = { signalsSteps, signedSignal };
