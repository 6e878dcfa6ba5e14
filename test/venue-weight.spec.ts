/**
 * Issue 39: idle bots cost the venue almost nothing. Two idle bots, and fifty idle bots on one
 * account, run against the Binance spot stand-in (its weight counted per the venue's documented
 * weights, rate-limits.ts) with the product's defaults: fills and prices pushed by the venue's streams,
 * the watchdog reconciling every 60 s. Measured from the stand-in's own counters over two minutes of
 * steady state (after each bot's first watchdog check), each fleet uses at most 2 % of the IP's
 * weight budget (6,000 a minute): 120 a minute. The two fleets run at once, each on its own stand-in
 * (its own IP). The fifty share the catalogue's 25 symbols, two bots a symbol: the reads that grow with
 * the symbols (open orders) are one all-symbols read at this size, whatever their number.
 */
import { CcxtExchangeProvider } from '@gridrocket/exchanges';
import { startVenueStandIn, type VenueStandIn } from '@gridrocket/exchanges/testing/standin/venue-standin';
import type { BotConfig } from '@gridrocket/bots';
import { until } from '@gridrocket/shared/testing/until';
import { PAPER_SYMBOLS } from '@gridrocket/exchanges';
import { RunnerWorld } from './support/runner-world';

const WATCHDOG_MS = 60_000;
const MEASURE_MS = 120_000;
/** 2 % of Binance spot's REQUEST_WEIGHT limit of 6,000 a minute. */
const BUDGET_PER_MINUTE = 120;

jest.setTimeout(8 * 60_000);

const T = Date.now();
const SYMBOLS = PAPER_SYMBOLS.filter((s) => s.symbol.endsWith('USDT')).map((s) => s.symbol);
const CSV = ['ms,exchange,symbol,price', ...PAPER_SYMBOLS.map((s) => `${T - 5000},Binance,${s.symbol},${s.startPrice}`)].join('\n');

const onStep = (x: number, step: number, up = false) => {
  const n = up ? Math.ceil(x / step - 1e-9) : Math.round(x / step);
  return Number((n * step).toFixed(10));
};

/** An idle ladder on `symbol`: two buys well below the market. */
function idleConfig(world: RunnerWorld, symbol: string): BotConfig {
  const spec = world.venue.symbols('Binance', 'spot').find((s) => s.symbol === symbol)!;
  const price = Number(PAPER_SYMBOLS.find((s) => s.symbol === symbol)!.startPrice);
  const priceStep = Number(spec.priceStep);
  const amountStep = Number(spec.amountStep);
  const entryPrice = onStep(price * 0.8, priceStep);
  const interval = Math.max(priceStep, onStep(entryPrice * 0.05, priceStep));
  const minAmount = Number(spec.minAmount ?? spec.amountStep);
  const orderSize = Math.max(minAmount, onStep((Number(spec.minNotional) * 3) / (entryPrice - 2 * interval), amountStep, true));
  return { exchange: 'Binance', symbol, numOfOrders: 2, orderSize, interval, entryPrice, takeProfit: 1, leverage: 1 };
}

interface Measure {
  bots: number;
  perMinute: number;
  byRoute: Record<string, number>;
}

/** `n` idle bots on one account; the weight of two minutes of steady state. */
async function idleFleet(n: number, close: Array<() => Promise<void>>): Promise<Measure> {
  const world = new RunnerWorld(CSV, T - 5000);
  const key = { userId: `u${n}`, apiKey: `key-${n}-0001`, secret: `secret-${n}-0001` };
  const standIn: VenueStandIn = await startVenueStandIn(world.venue, 'Binance', 'spot', [key]);
  const exchanges = new CcxtExchangeProvider({
    mode: 'live',
    apiOrigin: () => standIn.origin,
    resolveCredential: async (userId) => (userId === key.userId ? { apiKey: key.apiKey, secret: key.secret } : null),
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
  await world.runner({ exchanges, pollMs: 2000, watchdogMs: WATCHDOG_MS });
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(await world.create(key.userId, 'Spot', idleConfig(world, SYMBOLS[i % SYMBOLS.length])));
  for (const id of ids) await world.run({ type: 'StartBot', botId: id, userId: key.userId }, key.userId);
  await until(`${n} bots running`, async () => (await Promise.all(ids.map((id) => world.types(id)))).every((t) => t.includes('BotStarted')), 120_000, 200);
  const symbols = new Set(ids.map((_, i) => SYMBOLS[i % SYMBOLS.length])).size;
  await until('the account stream and every symbol\'s ticker stream', () => standIn.subscriptions().user === 1 && standIn.subscriptions().market === symbols, 30_000);
  // every bot's first watchdog check (it reads the trade history once) is behind us
  await new Promise((r) => setTimeout(r, WATCHDOG_MS + 5000));
  const from = Date.now();
  await new Promise((r) => setTimeout(r, MEASURE_MS));
  const to = Date.now();
  const rate = standIn.rate!;
  expect(rate.refusals).toEqual([]);
  // nothing fell back to polling meanwhile
  for (const id of ids) expect(await world.types(id)).not.toContain('VenueStreamDown');
  return { bots: n, perMinute: (rate.weightBetween(from, to) * 60_000) / (to - from), byRoute: rate.byRoute(from, to) };
}

describe('idle bots on the Binance spot stand-in: weight a minute', () => {
  const close: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const c of close) await c();
  });

  it(`two idle bots and fifty idle bots each use at most ${BUDGET_PER_MINUTE} weight a minute (2 % of 6,000)`, async () => {
    const [two, fifty] = await Promise.all([idleFleet(2, close), idleFleet(50, close)]);
    // the figures BENCHMARKS.md quotes, route by route
    for (const m of [two, fifty]) console.info(`venue weight: ${m.bots} idle bots, ${m.perMinute.toFixed(1)} a minute: ${JSON.stringify(m.byRoute)} (2 min)`);
    // (on failure the message shows where the weight went, route by route)
    for (const m of [two, fifty]) expect(m.perMinute <= BUDGET_PER_MINUTE ? 'within' : m).toBe('within');
    // the reconciliation is what remains: one read of the account's open orders and one of its balances a minute
    expect(Object.keys(fifty.byRoute).sort()).toEqual(['GET /api/v3/account', 'GET /api/v3/openOrders']);
  });
});
