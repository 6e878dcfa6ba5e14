/**
 * Issue 39: idle bots cost the venue almost nothing. Two idle bots, and fifty idle bots on one account,
 * run against each venue's stand-in (its weight counted per the venue's documented weights:
 * rate-limits.ts for Binance, kucoin.rate-limits.ts for KuCoin) with the product's defaults: fills and
 * prices pushed by the venue's streams, the watchdog reconciling every 60 s. Measured from the stand-in's
 * own counters over two minutes of steady state (after each bot's first watchdog check), each fleet uses
 * at most 2 % of each of the venue's limits:
 * - Binance spot: REQUEST_WEIGHT 6,000 a minute per IP → 120 a minute;
 * - Binance USDⓈ-M: REQUEST_WEIGHT 2,400 a minute per IP → 48 a minute;
 * - KuCoin spot and futures, VIP 0: each resource pool (Spot 4,000 per 30 s → 160 a minute; Futures,
 *   Management and Public 2,000 per 30 s → 80 a minute).
 * The eight fleets run at once, each on its own stand-in (its own IP), so that the file takes the two
 * minutes once. The fifty run on fifty symbols, one each: the catalogue's 24 USDT pairs and 26 of the pairs
 * only the venues list (paper.constants.ts STANDIN_SYMBOLS); the reads that grow with the symbols (open
 * orders) are one all-symbols read where the venue has one (Binance, KuCoin futures), one a symbol on KuCoin
 * spot.
 */
import { CcxtExchangeProvider } from '@gridrocket/exchanges';
import { startVenueStandIn, type VenueStandIn } from '@gridrocket/exchanges/testing/standin/venue-standin';
import type { ExchangeName, MarketType } from '@gridrocket/exchanges';
import type { BotConfig } from '@gridrocket/bots';
import { until } from '@gridrocket/shared/testing/until';
import { CsvReplayFeed, PaperVenue, STANDIN_SYMBOLS } from '@gridrocket/exchanges';
import { join } from 'node:path';
import { RunnerWorld } from './support/runner-world';
import { STAND_IN_VENUES } from './support/crash-harness';

const WATCHDOG_MS = 60_000;
const MEASURE_MS = 120_000;
/** The share of each limit idle fleets may use (issue 39). */
const SHARE = 0.02;

jest.setTimeout(10 * 60_000);

const T = Date.now();
const SYMBOLS = STANDIN_SYMBOLS.filter((s) => s.symbol.endsWith('USDT')).map((s) => s.symbol).slice(0, 50);
const CSV = ['ms,exchange,symbol,price', ...STANDIN_SYMBOLS.flatMap((s) => ['Binance', 'Kucoin'].map((e) => `${T - 5000},${e},${s.symbol},${s.startPrice}`))].join('\n');

const onStep = (x: number, step: number, up = false) => {
  const n = up ? Math.ceil(x / step - 1e-9) : Math.round(x / step);
  return Number((n * step).toFixed(10));
};

/** An idle ladder on `symbol`: two buys well below the market, valid on this venue's market. */
function idleConfig(world: RunnerWorld, exchange: ExchangeName, market: MarketType, symbol: string): BotConfig {
  const spec = world.venue.symbols(exchange, market).find((s) => s.symbol === symbol)!;
  const price = Number(STANDIN_SYMBOLS.find((s) => s.symbol === symbol)!.startPrice);
  const priceStep = Number(spec.priceStep);
  const amountStep = Number(spec.amountStep);
  const entryPrice = onStep(price * 0.8, priceStep);
  const interval = Math.max(priceStep, onStep(entryPrice * 0.05, priceStep));
  const minAmount = Number(spec.minAmount ?? spec.amountStep);
  const orderSize = Math.max(minAmount, onStep((Number(spec.minNotional) * 3) / (entryPrice - 2 * interval), amountStep, true));
  return { exchange, symbol, numOfOrders: 2, orderSize, interval, entryPrice, takeProfit: 1, leverage: market === 'futures' ? 2 : 1 };
}

interface Measure {
  venue: string;
  bots: number;
  /** Weight a minute in each of the venue's pools, and its budget (2 % of the pool's limit a minute). */
  pools: Array<{ pool: string; perMinute: number; budget: number }>;
  byRoute: Record<string, number>;
  refusals: number;
  streamDowns: number;
  /** The symbols the fleet's bots run on, each with its own market stream at the stand-in. */
  symbols: number;
}

