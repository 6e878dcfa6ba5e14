/**
 * The KuCoin stand-ins count their resource pools as KuCoin documents them (kucoin.rate-limits.ts): the
 * pool's counters on every answer, 429 with 429000 past a quota until its window ends, the Public pool per
 * IP, the others per user, each window opened by its first request and lasting 30 s.
 */
import { contractCsv, CONTRACT_T0 } from '../../exchange-port.contract';
import { PaperVenue } from '../../paper.exchange';
import { CsvReplayFeed } from '../../paper-price-feed';
import { startVenueStandIn, type VenueStandIn } from './venue-standin';
import { KucoinRateMeter, KUCOIN_POOLS_VIP0 } from './kucoin.rate-limits';

const ANN = { userId: 'ann', apiKey: 'ann-key-0001', secret: 'ann-secret', passphrase: 'ann-pass' };
const BEN = { userId: 'ben', apiKey: 'ben-key-0001', secret: 'ben-secret', passphrase: 'ben-pass' };

describe('the KuCoin spot stand-in counts its resource pools', () => {
  let venue: PaperVenue;
  let standIn: VenueStandIn;
  beforeAll(async () => {
    venue = new PaperVenue({ store: ':memory:', feed: new CsvReplayFeed(contractCsv()) });
    venue.advanceTo(CONTRACT_T0);
    // small quotas so that a test reaches them; the answers stay the venue's
    standIn = await startVenueStandIn(venue, 'Kucoin', 'spot', [ANN, BEN], { kucoinQuotas: { Spot: 20, Public: 40, Management: 2000 } });
  });
  afterAll(async () => {
    await standIn.close();
    venue.close();
  });

  const get = async (path: string, key?: typeof ANN) => {
    const r = await fetch(`${standIn.origin}${path}`, { headers: key ? { 'KC-API-KEY': key.apiKey, 'KC-API-PASSPHRASE': key.passphrase } : {} });
    const h = (n: string) => r.headers.get(n);
    return { status: r.status, body: (await r.json()) as { code: string; msg?: string }, limit: h('gw-ratelimit-limit'), remaining: h('gw-ratelimit-remaining'), reset: Number(h('gw-ratelimit-reset')) };
  };

  it('states the pool of each answer: its quota, what remains and the countdown to its reset', async () => {
    const first = await get('/api/v1/orders?status=active', ANN); // Spot pool, weight 2
    expect(first).toMatchObject({ status: 200, limit: '20', remaining: '18' });
    expect(first.reset).toBeGreaterThan(25_000);
    expect(first.reset).toBeLessThanOrEqual(30_000);
    const stats = await get('/api/v1/market/stats?symbol=BTC-USDT'); // Public pool, weight 15
    expect(stats).toMatchObject({ status: 200, limit: '40', remaining: '25' });
    const balances = await get('/api/v1/accounts', ANN); // Management pool, weight 5
    expect(balances).toMatchObject({ status: 200, limit: '2000', remaining: '1995' });
  });

  it('refuses past a quota with 429 / 429000 and the wait, for that user only; Public is shared by every caller of the IP', async () => {
    // ann's Spot pool: 18 left, the trade history weighs 10
    expect((await get('/api/v1/fills?symbol=BTC-USDT', ANN)).status).toBe(200);
    const refused = await get('/api/v1/fills?symbol=BTC-USDT', ANN);
    expect(refused).toMatchObject({ status: 429, body: { code: '429000', msg: 'Too Many Requests' }, limit: '20', remaining: '8' });
    expect(refused.reset).toBeGreaterThan(0);
    // a lighter call still fits
    expect((await get('/api/v1/orders?status=active', ANN)).status).toBe(200);
    // ben has his own Spot pool
    expect(await get('/api/v1/fills?symbol=BTC-USDT', BEN)).toMatchObject({ status: 200, remaining: '10' });
    // Public (per IP): 25 left after the first test; 15 more → 10; the next 24h stats is refused, for ben too
    expect((await get('/api/v1/market/stats?symbol=BTC-USDT', ANN)).status).toBe(200);
    expect((await get('/api/v1/market/stats?symbol=BTC-USDT', BEN)).status).toBe(429);
    expect(standIn.kucoinRate!.refusals.map((r) => r.pool)).toEqual(['Spot', 'Public']);
    // what a refusal cost: nothing
    expect(standIn.meter.weightBetween(0, Date.now() + 1, 'Spot')).toBe(2 + 10 + 2 + 10);
  });

  it('charges the bullet tokens of the streams to their pools', async () => {
    const before = standIn.meter.weightBetween(0, Date.now() + 1, 'Management');
    await fetch(`${standIn.origin}/api/v1/bullet-private`, { method: 'POST', headers: { 'KC-API-KEY': BEN.apiKey } });
    expect(standIn.meter.byRoute(0, Date.now() + 1)['Spot: POST /api/v1/bullet-private']).toBe(10);
    expect(standIn.meter.weightBetween(0, Date.now() + 1, 'Management')).toBe(before);
  });
});

describe('a KuCoin pool\'s window', () => {
  it('opens with its first request, lasts 30 s, and then gives the whole quota back', () => {
    let t = 1_000_000;
    const meter = new KucoinRateMeter('futures', { ...KUCOIN_POOLS_VIP0, Futures: 10 }, () => t);
    const fills = { method: 'GET', path: '/api/v1/fills' }; // futures: Futures pool, weight 5
    expect(meter.charge(fills, 'ann').headers).toEqual({ 'gw-ratelimit-limit': '10', 'gw-ratelimit-remaining': '5', 'gw-ratelimit-reset': '30000' });
    t += 10_000;
    expect(meter.charge(fills, 'ann').headers['gw-ratelimit-reset']).toBe('20000');
    t += 19_999;
    expect(meter.charge(fills, 'ann').refused).toMatchObject({ status: 429, headers: { 'gw-ratelimit-remaining': '0', 'gw-ratelimit-reset': '1' } });
    t += 1;
    expect(meter.charge(fills, 'ann')).toMatchObject({ refused: null, headers: { 'gw-ratelimit-remaining': '5', 'gw-ratelimit-reset': '30000' } });
    // per minute, for budget shares: a 30 s quota twice
    expect(meter.poolsPerMinute.Futures).toBe(20);
    // the futures account-mode probe has no documented weight: no charge, no counters
    expect(meter.charge({ method: 'GET', path: '/api/v2/position/getPositionMode' }, 'ann')).toEqual({ refused: null, headers: {} });
    // an order id in a path is one route
    t += 1;
    meter.charge({ method: 'GET', path: '/api/v1/orders/5123' }, 'ben');
    expect(meter.byRoute(0, t + 1)).toEqual({ 'Futures: GET /api/v1/fills': 15, 'Futures: GET /api/v1/orders/{id}': 5 });
  });
});
