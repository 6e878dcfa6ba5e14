import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExchangeStub, type StubRequest } from '@gridrocket/exchanges/testing/exchange-stub.server';
import { exchangeFixture } from '@gridrocket/exchanges/testing/ccxt.fixtures';
import { CandleCache } from './candle-cache';
import { CcxtCandleSource } from './ccxt.candles';

jest.setTimeout(60_000);

const M = 60_000;
const T0 = 1_731_000_000_000 - (1_731_000_000_000 % M);

/** Binance's GET /api/v3/klines: [openTime, o, h, l, c, v, closeTime, …], at most `limit` from startTime. */
function klines(req: StubRequest) {
  const start = Number(req.query.get('startTime'));
  const limit = Number(req.query.get('limit') ?? 500);
  const end = req.query.get('endTime') ? Number(req.query.get('endTime')) : Infinity;
  const rows = [];
  for (let t = Math.ceil(start / M) * M, k = 0; k < limit && t <= end && t < T0 + 2500 * M; t += M, k++) {
    const i = (t - T0) / M;
    const o = 95000 + i;
    rows.push([t, String(o), String(o + 3), String(o - 2), String(o + 1), '1.5', t + M - 1, '0', 10, '0', '0', '0']);
  }
  return { status: 200, body: rows };
}

describe('ccxt candles (public fetchOHLCV against a local stand-in of Binance)', () => {
  let stub: ExchangeStub;
  let dir: string;
  beforeAll(async () => {
    stub = await ExchangeStub.start({ ...exchangeFixture('binance').routes, 'GET /api/v3/klines': klines });
    dir = mkdtempSync(join(tmpdir(), 'gr-candles-'));
  });
  afterAll(async () => {
    await stub.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const source = () =>
    new CcxtCandleSource({ cache: new CandleCache(join(dir, 'candles.sqlite')), apiOrigin: () => stub.origin, pageLimit: 1000, now: () => T0 + 10_000 * M });

  it('pages through the range with no key, caches it on disk, and a second run reads no network', async () => {
    const first = source();
    const q = { exchange: 'Binance' as const, market: 'spot' as const, symbol: 'BTCUSDT', timeframe: '1m' as const, from: T0, to: T0 + 2400 * M };
    const progress: number[] = [];
    const s = await first.candles(q, (f) => progress.push(f));
    expect(s.length).toBe(2400);
    expect([s.time[0], s.open[0], s.high[0], s.low[0], s.close[0]]).toEqual([T0, 95000, 95003, 94998, 95001]);
    expect(s.time[2399]).toBe(T0 + 2399 * M);
    const pages = stub.calls('GET', '/api/v3/klines');
    expect(pages.length).toBe(3); // 1000 + 1000 + 400
    expect(pages.every((r) => !r.headers['x-mbx-apikey'])).toBe(true);
    expect(progress[progress.length - 1]).toBe(1);
    first.close();

    const before = stub.requests.length;
    const second = source(); // a new process: same file on disk
    const again = await second.candles(q);
    expect(stub.requests.length).toBe(before);
    expect(Array.from(again.close)).toEqual(Array.from(s.close));

    // a wider range fetches only what is missing
    const wider = await second.candles({ ...q, to: T0 + 2500 * M });
    expect(wider.length).toBe(2500);
    const newPages = stub.calls('GET', '/api/v3/klines').slice(pages.length);
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
