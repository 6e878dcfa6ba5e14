/**
 * Issue 40, point 2: the history a backtest runs over. The venue's candles where the server reaches it
 * (ccxt's public OHLCV against the Binance spot stand-in), kept on disk so that the same period gives the
 * same candles when the venue is gone; where it is not reached, a pair it does not list, or the server is set
 * to simulated: the fixed, seeded history, labelled simulated with the reason. The simulated history holds
 * no time: the same request gives the same candles whatever minute the period starts at.
 */
import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CsvReplayFeed, PAPER_SYMBOLS, PaperVenue } from '@gridrocket/exchanges';
import { startVenueStandIn, type VenueStandIn } from '@gridrocket/exchanges/testing/standin/venue-standin';
import { CandleCache } from './candle-cache';
import { CcxtCandleSource } from './ccxt.candles';
import { PaperCandleSource } from './paper.candles';
import { readHistory, SIMULATED_ONLY, type HistorySources } from './backtest-history';
import type { CandleQuery } from './candle-source.port';

jest.setTimeout(60_000);

const M = 60_000;
const DAY = 86_400_000;
const TO = Date.UTC(2026, 10, 26);
const FROM = TO - DAY;
const NOW = TO + 7 * 3_600_000;
const q: CandleQuery = { exchange: 'Binance', market: 'spot', symbol: 'BTCUSDT', timeframe: '1m', from: FROM, to: TO };
const history = (symbol: string, t: number) => {
  const i = (t - FROM) / M;
  const o = 90000 + (i % 100);
  return symbol === 'BTCUSDT' ? { open: o, high: o + 5, low: o - 5, close: o + 1, volume: 1 } : null;
};

/** A port nothing listens on (connection refused: the venue not reached). */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

describe('the history of a backtest (issue 40)', () => {
  let venue: PaperVenue;
  let standIn: VenueStandIn;
  let dir: string;
  let dead: string;
  beforeAll(async () => {
    // the venue lists every catalogue pair but GBPUSDT
    venue = new PaperVenue({ store: ':memory:', feed: new CsvReplayFeed(`ms,exchange,symbol,price\n${NOW},Binance,BTCUSDT,90000\n`), symbols: PAPER_SYMBOLS.filter((s) => s.symbol !== 'GBPUSDT') });
    venue.advanceTo(NOW);
    standIn = await startVenueStandIn(venue, 'Binance', 'spot', [], { now: () => NOW, klines: history });
    dir = mkdtempSync(join(tmpdir(), 'gr-history-'));
    dead = `http://127.0.0.1:${await closedPort()}`;
  });
  afterAll(async () => {
    await standIn.close();
    venue.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const simulated = (qq: CandleQuery) => new PaperCandleSource(1).candles(qq);
  const sources = (origin: () => string, mode: HistorySources['mode'] = 'venue', file = 'candles.sqlite'): HistorySources => {
    const venueSource = new CcxtCandleSource({ cache: new CandleCache(join(dir, file)), apiOrigin: origin, now: () => NOW, timeoutMs: 5000 });
    return { mode, seed: 1, venue: () => venueSource, simulated };
  };

  it("the venue's candles, named as such with the period; the same period again once the venue is gone: the same candles, from the disk", async () => {
    let origin = standIn.origin;
    const a = await readHistory(q, sources(() => origin));
    expect(a.history).toEqual({
      source: 'venue',
      simulated: false,
      exchange: 'Binance',
      market: 'spot',
      symbol: 'BTCUSDT',
      timeframe: '1m',
      from: FROM,
      to: TO,
      candles: 1440,
      label: "Binance spot BTCUSDT, 1m candles from Binance's market data, 2026-11-25 00:00 → 2026-11-26 00:00 UTC",
    });
    expect([a.series.time[0], a.series.open[0], a.series.close[1439]]).toEqual([FROM, 90000, 90000 + 39 + 1]);
    const asked = standIn.stub.calls('GET', '/api/v3/klines').length;
    expect(asked).toBe(2); // 1000 + 440

    origin = dead; // the venue is not reached any more (a new process: the same file on disk)
    const b = await readHistory(q, sources(() => origin));
    expect(b.history).toEqual(a.history);
    expect(Array.from(b.series.close)).toEqual(Array.from(a.series.close));
    expect(standIn.stub.calls('GET', '/api/v3/klines').length).toBe(asked);
  });

  it('the venue not reached: the simulated history, labelled with the reason and its seed', async () => {
    const r = await readHistory({ ...q, symbol: 'ETHUSDT' }, sources(() => dead, 'venue', 'offline.sqlite'));
    expect(r.history).toMatchObject({ source: 'simulated', simulated: true, symbol: 'ETHUSDT', from: FROM, to: TO, candles: 1440, seed: 'simulated|1|Binance|ETHUSDT|1m', reason: 'Binance could not be reached' });
    expect(r.history.label).toBe("Simulated history, not market prices: a fixed, seeded random walk from ETHUSDT's catalogue price (3,300), 1m candles, 2026-11-25 00:00 → 2026-11-26 00:00 UTC. Binance could not be reached.");
    expect(Array.from(r.series.close)).toEqual(Array.from((await simulated({ ...q, symbol: 'ETHUSDT' })).close));
  });

  it('a pair the venue does not list, no candles in the period, or a server set to simulated: simulated, each with its reason', async () => {
    const unlisted = await readHistory({ ...q, symbol: 'GBPUSDT' }, sources(() => standIn.origin, 'venue', 'unlisted.sqlite'));
    expect(unlisted.history).toMatchObject({ source: 'simulated', reason: 'Binance spot does not list GBPUSDT' });
    // ETHUSDT is listed, but the venue's past has no ETHUSDT candle
    const none = await readHistory({ ...q, symbol: 'ETHUSDT' }, sources(() => standIn.origin, 'venue', 'none.sqlite'));
    expect(none.history).toMatchObject({ source: 'simulated', reason: 'Binance has no ETHUSDT candles in this period' });
    const before = standIn.stub.requests.length;
    const setting = await readHistory(q, sources(() => standIn.origin, 'simulated', 'setting.sqlite'));
    expect(setting.history).toMatchObject({ source: 'simulated', reason: SIMULATED_ONLY });
    expect(standIn.stub.requests.length).toBe(before); // never asked
  });

  it('any other failure fails the backtest rather than hiding behind a simulated history', async () => {
    const broken: HistorySources = { mode: 'venue', seed: 1, simulated, venue: () => ({ name: 'x', candles: async () => Promise.reject(new Error('disk I/O error')), terms: async () => Promise.reject(new Error('x')) }) };
    await expect(readHistory(q, broken)).rejects.toThrow('disk I/O error');
  });

  it('the simulated history holds no time: periods starting a minute, a day or a year apart have the same candles', async () => {
    const base = await simulated(q);
    for (const shift of [M, DAY, 365 * DAY]) {
      const later = await simulated({ ...q, from: FROM + shift, to: TO + shift });
      expect(later.length).toBe(base.length);
      expect(Array.from(later.close)).toEqual(Array.from(base.close));
      expect(later.time[0]).toBe(FROM + shift);
    }
  });
});
