/**
 * The price path of the browser test's paper exchange: a CSV for the product's own `PAPER_PRICES`
 * (libs/exchanges/src/paper-price-feed.ts CsvReplayFeed), written by e2e/run.js before it starts the
 * server, instead of the embedded default's seeded random walk. The walk (about ±15 bps a second) crosses a
 * buy or a take-profit whenever timing and machine load let it: the steps that wait for fills flaked.
 *
 * With a CSV the paper venue advances its feed by the elapsed wall time (paper-feed-driver.ts, mode
 * 'elapsed'), and fills crossing orders on placement or on the tick that crosses them, as with any feed:
 * the real product path. What this path gives the steps is a BAND that the price never leaves, whatever
 * the time a step reads or places something:
 *
 *   Binance BTCUSDT = 95,000 × (1 + 0.0008 × sin(2π t / 20 s)), one row a second, on the 0.1 tick
 *   (the coarser tick of Binance's BTCUSDT spot, 0.01, and perpetual, 0.1: venues/markets.ts), so every
 *   price read lies in [94,923.95, 95,076.05] (95,000 ± 76, ± 0.05 of rounding), and it changes every second
 *   by at least 3.6 USDT (the least move is at a crest: 76 × (1 − cos 18°) = 3.72, less 0.1 of rounding).
 *
 * Every other market stays at its catalogue start price (no rows). The rows start at the time the server is
 * started, so orders and fills are stamped with about the wall time, and run for 4 hours (the suite takes
 * minutes); after the last row the price stays where it is.
 *
 * What that makes certain (each step's own comment says which rule it relies on):
 * - a buy above 95,076 fills when placed (it takes, at the current price); a buy below 94,924 never fills;
 * - a take-profit 1 % above a fill at ≥ 94,924 (≥ 95,873) never fills: a bot that bought keeps its position;
 * - the unrealised P&L of 0.01 BTC moves by ≥ 0.036 USDT every second (0.01 × 3.6), so its 2-decimal figure
 *   changes every second.
 */
'use strict';
const fs = require('node:fs');

const SYMBOL = { exchange: 'Binance', symbol: 'BTCUSDT' };
const CENTRE = 95000;
const AMPLITUDE = 0.0008;
const PERIOD_S = 20;
const TICK = 0.1;
const HOURS = 4;

/** The band every price of the path lies in (rounding to the tick included). */
const BAND = { low: CENTRE * (1 - AMPLITUDE) - TICK / 2, high: CENTRE * (1 + AMPLITUDE) + TICK / 2 };

/** The price `s` seconds into the path, on the tick, as a decimal string. */
function priceAt(s) {
  const raw = CENTRE * (1 + AMPLITUDE * Math.sin((2 * Math.PI * s) / PERIOD_S));
  return (Math.round(raw * 10) / 10).toFixed(1); // the 0.1 tick
}

/** The CSV text `ms,exchange,symbol,price` from `startMs`, one row a second. */
function pricesCsv(startMs) {
  const lines = ['ms,exchange,symbol,price'];
  for (let s = 0; s <= HOURS * 3600; s++) {
    const p = priceAt(s);
    // the guarantees above rest on these two facts: checked here rather than trusted
    if (!(Number(p) >= BAND.low && Number(p) <= BAND.high)) throw new Error(`e2e price ${p} at ${s} s is outside ${BAND.low}–${BAND.high}`);
    if (Math.abs(Math.round(Number(p) * 10) - Number(p) * 10) > 1e-6) throw new Error(`e2e price ${p} is off the 0.1 tick`);
    lines.push(`${startMs + s * 1000},${SYMBOL.exchange},${SYMBOL.symbol},${p}`);
  }
  return lines.join('\n') + '\n';
}

/** Writes the CSV into `dir` (the run's data folder) and returns its path for PAPER_PRICES. */
function writePricesCsv(dir, startMs = Date.now()) {
  const file = `${dir}/e2e-paper-prices.csv`;
  fs.writeFileSync(file, pricesCsv(startMs));
  return file;
}

module.exports = { BAND, CENTRE, writePricesCsv, pricesCsv, priceAt };
