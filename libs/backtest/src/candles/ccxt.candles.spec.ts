/**
 * The exchange's candles through ccxt's public fetchOHLCV against the local stand-in of Binance spot
 * (libs/exchanges/src/testing/standin: GET /api/v3/klines as Binance documents it, binance-klines.ts), with
 * no key: paged, cached on disk, a second run reads no network, a wider one fetches only what is missing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CsvReplayFeed, PaperVenue } from '@gridrocket/exchanges';
import { startVenueStandIn, type VenueStandIn } from '@gridrocket/exchanges/testing/standin/venue-standin';
import { CandleCache } from './candle-cache';
import { CcxtCandleSource } from './ccxt.candles';

jest.setTimeout(60_000);

const M = 60_000;
const T0 = 1_731_000_000_000 - (1_731_000_000_000 % M);
const NOW = T0 + 10_000 * M;

/** The venue's past: BTCUSDT listed at T0, 2,500 minutes of candles opening at 95,000 + i. */
export function rising(symbol: string, t: number) {
  const i = (t - T0) / M;
  if (symbol !== 'BTCUSDT' || i < 0 || i >= 2500) return null;
  const o = 95000 + i;
  return { open: o, high: o + 3, low: o - 2, close: o + 1, volume: 1.5 };
}

describe('ccxt candles (public fetchOHLCV against the stand-in of Binance spot)', () => {
  let venue: PaperVenue;
  let standIn: VenueStandIn;
  let dir: string;
  beforeAll(async () => {
    venue = new PaperVenue({ store: ':memory:', feed: new CsvReplayFeed(`ms,exchange,symbol,price\n${NOW},Binance,BTCUSDT,97500\n`) });
    venue.advanceTo(NOW);
    standIn = await startVenueStandIn(venue, 'Binance', 'spot', [], { now: () => NOW, klines: rising });
    dir = mkdtempSync(join(tmpdir(), 'gr-candles-'));
  });
  afterAll(async () => {
    await standIn.close();
    venue.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const source = () => new CcxtCandleSource({ cache: new CandleCache(join(dir, 'candles.sqlite')), apiOrigin: () => standIn.origin, pageLimit: 1000, now: () => NOW });
  const klines = () => standIn.stub.calls('GET', '/api/v3/klines');

  it('pages through the range with no key, caches it on disk, and a second run reads no network', async () => {
    const first = source();
    const q = { exchange: 'Binance' as const, market: 'spot' as const, symbol: 'BTCUSDT', timeframe: '1m' as const, from: T0, to: T0 + 2400 * M };
    const progress: number[] = [];
    const s = await first.candles(q, (f) => progress.push(f));
    expect(s.length).toBe(2400);
    expect([s.time[0], s.open[0], s.high[0], s.low[0], s.close[0]]).toEqual([T0, 95000, 95003, 94998, 95001]);
    expect(s.time[2399]).toBe(T0 + 2399 * M);
    const pages = klines();
    expect(pages.length).toBe(3); // 1000 + 1000 + 400
    expect(pages.map((r) => [r.query.get('symbol'), r.query.get('interval'), r.query.get('limit')])).toEqual(Array(3).fill(['BTCUSDT', '1m', '1000']));
    expect(pages.every((r) => !r.headers['x-mbx-apikey'])).toBe(true);
    // the venue's weight: 2 a call (and exchangeInfo's 20 for ccxt's markets)
    expect(standIn.meter.byRoute(0, Infinity)['GET /api/v3/klines']).toBe(6);
    expect(progress[progress.length - 1]).toBe(1);
    first.close();

    const before = standIn.stub.requests.length;
    const second = source(); // a new process: same file on disk
    const again = await second.candles(q);
    expect(standIn.stub.requests.length).toBe(before);
    expect(Array.from(again.close)).toEqual(Array.from(s.close));

    // a wider range fetches only what is missing
    const wider = await second.candles({ ...q, to: T0 + 2500 * M });
    expect(wider.length).toBe(2500);
    const newPages = klines().slice(pages.length);
    expect(newPages.map((r) => Number(r.query.get('startTime')))).toEqual([T0 + 2400 * M]);
    second.close();
  });

  it('reads the market rules from the exchange and the venue maker fee from ccxt', async () => {
    const s = source();
    const terms = await s.terms({ exchange: 'Binance', market: 'spot', symbol: 'BTCUSDT' });
    expect(terms.rules).toMatchObject({ priceStep: 0.01, amountStep: 0.00001, minNotional: 5 });
    expect(terms.feeBps).toBe(10);
    s.close();
  });
});
