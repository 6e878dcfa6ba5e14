/**
 * Venue benchmark (issue 39), on the Binance spot stand-in (libs/exchanges/src/testing/standin: the
 * venue's REST and stream dialects, its weights counted as Binance documents them, rate-limits.ts), with
 * the product's defaults (fills and prices by stream, the fallback polling every 2 s, the watchdog every 60 s):
 *  - weight a minute of idle fleets of 2, 50 and 200 bots on one account (the catalogue's 24 USDT symbols),
 *    from the stand-in's own counters, and as a share of the IP's 6,000 a minute; beside it, the figure of
 *    before issue 39 (two idle bots polling: 2,691 a minute, 45 %). Each fleet is measured over ONE
 *    watchdog period (BENCH_VENUE_MEASURE_S, default 60 s) after one period of warm-up: idle bots spend
 *    weight only on the watchdog's reconciliation, which comes once a period, so one period is a minute's
 *    weight (test/venue-weight.spec.ts measures two minutes and asserts 2 %). The three fleets run at once,
 *    each on its own stand-in (its own IP).
 *  - the fill latency: from the stand-in's fill (the venue's price crossing the bot's order) to
 *    `OrderFilled` in the bot's history (read every 5 ms: an upper bound by up to 5 ms), p50 and p99 over
 *    BENCH_VENUE_FILLS fills (default 200; the price steps every BENCH_VENUE_STEP_MS, default 500 ms, so that
 *    the bot's reactions stay within the runner's per-user call budget), over the stream; the same with the stream cut and refused
 *    (BENCH_VENUE_CUT_FILLS, default 20), where the fallback's polling finds them (goal: within its period);
 *    the same fills back to back (BENCH_VENUE_BURST_FILLS, default 20), where the runner's per-user call budget
 *    paces the bot's reactions; and the floor of the same run: the same fills on the paper venue in-process (no network, no venue),
 *    with the stream's p99 as a multiple of the floor's.
 *
 * Run alone: `npm run build:server && node -e "require('./dist/bench/venue.bench').venueBench().then(console.table)"`
 */
import { performance } from 'node:perf_hooks';
import { CcxtExchangeProvider, PAPER_SYMBOLS, type ExchangeProvider } from '@gridrocket/exchanges';
import { startVenueStandIn, type VenueStandIn } from '@gridrocket/exchanges/testing/standin/venue-standin';
import type { BotConfig } from '@gridrocket/bots';
import { RunnerWorld } from '../test/support/runner-world';
import { Figure, percentile, round } from './stats';

const WATCHDOG_MS = 60_000;
/** The live runner's fallback polling period (grid-runner.service.ts: 2 s when not paper). */
const POLL_MS = 2000;
/** Before issue 39 (BENCHMARKS.md, issue 39's report): two idle bots polling on Binance spot. */
const BEFORE_TWO_BOTS = 2691;
const SPOT_LIMIT = 6000;

