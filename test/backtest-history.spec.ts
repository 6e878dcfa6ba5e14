/**
 * Issue 40, point 2: "the same backtest request run twice gives identical results, and the result names its
 * history's source". Before, "Backtest last 30 days" on the paper exchange ran over a history made again
 * every minute (its seed held the period's start): the same settings gave buy and hold +37.93 %, −14.97 %
 * and −22.86 % within two minutes, and nothing said it was simulated.
 *
 * The real app, over the API, twice in a row, then after a restart of the app on the same data, at another
 * minute of the day (the clock moved 3 minutes):
 * - no venue reachable (the public candle calls go to a port nothing listens on): the fixed, seeded
 *   history, `history.source: 'simulated'` with the reason, and three identical results;
 * - the venue reachable (the Binance spot stand-in, GET /api/v3/klines): the venue's candles,
 *   `history.source: 'venue'`; the stand-in then closed, the app restarted: the identical result from
 *   the candle store.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CsvReplayFeed, PaperVenue } from '@gridrocket/exchanges';
import { startVenueStandIn, type VenueStandIn } from '@gridrocket/exchanges/testing/standin/venue-standin';
import { loadConfig } from '@gridrocket/shared/runtime';
import { startApp, type RunningApp } from '../apps/api/src/bootstrap';
import { Client } from './support/http-client';
import { backtestDone, signedUpClient } from './support/backtests';
import { freePort } from './support/free-port';

jest.setTimeout(180_000);

const DAY = 86_400_000;
const BOT = { exchange: 'Binance', symbol: 'SOLUSDT', botType: 'Spot', numOfOrders: 10, orderSize: '0.1', interval: 1, entryPrice: 140, takeProfit: 1 };
const PASSWORD = 'correct-horse-1';

/** SOLUSDT's past on the stand-in: about 140, ± 4 over six hours, a candle per open time (the same whenever asked). */
function solPast(symbol: string, t: number, step: number) {
  if (symbol !== 'SOLUSDT') return null;
  const at = (x: number) => Math.round((140 + 4 * Math.sin((2 * Math.PI * x) / (6 * 3_600_000))) * 100) / 100;
  const open = at(t);
  const close = at(t + step);
  return { open, close, high: Math.max(open, close) + 0.05, low: Math.min(open, close) - 0.05, volume: 10 };
}

