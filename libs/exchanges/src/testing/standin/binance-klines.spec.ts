/**
 * The stand-ins' klines answer as Binance documents them (binance-klines.ts): rows of 12 fields from
 * startTime, the most recent without one, at most `limit` (spot default 500, max 1000; USDⓈ-M max 1500),
 * the forming candle included, and the venue's refusals for a bad symbol, interval or range.
 */
import { CsvReplayFeed, PaperVenue } from '../../index';
import { startVenueStandIn, type VenueStandIn } from './venue-standin';

const M = 60_000;
const NOW = 1_731_000_000_000 - (1_731_000_000_000 % M) + 30_000; // 30 s into a minute
const history = (_symbol: string, t: number) => ({ open: t / M, high: t / M + 2, low: t / M - 1, close: t / M + 1, volume: 2 });

describe('Binance klines on the stand-ins', () => {
  let venue: PaperVenue;
  const standIns: VenueStandIn[] = [];
  let spot: VenueStandIn;
  let usdm: VenueStandIn;
  beforeAll(async () => {
    venue = new PaperVenue({ store: ':memory:', feed: new CsvReplayFeed(`ms,exchange,symbol,price\n${NOW},Binance,BTCUSDT,95000\n`) });
    venue.advanceTo(NOW);
    spot = await startVenueStandIn(venue, 'Binance', 'spot', [], { now: () => NOW, klines: history });
    usdm = await startVenueStandIn(venue, 'Binance', 'futures', [], { now: () => NOW });
    standIns.push(spot, usdm);
  });
  afterAll(async () => {
    for (const s of standIns) await s.close();
    venue.close();
  });
  const get = async (s: VenueStandIn, path: string) => {
    const res = await fetch(`${s.origin}${path}`);
    return { status: res.status, body: (await res.json()) as any };
  };

  it('spot: from startTime, `limit` rows of the documented shape; without a start, the most recent ending with the forming one', async () => {
    const start = NOW - 30_000 - 10 * M;
    const r = await get(spot, `/api/v3/klines?symbol=BTCUSDT&interval=1m&startTime=${start}&limit=3`);
    expect(r.status).toBe(200);
    expect(r.body).toHaveLength(3);
    const t = start / M;
    expect(r.body[0]).toEqual([start, String(t), String(t + 2), String(t - 1), String(t + 1), '2', start + M - 1, String(2 * (t + 1)), 1, '1', String(t + 1), '0']);
    const recent = await get(spot, '/api/v3/klines?symbol=BTCUSDT&interval=1m');
    expect(recent.body).toHaveLength(500); // the default limit
    expect(recent.body[499][0]).toBe(NOW - 30_000); // the forming candle
    const capped = await get(spot, `/api/v3/klines?symbol=BTCUSDT&interval=1m&startTime=${NOW - 5000 * M}&limit=5000`);
    expect(capped.body).toHaveLength(1000);
    const until = await get(spot, `/api/v3/klines?symbol=BTCUSDT&interval=1h&startTime=${NOW - 10 * 60 * M}&endTime=${NOW - 8 * 60 * M}`);
    // open times from startTime up to endTime: the hours opening in [NOW − 10 h, NOW − 8 h]
    const first = Math.ceil((NOW - 10 * 60 * M) / (60 * M)) * 60 * M;
    expect(until.body.map((k: number[]) => k[0])).toEqual([first, first + 60 * M]);
  });

  it("refuses what Binance refuses, with Binance's codes", async () => {
    expect(await get(spot, '/api/v3/klines?symbol=NOPEUSDT&interval=1m')).toEqual({ status: 400, body: { code: -1121, msg: 'Invalid symbol.' } });
    expect(await get(spot, '/api/v3/klines?symbol=BTCUSDT&interval=2m')).toEqual({ status: 400, body: { code: -1120, msg: 'Invalid interval.' } });
    expect((await get(spot, '/api/v3/klines?symbol=BTCUSDT')).body.code).toBe(-1102);
    expect(await get(spot, `/api/v3/klines?symbol=BTCUSDT&interval=1m&startTime=${NOW}&endTime=${NOW - M}`)).toEqual({ status: 400, body: { code: -1023, msg: 'Start time is greater than end time.' } });
    expect((await get(usdm, '/fapi/v1/klines?symbol=BTCUSDT&interval=1s')).body).toEqual({ code: -1120, msg: 'Invalid interval.' });
  });

  it('USDⓈ-M: at most 1500, weighed by limit; without a history, flat at the current price', async () => {
    const from = usdm.meter.weightBetween(0, Infinity);
    const r = await get(usdm, `/fapi/v1/klines?symbol=BTCUSDT&interval=1m&startTime=${NOW - 3000 * M}&limit=2000`);
    expect(r.body).toHaveLength(1500);
    expect(r.body[0].slice(1, 5)).toEqual(['95000', '95000', '95000', '95000']);
    await get(usdm, `/fapi/v1/klines?symbol=BTCUSDT&interval=1m&limit=99`);
    await get(usdm, `/fapi/v1/klines?symbol=BTCUSDT&interval=1m&limit=500`);
    expect(usdm.meter.weightBetween(0, Infinity) - from).toBe(10 + 1 + 5);
    // spot weighs 2 whatever the limit
    const s0 = spot.meter.byRoute(0, Infinity)['GET /api/v3/klines'] ?? 0;
    await get(spot, '/api/v3/klines?symbol=BTCUSDT&interval=1m&limit=1000');
    expect(spot.meter.byRoute(0, Infinity)['GET /api/v3/klines']).toBe(s0 + 2);
  });
});