/** `n` idle bots on one account of `exchange`'s `market`; the weight of two minutes of steady state. */
async function idleFleet(exchange: ExchangeName, market: MarketType, n: number, close: Array<() => Promise<void>>): Promise<Measure> {
  // the venue lists every pair of the stand-ins, the paper catalogue's and those only venues list
  const world = new RunnerWorld((dir) => {
    const venue = new PaperVenue({ store: join(dir, 'paper.sqlite'), feed: new CsvReplayFeed(CSV, STANDIN_SYMBOLS), symbols: STANDIN_SYMBOLS });
    venue.advanceTo(T - 5000);
    return venue;
  });
  const tag = `${exchange}-${market}-${n}`;
  const key = { userId: `u-${tag}`, apiKey: `key-${tag}-0001`, secret: `secret-${tag}-0001`, passphrase: `pass-${tag}` };
  const standIn: VenueStandIn = await startVenueStandIn(world.venue, exchange, market, [key]);
  const exchanges = new CcxtExchangeProvider({
    mode: 'live',
    apiOrigin: () => standIn.origin,
    resolveCredential: async (userId) => (userId === key.userId ? { apiKey: key.apiKey, secret: key.secret, passphrase: key.passphrase } : null),
    retry: { attempts: 3, baseDelayMs: 10, maxDelayMs: 50 },
    timeoutMs: 10_000,
    enableRateLimit: false,
  });
  close.push(async () => {
    await world.close();
    await exchanges.close();
    await standIn.close();
  });
  // the product's defaults: fills polled every 2 s only while a stream is down, the watchdog every 60 s
  const runner = await world.runner({ exchanges, pollMs: 2000, watchdogMs: WATCHDOG_MS });
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(await world.create(key.userId, market === 'spot' ? 'Spot' : 'Futures', idleConfig(world, exchange, market, SYMBOLS[i % SYMBOLS.length])));
  for (const id of ids) await world.run({ type: 'StartBot', botId: id, userId: key.userId }, key.userId);
  await until(`${tag}: ${n} bots running`, async () => (await Promise.all(ids.map((id) => world.types(id)))).every((t) => t.includes('BotStarted')), 180_000, 250);
  const symbols = new Set(ids.map((_, i) => SYMBOLS[i % SYMBOLS.length])).size;
  await until(`${tag}: the account stream and every symbol's ticker stream`, () => standIn.subscriptions().user === 1 && standIn.subscriptions().market === symbols, 60_000);
  // each bot's first pushed price: until it comes its watchdog reads the price once over REST (watchdog-steps.ts),
  // which a loaded machine's late first push put inside the measured minutes (a CI run). Waited for, up to 60 s,
  // not required: a stand-in that pushes no ticker for a quiet symbol (KuCoin's) leaves those bots to that read.
  await until(`${tag}: every bot's first price from its stream`, () => ids.every((id) => runner.task(id)?.lastPrice != null), 60_000).catch(() => undefined);
  // every bot's first watchdog check (it reads the trade history once) is behind us
  await new Promise((r) => setTimeout(r, WATCHDOG_MS + 5000));
  const from = Date.now();
  await new Promise((r) => setTimeout(r, MEASURE_MS));
  const to = Date.now();
  const meter = standIn.meter;
  const pools = Object.entries(meter.poolsPerMinute).map(([pool, limit]) => ({ pool, perMinute: (meter.weightBetween(from, to, pool) * 60_000) / (to - from), budget: limit * SHARE }));
  let streamDowns = 0;
  for (const id of ids) streamDowns += (await world.types(id)).filter((t) => t === 'VenueStreamDown').length;
  return { venue: `${exchange} ${market}`, bots: n, pools, byRoute: meter.byRoute(from, to), refusals: meter.refusals.length, streamDowns, symbols: standIn.subscriptions().market };
}

const VENUES = STAND_IN_VENUES;

describe('idle bots on each venue\'s stand-in: weight a minute', () => {
  const close: Array<() => Promise<void>> = [];
  const measured = new Map<string, Measure>();
  beforeAll(async () => {
    // every fleet at once: the two minutes are spent once for the whole file
    const all = await Promise.all(VENUES.flatMap(({ exchange, market }) => [2, 50].map((n) => idleFleet(exchange, market, n, close))));
    for (const m of all) {
      measured.set(`${m.venue} ${m.bots}`, m);
      // the figures BENCHMARKS.md quotes, pool by pool and route by route
      console.info(`venue weight: ${m.venue}, ${m.bots} idle bots: ${m.pools.map((p) => `${p.pool} ${p.perMinute.toFixed(1)}/min (budget ${p.budget})`).join(', ')}; ${JSON.stringify(m.byRoute)} (2 min)`);
    }
  });
  afterAll(async () => {
    for (const c of close) await c();
  });

  it.each(VENUES)('$exchange $market: two idle bots and fifty idle bots each use at most 2 % of every limit', ({ exchange, market }) => {
    for (const n of [2, 50]) {
      const m = measured.get(`${exchange} ${market} ${n}`)!;
      // one symbol a bot: fifty market streams for the fifty
      expect(m.symbols).toBe(n);
      expect(m.refusals).toBe(0);
      // nothing fell back to polling meanwhile
      expect(m.streamDowns).toBe(0);
      // (on failure the message shows where the weight went, route by route)
      for (const p of m.pools) expect(p.perMinute <= p.budget ? 'within' : { ...p, bots: n, byRoute: m.byRoute }).toBe('within');
    }
  });

  it('Binance spot: what remains is the reconciliation, one read of the account\'s open orders and one of its balances a minute', () => {
    expect(Object.keys(measured.get('Binance spot 50')!.byRoute).sort()).toEqual(['GET /api/v3/account', 'GET /api/v3/openOrders']);
  });
});
