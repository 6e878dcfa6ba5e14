#!/usr/bin/env node
/**
 * Issue 40, points 2 and 12, in Chromium at 1280 and 375 px: the built server (`npm run build`) with the
 * Binance spot stand-in (libs/exchanges/src/testing/standin, GET /api/v3/klines as Binance documents it,
 * loaded through the tests' TypeScript register) as the venue whose candles backtests read, and KuCoin sent
 * to a port that resets every connection (not reached). In the create form:
 * - "Backtest last 30 days" on Binance names its history: Binance's candles and the period, no badge;
 * - on KuCoin the history is the simulated one: a "Simulated" badge and why ("Kucoin could not be reached");
 * - a sweep of 20 intervals × 3 grid sizes draws a heatmap that stays readable: the table scrolls inside its
 *   box (the page never sideways), no number wraps or is clipped, the grid-size labels stay in view while the
 *   intervals scroll, and the last column can be reached (before: digits wrapped at 375 px, the 20 columns
 *   were clipped at 1280).
 * Screenshots: e2e/artifacts/backtest-history-*.png (look at them).
 *
 *   node e2e/backtest-history.e2e.js          (after `npm run build`)
 */
'use strict';
const net = require('node:net');
const path = require('node:path');
const { atBothWidths, nothingCutOff, heatmapProblems, WIDE, NARROW } = require('./layout');
const { CENTRE } = require('./paper-prices');
const { openCreateForm, pickMarket } = require('./support/bot-form');
const { ROOT, ARTIFACTS, runPaperScript, signUp } = require('./support/harness');

require(path.join(ROOT, 'libs/streaming/src/testing/ts-register.js'));
const { startVenueStandIn } = require(path.join(ROOT, 'libs/exchanges/src/testing/standin/venue-standin.ts'));
const { PaperVenue } = require(path.join(ROOT, 'libs/exchanges/src/paper.exchange.ts'));
const { CsvReplayFeed } = require(path.join(ROOT, 'libs/exchanges/src/paper-price-feed.ts'));

/** BTCUSDT's past on the stand-in: 95,000 swinging ± 3 % over three days and ± 0.4 % over 90 minutes. */
function btcPast(symbol, t, step) {
  if (symbol !== 'BTCUSDT') return null;
  const at = (x) => Math.round(CENTRE * (1 + 0.03 * Math.sin((2 * Math.PI * x) / (3 * 86400000)) + 0.004 * Math.sin((2 * Math.PI * x) / 5400000)) * 100) / 100;
  const open = at(t);
  const close = at(t + step);
  return { open, close, high: Math.round(Math.max(open, close) * 1.0005 * 100) / 100, low: Math.round(Math.min(open, close) * 0.9995 * 100) / 100, volume: 3 };
}

/** Binance's stand-in serving those candles, before the server (it reads them from there); KuCoin's origin resets every connection. */
async function prepare() {
  const venue = new PaperVenue({ store: ':memory:', feed: new CsvReplayFeed(`ms,exchange,symbol,price\n${Date.now()},Binance,BTCUSDT,${CENTRE}\n`) });
  venue.advanceTo(Date.now());
  const standIn = await startVenueStandIn(venue, 'Binance', 'spot', [], { klines: btcPast });
  // a port of our own that resets every connection (a port found free and left unbound may be taken meanwhile
  // by another program that accepts and never answers: a loaded run waited 90 s there for the simulated history)
  const unreachable = net.createServer((socket) => socket.destroy());
  await new Promise((resolve) => unreachable.listen(0, '127.0.0.1', resolve));
  const nowhere = `http://127.0.0.1:${unreachable.address().port}`;
  const close = async () => {
    await standIn.close();
    unreachable.close();
    venue.close();
  };
  return { env: { BACKTEST_HISTORY: 'venue', BACKTEST_CANDLES_ORIGIN: `binance=${standIn.origin},kucoin=${nowhere}` }, close, standIn };
}