const SYMBOLS = PAPER_SYMBOLS.filter((s) => s.symbol.endsWith('USDT')).map((s) => s.symbol);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(what: string, probe: () => Promise<boolean> | boolean, timeoutMs: number, everyMs = 25): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error(`venue bench: timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

const onStep = (x: number, step: number, up = false) => Number(((up ? Math.ceil(x / step - 1e-9) : Math.round(x / step)) * step).toFixed(10));

function idleConfig(world: RunnerWorld, symbol: string): BotConfig {
  const spec = world.venue.symbols('Binance', 'spot').find((s) => s.symbol === symbol)!;
  const price = Number(PAPER_SYMBOLS.find((s) => s.symbol === symbol)!.startPrice);
  const priceStep = Number(spec.priceStep);
  const entryPrice = onStep(price * 0.8, priceStep);
  const interval = Math.max(priceStep, onStep(entryPrice * 0.05, priceStep));
  const orderSize = Math.max(Number(spec.minAmount ?? spec.amountStep), onStep((Number(spec.minNotional) * 3) / (entryPrice - 2 * interval), Number(spec.amountStep), true));
  return { exchange: 'Binance', symbol, numOfOrders: 2, orderSize, interval, entryPrice, takeProfit: 1, leverage: 1 };
}

interface Live {
  world: RunnerWorld;
  standIn: VenueStandIn;
  exchanges: CcxtExchangeProvider;
  key: { userId: string; apiKey: string; secret: string };
  close(): Promise<void>;
}

async function live(csv: string, start: number, tag: string, runner: { watchdogMs: number }): Promise<Live> {
  const world = new RunnerWorld(csv, start);
  const key = { userId: `u-${tag}`, apiKey: `key-${tag}-0001`, secret: `secret-${tag}-0001` };
  const standIn = await startVenueStandIn(world.venue, 'Binance', 'spot', [key]);
  const exchanges = new CcxtExchangeProvider({
    mode: 'live',
    apiOrigin: () => standIn.origin,
    resolveCredential: async (userId) => (userId === key.userId ? { apiKey: key.apiKey, secret: key.secret } : null),
    retry: { attempts: 3, baseDelayMs: 10, maxDelayMs: 50 },
    timeoutMs: 10_000,
    enableRateLimit: false,
  });
  await world.runner({ exchanges, pollMs: POLL_MS, watchdogMs: runner.watchdogMs });
  return {
    world, standIn, exchanges, key,
    async close() {
      await world.close();
      await exchanges.close();
      await standIn.close();
    },
  };
}

/** Weight a minute of `n` idle bots, over one watchdog period after one of warm-up. */
async function idleWeight(n: number, measureMs: number): Promise<{ perMinute: number; byRoute: Record<string, number> }> {
  const T = Date.now();
  const csv = ['ms,exchange,symbol,price', ...PAPER_SYMBOLS.map((s) => `${T - 5000},Binance,${s.symbol},${s.startPrice}`)].join('\n');
  const l = await live(csv, T - 5000, `idle${n}`, { watchdogMs: WATCHDOG_MS });
  try {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) ids.push(await l.world.create(l.key.userId, 'Spot', idleConfig(l.world, SYMBOLS[i % SYMBOLS.length])));
    for (const id of ids) await l.world.run({ type: 'StartBot', botId: id, userId: l.key.userId }, l.key.userId);
    await waitFor(`${n} bots running`, async () => (await Promise.all(ids.map((id) => l.world.types(id)))).every((t) => t.includes('BotStarted')), 300_000, 250);
    const symbols = new Set(ids.map((_, i) => SYMBOLS[i % SYMBOLS.length])).size;
    await waitFor('streams subscribed', () => l.standIn.subscriptions().user === 1 && l.standIn.subscriptions().market === symbols, 60_000);
    await sleep(WATCHDOG_MS + 5000);
    const from = Date.now();
    await sleep(measureMs);
    const to = Date.now();
    const meter = l.standIn.meter;
    if (meter.refusals.length) throw new Error(`venue bench: ${n} idle bots were refused by the venue`);
    return { perMinute: (meter.weightBetween(from, to) * 60_000) / (to - from), byRoute: meter.byRoute(from, to) };
  } finally {
    await l.close();
  }
}

/**
 * Fill latencies of one bot: the price steps across its top buy and back across its take-profit, one
 * fill a step; each buy's from the venue's fill to `OrderFilled` in the history (`fills` of them). `floor`:
 * the paper venue in-process; `cut`: the stand-in's streams cut and refused (the fallback polls).
 */
async function fillLatencies(fills: number, stepMs: number, options: { cut?: boolean; floor?: boolean }): Promise<number[]> {
  const T = Date.now();
  // 61,000, then alternately 59,900 (the 60,000 buy fills: OrderFilled, timed) and 60,700 (its 60,600
  // take-profit fills: TakeProfitFilled, and the buy is placed again)
  const steps = 2 * fills;
  const rows = [`${T - 5000},Binance,BTCUSDT,61000`];
  for (let i = 1; i <= steps; i++) rows.push(`${T + i * 1000},Binance,BTCUSDT,${i % 2 ? 59900 : 60700}`);
  const csv = ['ms,exchange,symbol,price', ...rows].join('\n');
  const config: BotConfig = { exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 2, orderSize: 0.01, interval: 1000, entryPrice: 60000, takeProfit: 1, leverage: 1 };
  let world: RunnerWorld;
  let l: Live | undefined;
  let userId = 'floor';
  if (options.floor) {
    world = new RunnerWorld(csv, T - 5000);
    await world.runner({ pollMs: POLL_MS, watchdogMs: 0 });
  } else {
    // the watchdog is off: what finds a fill is the stream, or the fallback's polling
    l = await live(csv, T - 5000, options.cut ? 'cut' : 'stream', { watchdogMs: 0 });
    world = l.world;
    userId = l.key.userId;
  }
  try {
    const id = await world.create(userId, 'Spot', config);
    await world.run({ type: 'StartBot', botId: id, userId }, userId);
    const port = await ((l?.exchanges ?? world.paper) as ExchangeProvider).for({ userId, exchange: 'Binance', market: 'spot' });
    await waitFor('the ladder', async () => (await world.types(id)).includes('BotStarted') && (await port.openOrders('BTCUSDT')).length === 2, 30_000);
    if (l) await waitFor('the account stream', () => l!.standIn.subscriptions().user === 1, 30_000);
    if (l && options.cut) {
      l.standIn.streams.refuse();
      l.standIn.streams.cut();
      await waitFor('the fallback', async () => (await world.types(id)).includes('VenueStreamDown'), 30_000);
    }
    const count = async (type: string) => (await world.history(id)).filter((e) => e.type === type).length;
    const out: number[] = [];
    let next = performance.now();
    for (let i = 1; i <= steps; i++) {
      // one step every stepMs: a reaction costs the user 4 venue calls on Binance spot (cancel, its
      // confirmation, a lookup, the place), within the runner's per-user call budget of 10 at once and 8 a
      // second (exchange-calls.ts): back to back, the steps would measure that budget, not the stream
      await sleep(Math.max(0, next - performance.now()));
      next = performance.now() + stepMs;
      const [type, answer] = i % 2 ? ['OrderFilled', 'TakeProfitPlaced'] : ['TakeProfitFilled', 'OrderPlaced'];
      const before = await count(type);
      const answered = await count(answer);
      const t0 = performance.now();
      world.venue.advanceTo(T + i * 1000);
      await waitFor(`fill ${i}`, async () => (await count(type)) > before, 30_000, 5);
      if (type === 'OrderFilled') out.push(performance.now() - t0);
      // the bot's answer (its take-profit, or the buy again) is placed before the next step; read from the
      // history, not the venue (a read of the venue every 5 ms would spend its weight budget)
      await waitFor(`the answer to fill ${i}`, async () => (await count(answer)) > answered, 30_000, 5);
    }
    return out;
  } finally {
    if (l) await l.close();
    else await world.close();
  }
}

export async function venueBench(): Promise<Figure[]> {
  const measureMs = Number(process.env.BENCH_VENUE_MEASURE_S ?? 60) * 1000;
  const fills = Number(process.env.BENCH_VENUE_FILLS ?? 200);
  const cutFills = Number(process.env.BENCH_VENUE_CUT_FILLS ?? 20);
  const sizes = (process.env.BENCH_VENUE_BOTS ?? '2,50,200').split(',').map(Number);
  const figures: Figure[] = [];

  // latencies first, alone on the machine; then the idle fleets (they wait most of the time)
  const stepMs = Number(process.env.BENCH_VENUE_STEP_MS ?? 500);
  const floor = await fillLatencies(fills, stepMs, { floor: true });
  const stream = await fillLatencies(fills, stepMs, {});
  const cut = await fillLatencies(cutFills, stepMs, { cut: true });
  // the same fills back to back: what the runner's per-user call budget (8 calls a second) makes of them
  const burstFills = Number(process.env.BENCH_VENUE_BURST_FILLS ?? 20);
  const burst = await fillLatencies(burstFills, 0, {});
  const p = (xs: number[], q: number) => round(percentile(xs, q), 1);
  figures.push(
    { name: `fill → OrderFilled over the stream, p50 (${fills} fills, a price step every ${stepMs} ms)`, value: p(stream, 50), unit: 'ms' },
    { name: `fill → OrderFilled over the stream, p99 (${fills} fills)`, value: p(stream, 99), unit: 'ms', aim: '≤ 250 ms' },
    { name: `fill → OrderFilled, stream cut (fallback polls every ${POLL_MS / 1000} s), p50 (${cutFills} fills)`, value: p(cut, 50), unit: 'ms' },
    { name: `fill → OrderFilled, stream cut, max (${cutFills} fills)`, value: round(Math.max(...cut), 1), unit: 'ms', aim: `≤ ${POLL_MS} ms + one reaction` },
    { name: `fill → OrderFilled over the stream, fills back to back (no pause; the per-user call budget paces them), p50 (${burstFills} fills)`, value: p(burst, 50), unit: 'ms' },
    { name: `FLOOR: fill → OrderFilled on the paper venue in-process, p99 (${fills} fills)`, value: p(floor, 99), unit: 'ms' },
    { name: 'stream p99 over the floor\'s p99 (same run)', value: round(percentile(stream, 99) / Math.max(0.1, percentile(floor, 99)), 1), unit: '×' },
  );

  const weights = await Promise.all(sizes.map((n) => idleWeight(n, measureMs)));
  for (const [i, n] of sizes.entries()) {
    const w = weights[i];
    console.log(`  venue weight, ${n} idle bots: ${JSON.stringify(w.byRoute)}`);
    figures.push({ name: `Binance spot weight a minute, ${n} idle bots on one account (${Math.min(n, SYMBOLS.length)} symbols)`, value: round(w.perMinute, 1), unit: '/min', aim: '≤ 120 (2 %)' });
    figures.push({ name: `  the same as a share of the IP's 6,000 a minute`, value: round((100 * w.perMinute) / SPOT_LIMIT, 2), unit: '%' });
  }
  figures.push({ name: 'BEFORE issue 39: 2 idle bots polling, weight a minute (45 % of 6,000)', value: BEFORE_TWO_BOTS, unit: '/min' });
  const two = sizes.indexOf(2);
  if (two >= 0) figures.push({ name: '2 idle bots: before ÷ now', value: round(BEFORE_TWO_BOTS / Math.max(0.1, weights[two].perMinute), 0), unit: '×' });
  return figures;
}