function start(dataDir: string, env: Record<string, string>): Promise<RunningApp> {
  return startApp(loadConfig({ BACKTEST_HISTORY: 'venue', ...env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', WEB_DIST: join(dataDir, 'no-web') }));
}

const backtest = (c: Client, body: object, path = '/api/backtests') => backtestDone(c, path, body, 'backtest done', 120_000);

/** What a re-run must give again: the period, the terms, the history and every figure (curve included). */
const outcome = (doc: any) => ({ status: doc.status, error: doc.error, request: doc.request, terms: doc.terms, candles: doc.candles, history: doc.history, result: doc.result, sweep: doc.sweep });

/** Runs `fn` with the clock 3 minutes away (back in the afternoon, on in the morning: the same UTC day). */
async function threeMinutesAway<T>(fn: () => Promise<T>): Promise<T> {
  const real = Date.now.bind(Date);
  const shift = real() % DAY < DAY / 2 ? 3 * 60_000 : -3 * 60_000;
  const spy = jest.spyOn(Date, 'now').mockImplementation(() => real() + shift);
  try {
    return await fn();
  } finally {
    spy.mockRestore();
  }
}

describe('the same backtest request gives the same result, and names its history (issue 40)', () => {
  const dirs: string[] = [];
  const fresh = () => {
    const d = mkdtempSync(join(tmpdir(), 'gr-bt-history-'));
    dirs.push(d);
    return d;
  };
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('BACKTEST_HISTORY is venue (default) or simulated; anything else stops the start with the setting named', () => {
    expect(loadConfig({}).backtests).toMatchObject({ history: 'venue', candlesOrigin: null });
    expect(loadConfig({ BACKTEST_HISTORY: 'Simulated', BACKTEST_CANDLES_ORIGIN: ' binance=http://127.0.0.1:9 ' }).backtests).toMatchObject({ history: 'simulated', candlesOrigin: 'binance=http://127.0.0.1:9' });
    expect(() => loadConfig({ BACKTEST_HISTORY: 'paper' })).toThrow('BACKTEST_HISTORY must be venue or simulated (got "paper")');
  });

  it('no venue reachable: the simulated history, labelled so, the same result twice, after a restart and at another minute', async () => {
    const dataDir = fresh();
    const env = { BACKTEST_CANDLES_ORIGIN: `http://127.0.0.1:${await freePort()}` };
    let app = await start(dataDir, env);
    let first: any;
    let second: any;
    let sweep: any;
    try {
      const c = await signedUpClient(app.url, 'history-offline@example.com');
      first = await backtest(c, BOT);
      second = await backtest(c, BOT);
      sweep = await backtest(c, { ...BOT, days: 2, ranges: { interval: { from: 1, to: 2, step: 1 }, numOfOrders: { from: 5, to: 5, step: 1 }, takeProfit: { from: 1, to: 1, step: 1 } } }, '/api/backtests/sweep');
    } finally {
      await app.close();
    }
    expect(first.status).toBe('done');
    expect(first.history).toMatchObject({
      source: 'simulated',
      simulated: true,
      exchange: 'Binance',
      market: 'spot',
      symbol: 'SOLUSDT',
      timeframe: '1m',
      from: first.request.from,
      to: first.request.to,
      candles: 43_200,
      seed: 'simulated|1|Binance|SOLUSDT|1m',
      reason: 'Binance could not be reached',
    });
    expect(first.history.label).toMatch(/^Simulated history, not market prices: a fixed, seeded random walk from SOLUSDT's catalogue price \(140\), 1m candles, .* UTC\. Binance could not be reached\.$/);
    // the last 30 whole days before today (UTC)
    expect(first.request.to % DAY).toBe(0);
    expect(first.request.to - first.request.from).toBe(30 * DAY);
    expect(outcome(second)).toEqual(outcome(first));
    expect(sweep.history).toMatchObject({ source: 'simulated', candles: 2880 });

    app = await start(dataDir, env);
    try {
      const c = new Client(app.url);
      expect((await c.post('/api/auth/login', { email: 'history-offline@example.com', password: PASSWORD })).status).toBeLessThan(300);
      const third = await threeMinutesAway(() => backtest(c, BOT));
      expect(outcome(third)).toEqual(outcome(first));
      expect(third.result.buyAndHold).toEqual(first.result.buyAndHold);
    } finally {
      await app.close();
    }
  });

  it("the venue reachable: its candles, named with the period; the venue gone and the app restarted: the identical result from the candle store", async () => {
    const venue = new PaperVenue({ store: ':memory:', feed: new CsvReplayFeed(`ms,exchange,symbol,price\n${Date.now()},Binance,SOLUSDT,140\n`) });
    venue.advanceTo(Date.now());
    let standIn: VenueStandIn | null = await startVenueStandIn(venue, 'Binance', 'spot', [], { klines: solPast });
    const dataDir = fresh();
    const env = { BACKTEST_CANDLES_ORIGIN: standIn.origin };
    let app = await start(dataDir, env);
    let first: any;
    let second: any;
    try {
      const c = await signedUpClient(app.url, 'history-venue@example.com');
      first = await backtest(c, BOT);
      const asked = standIn.stub.calls('GET', '/api/v3/klines').length;
      expect(asked).toBe(44); // 43,200 candles, 1,000 a page
      second = await backtest(c, BOT);
      expect(standIn.stub.calls('GET', '/api/v3/klines').length).toBe(asked); // from the candle store
    } finally {
      await app.close();
      await standIn.close();
      standIn = null;
      venue.close();
    }
    expect(first.status).toBe('done');
    expect(first.history).toEqual({ source: 'venue', simulated: false, exchange: 'Binance', market: 'spot', symbol: 'SOLUSDT', timeframe: '1m', from: first.request.from, to: first.request.to, candles: 43_200, label: expect.stringMatching(/^Binance spot SOLUSDT, 1m candles from Binance's market data, \d{4}-\d\d-\d\d 00:00 → \d{4}-\d\d-\d\d 00:00 UTC$/) });
    expect(first.result.fills).toBeGreaterThan(10); // the grid trades the venue's swings
    expect(outcome(second)).toEqual(outcome(first));

    app = await start(dataDir, env); // the venue is gone now
    try {
      const c = new Client(app.url);
      expect((await c.post('/api/auth/login', { email: 'history-venue@example.com', password: PASSWORD })).status).toBeLessThan(300);
      const third = await threeMinutesAway(() => backtest(c, BOT));
      expect(outcome(third)).toEqual(outcome(first));
    } finally {
      await app.close();
    }
  });
});