runPaperScript('backtest-history', { prepare, lines: 10 }, async ({ base, context, page, pageErrors: consoleErrors, step, T, prepared: { standIn } }) => {
  await signUp(context, base, 'bt-history-e2e@example.com');

  const openForm = async (exchange) => {
    const dialog = await openCreateForm(page, 'spot', base);
    const entry = await pickMarket(page, dialog, { exchange, T });
    const p = Number(await entry.inputValue());
    await dialog.getByLabel('Grid size').fill('5');
    await dialog.getByLabel('Order size').fill('0.01');
    await dialog.getByLabel('Price interval').fill(String(Math.round(p * 0.006)));
    await dialog.getByLabel('Take profit').fill('1');
    return { dialog, price: p };
  };
  /** Opens the form on `exchange`'s BTC/USDT, backtests the last 30 days and waits for the result and its history note. */
  const backtest = async (exchange) => {
    const { dialog } = await openForm(exchange);
    await dialog.getByRole('button', { name: 'Backtest last 30 days' }).click();
    const result = dialog.getByTestId('backtest-result');
    await result.waitFor({ state: 'visible', timeout: Math.max(T, 90000) });
    return { dialog, result, note: result.getByTestId('backtest-history') };
  };
  const closeForm = async (dialog) => {
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await dialog.waitFor({ state: 'detached', timeout: T });
  };
  /** The panel's pictures at both widths, the note or the map in view; `check` lists what is wrong. */
  const shots = async (name, target, check) => {
    await atBothWidths(page, async (width) => {
      await page.mouse.move(0, 0);
      await target.evaluate((el) => el.scrollIntoView({ block: 'start' })); // the history note is its top
      await page.waitForTimeout(150);
      await target.screenshot({ path: path.join(ARTIFACTS, `backtest-history-${name}-${width}.png`) });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      return [...(overflow > 1 ? [`the page scrolls sideways by ${overflow} px`] : []), ...(await check(width))];
    });
  };
  await step("Binance: \"Backtest last 30 days\" names the venue's candles and the period (no badge)", async () => {
    const { dialog, result, note } = await backtest('Binance');
    const text = ((await note.textContent()) || '').trim();
    if (!/^History Binance spot BTCUSDT, 1m candles from Binance's market data, \d{4}-\d\d-\d\d 00:00 → \d{4}-\d\d-\d\d 00:00 UTC$/.test(text)) throw new Error(`the history note says "${text}"`);
    if (await note.getByText('Simulated', { exact: true }).count()) throw new Error('a venue history carries the Simulated badge');
    if (!/43,200 candles/.test((await result.textContent()) || '')) throw new Error('not 43,200 candles');
    if (standIn.stub.calls('GET', '/api/v3/klines').length < 44) throw new Error(`the stand-in was asked ${standIn.stub.calls('GET', '/api/v3/klines').length} times for klines`);
    await shots('venue', result, async () => nothingCutOff(note, 'span'));
    await closeForm(dialog);
  });

  await step('KuCoin not reached: the simulated history, with a "Simulated" badge and why', async () => {
    const { dialog, result, note } = await backtest('Kucoin');
    await note.getByText('Simulated', { exact: true }).waitFor();
    const label = ((await note.locator('.backtest__history-label').textContent()) || '').trim();
    if (!/^Simulated history, not market prices: a fixed, seeded random walk from BTCUSDT's catalogue price \(95,000\), 1m candles, .* UTC\. Kucoin could not be reached\.$/.test(label)) throw new Error(`the label says "${label}"`);
    const recent = dialog.getByRole('list', { name: 'Recent backtests' }).getByTestId('recent-backtest').first();
    await page.waitForFunction((el) => el && /simulated history/.test(el.textContent || ''), await recent.elementHandle(), { timeout: T });
    await shots('simulated', result, async () => nothingCutOff(note, 'span'));
    await closeForm(dialog);
  });

  await step('a 20-column sweep: the heatmap scrolls in its box, no number wraps or is clipped, the axis labels stay in view (1280 and 375 px)', async () => {
    const { dialog, price } = await openForm('Binance');
    await dialog.getByRole('button', { name: 'Sweep parameters…' }).click();
    const step100 = Math.round(price * 0.001); // 95: intervals 95, 190, … 1,900
    await dialog.locator('input[name="sweep-interval"]').fill(`${step100}:${20 * step100}:${step100}`);
    await dialog.locator('input[name="sweep-numOfOrders"]').fill('3:7:2');
    await dialog.locator('input[name="sweep-takeProfit"]').fill('1:1:1');
    await dialog.getByRole('button', { name: 'Run sweep' }).click();
    const map = dialog.getByTestId('sweep-heatmap');
    await map.waitFor({ state: 'visible', timeout: Math.max(T, 120000) });
    const columns = await map.locator('thead th').count();
    if (columns !== 21) throw new Error(`the heatmap has ${columns - 1} interval columns`);
    // the box the table scrolls in (the map itself before issue 40's layout)
    const scroller = (await map.locator('.sweep-heatmap__scroll').count()) ? map.locator('.sweep-heatmap__scroll') : map;
    await atBothWidths(page, async (width) => {
      await page.mouse.move(0, 0);
      // in the middle of the dialog: at its bottom the form's sticky Save bar covers what lies under it
      await map.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await scroller.evaluate((el) => (el.scrollLeft = 0));
      await page.waitForTimeout(150);
      await map.screenshot({ path: path.join(ARTIFACTS, `backtest-history-heatmap-${width}.png`) });
      await scroller.evaluate((el) => (el.scrollLeft = el.scrollWidth));
      await page.waitForTimeout(150);
      await map.screenshot({ path: path.join(ARTIFACTS, `backtest-history-heatmap-${width}-scrolled.png`) });
      await scroller.evaluate((el) => (el.scrollLeft = 0));
      return heatmapProblems(map);
    });
    const sweepNote = dialog.locator('.backtest__sweep').getByTestId('backtest-history');
    if (!/Binance's market data/.test((await sweepNote.textContent()) || '')) throw new Error('the sweep does not name its history');
    // a cell far to the right, scrolled to and clicked, fills the form
    await page.setViewportSize(NARROW);
    const cell = map.getByRole('button').filter({ hasText: /\d/ }).last();
    const label = (await cell.getAttribute('aria-label')) || '';
    await cell.click();
    const m = /Use interval ([\d.]+), (\d+) orders/.exec(label);
    if (!m) throw new Error(`cell label: ${label}`);
    const got = [await dialog.getByLabel('Price interval').inputValue(), await dialog.getByLabel('Grid size').inputValue()];
    if (got.join('|') !== `${m[1]}|${m[2]}`) throw new Error(`the form holds ${got.join(', ')} after a click on ${label}`);
    await page.setViewportSize(WIDE);
    if (consoleErrors.length) throw new Error(`page errors: ${consoleErrors.join('; ')}`);
  });
});
