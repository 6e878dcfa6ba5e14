/**
 * Issue 39: one request budget per venue for the whole install. Two runner processes (support/crash-runner.ts:
 * each its own provider and its own connection to the shared limits file, on its own stores), trading for two
 * accounts on one Binance spot stand-in hosted here (one IP: one weight counter):
 * 1. their calls together stay within the install's share (50 %) of the venue's weight limit in every
 *    window of the venue's counter, though their watchdogs would ask for several times more;
 * 2. the venue's limit drops below what the install spends (as when another program on the address spends,
 *    or the venue lowers its limits): it answers a runner 429 with Retry-After; no runner calls the venue
 *    again before it ends, every bot of both runners records the pause ("paused by the venue's rate limit",
 *    with the time it resumes) and then that it is over, and trades again;
 * 3. another program on the address calls within the 429's Retry-After, so the venue bans the address
 *    (418): the runners meet the ban when their pause ends, pause for its Retry-After, call nothing
 *    meanwhile, and resume.
 * Nothing is lost: every fill the venue made is recorded once.
 * The stand-in's weight window is shortened to 10 s (rate-limits.ts `minuteMs`) and the runners are told
 * so (VENUE_LIMITS): the answers and the rules stay the venue's.
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { BotCommandRunner } from '@gridrocket/bots/nest';
import { botDecider, toBotView, type BotConfig, type BotEvent, type LiveBot } from '@gridrocket/bots';
import { startVenueStandIn, type VenueStandIn } from '@gridrocket/exchanges/testing/standin/venue-standin';
import { until } from '@gridrocket/shared/testing/until';
import { CrashWorld, crashDirs } from './support/crash-harness';
import { startCrashRunner } from './support/crash-runner';
import { kill9 } from './support/server-process';

jest.setTimeout(150_000);

const PATH = ['ms,exchange,symbol,price', '1000,Binance,BTCUSDT,61000', '1000,Binance,ETHUSDT,3100', '2000,Binance,BTCUSDT,59500', '2000,Binance,ETHUSDT,2990', '3000,Binance,BTCUSDT,58500', '3000,Binance,ETHUSDT,2940'].join('\n');
const DORA = { userId: 'dora', apiKey: 'dora-key-0001', secret: 'dora-secret-0001' };
const EVE = { userId: 'eve', apiKey: 'eve-key-0001', secret: 'eve-secret-0001' };
const WINDOW_MS = 10_000;
const LIMIT = 600;
const SHARE = 0.5;

/** A runner process's world: its stores (and, for the first, the venue the stand-in serves). */
type World = CrashWorld<{ id: string; userId: string; exchange: 'Binance'; market: 'spot'; symbol: string }>;

describe('one rate budget per venue, shared by two runner processes (Binance spot stand-in)', () => {
  const dirs = crashDirs('gr-venue-budget-');
  let a: World;
  let b: World;
  let standIn: VenueStandIn;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    a = new CrashWorld(dirs.tmp(), PATH, []);
    b = new CrashWorld(dirs.tmp(), PATH, []);
    a.venue.advanceTo(1000);
    standIn = await startVenueStandIn(a.venue, 'Binance', 'spot', [DORA, EVE], { limits: { weightPerMinute: LIMIT, minuteMs: WINDOW_MS, banMs: 4000 } });
    // watchdogs every 150 ms: each runner alone would ask for several times the share
    const env = (key: typeof DORA) => ({
      STANDIN_ORIGINS: JSON.stringify({ [standIn.id]: standIn.origin }),
      STANDIN_KEYS: JSON.stringify({ [key.userId]: { apiKey: key.apiKey, secret: key.secret } }),
      POLL_MS: '300',
      WATCHDOG_MS: '150',
      VENUE_BUDGET_FILE: join(a.dir, 'limits.sqlite'),
      VENUE_LIMITS: JSON.stringify({ binance: { limit: LIMIT, windowMs: WINDOW_MS } }),
      VENUE_BUDGET_SHARE: String(SHARE),
      BUDGET_SYNC_MS: '100',
    });
    children.push(await startCrashRunner(a.dir, 'http://127.0.0.1:1', env(DORA)));
    children.push(await startCrashRunner(b.dir, 'http://127.0.0.1:1', env(EVE)));
  });
  afterAll(async () => {
    await Promise.all(children.map((c) => kill9(c)));
    await standIn?.close();
    await a?.close();
    await b?.close();
    dirs.cleanup();
  });

  const history = (world: World, id: string) => world.events.readStream(`bot-${id}`);
  const stateOf = async (world: World, id: string) => (await history(world, id)).reduce((s, e) => botDecider.evolve(s, { type: e.type, data: e.data } as BotEvent), botDecider.initialState);
  const typesOf = async (world: World, id: string) => (await history(world, id)).map((e) => e.type);
  const create = async (world: World, key: typeof DORA, config: BotConfig) => {
    const id = randomUUID();
    const cmd = new BotCommandRunner(world.events);
    await cmd.run({ type: 'CreateBot', botId: id, userId: key.userId, botType: 'Spot', config }, { userId: key.userId, correlationId: randomUUID() });
    await cmd.run({ type: 'StartBot', botId: id, userId: key.userId }, { userId: key.userId, correlationId: randomUUID() });
    return id;
  };
  const grid = (symbol: string, entryPrice: number, interval: number, orderSize: number): BotConfig => ({ exchange: 'Binance', symbol, numOfOrders: 3, orderSize, interval, entryPrice, takeProfit: 1, leverage: 1 });
  const meter = () => standIn.rate!;
  /** The venue's windows (its clock: this process's) that lie wholly within [from, to). */
  const windowsIn = (from: number, to: number) => {
    const out: Array<[number, number]> = [];
    for (let w = from - (from % WINDOW_MS) + WINDOW_MS; w + WINDOW_MS <= to; w += WINDOW_MS) out.push([w, w + WINDOW_MS]);
    return out;
  };
  const fillsOf = async (world: World, id: string) => (await history(world, id)).filter((e) => e.type === 'OrderFilled').map((e) => String((e.data as { fillId: string }).fillId));
  let doraBot = '';
  let eveBot = '';

  it('keeps two runners together within the share of the limit in every window', async () => {
    doraBot = await create(a, DORA, grid('BTCUSDT', 60000, 1000, 0.01));
    eveBot = await create(b, EVE, grid('ETHUSDT', 3000, 50, 0.1));
    await until('both bots running with their ladders', async () => (await typesOf(a, doraBot)).includes('BotStarted') && (await typesOf(b, eveBot)).includes('BotStarted'), 30_000);
    const from = Date.now();
    await new Promise((r) => setTimeout(r, 3.2 * WINDOW_MS));
    const windows = windowsIn(from, Date.now());
    expect(windows.length).toBeGreaterThanOrEqual(2);
    const spent = windows.map(([s, e]) => meter().weightBetween(s, e));
    console.log(`venue budget: weight per ${WINDOW_MS / 1000} s window of two runners ${spent.join(', ')} (limit ${LIMIT}, share ${LIMIT * SHARE})`);
    // within the share in every window, and the share was what held them (they asked for more)
    for (const w of spent) expect(w).toBeLessThanOrEqual(LIMIT * SHARE);
    expect(Math.max(...spent)).toBeGreaterThan(LIMIT * SHARE * 0.6);
    expect(meter().refusals).toEqual([]);
  });

  /** Calls from the runners (the test's own calls, as another program on the address, read exchangeInfo). */
  const OUTSIDER = 'GET /api/v3/exchangeInfo';
  /**
   * Calls already on their way when the venue's refusal came may still reach it (each runner has a few in
   * flight): the stand-in, stricter than the venue's "repeatedly … failing to back off", bans for any of them.
   */
  const IN_FLIGHT_MS = 200;
  const runnerCalls = (from: number, to: number) => [...meter().spent, ...meter().refusals].filter((c) => c.at > from && c.at < to && c.route !== OUTSIDER);
  const views = async () => [toBotView((await stateOf(a, doraBot)) as LiveBot), toBotView((await stateOf(b, eveBot)) as LiveBot)];
  const pausesOf = async (world: World, id: string, type: string) => (await history(world, id)).filter((e) => e.type === type).map((e) => e.data as { status?: number; until: number });

  it('pauses every runner on a 429 until its Retry-After, shows it on every bot, and resumes', async () => {
    // the venue's limit drops below what the install spends (as when another program on the address spends,
    // or the venue lowers its limits): a runner's next call is refused with 429 until the window's end
    meter().limits.weightPerMinute = 100;
    await until('a runner met the 429', () => meter().refusals.some((r) => r.status === 429), 10_000);
    const refused = meter().refusals.find((r) => r.status === 429)!;
    await until('both bots show the pause', async () => (await views()).every((v) => v.ratelimiteduntil !== undefined), 5000);
    meter().limits.weightPerMinute = LIMIT;
    const [dora, eve] = await views();
    const resumeAt = eve.ratelimiteduntil!;
    expect(dora.ratelimiteduntil).toBe(resumeAt); // one pause for the install: the other runner's bot shows it too
    expect([429, 418]).toContain(eve.ratelimitstatus); // 418: a call in flight met the 429's window
    expect(resumeAt).toBeGreaterThan(refused.at);
    expect(resumeAt).toBeLessThanOrEqual(refused.at - (refused.at % WINDOW_MS) + WINDOW_MS + 1000); // the window's end (Retry-After in whole seconds)

    // nothing from either runner reaches the venue until the Retry-After has passed, and nothing was banned
    await until('the pause over for both bots', async () => (await pausesOf(a, doraBot, 'VenueRateLimitLifted')).length === 1 && (await pausesOf(b, eveBot, 'VenueRateLimitLifted')).length === 1, 20_000);
    expect(runnerCalls(refused.at + IN_FLIGHT_MS, resumeAt)).toEqual([]);
    expect(meter().refusals.filter((r) => r.status === 418 && r.at > refused.at + IN_FLIGHT_MS)).toEqual([]);
    expect((await views()).map((v) => v.ratelimiteduntil)).toEqual([undefined, undefined]);
    // they trade again: the price falls through a rung of each ladder, and both fills are recorded
    a.venue.advanceTo(2000);
    await until('both fills recorded after the pause', async () => (await fillsOf(a, doraBot)).length >= 1 && (await fillsOf(b, eveBot)).length >= 1, 20_000);
  });

  it('pauses every runner on a 418 ban until its Retry-After and resumes; nothing is lost', async () => {
    const before = meter().refusals.length;
    meter().limits.weightPerMinute = 100;
    await until('a runner met the 429', () => meter().refusals.slice(before).some((r) => r.status === 429), 10_000);
    await until('both bots paused', async () => (await views()).every((v) => v.ratelimiteduntil !== undefined), 5000);
    const windowEnd = (await views())[0].ratelimiteduntil!;
    // another program on the address does not back off: a call within the 429's Retry-After, near its end,
    // gets the address banned (418) past the end of the runners' pause
    await new Promise((r) => setTimeout(r, Math.max(0, windowEnd - 1500 - Date.now())));
    expect((await fetch(`${standIn.origin}/api/v3/exchangeInfo`)).status).toBe(418);
    meter().limits.weightPerMinute = LIMIT;
    // the runners meet the ban when their pause ends (both at once: each has its call refused), and every bot
    // records it with the ban's end (each 418 answer's Retry-After, to the second), what its page shows while
    // the ban lasts. Read from each bot's history, not from its page at one moment: the ban lasts 4 s, and on a
    // loaded machine a poll of both pages can fall after one of them has resumed (a CI run timed out so).
    const bans = async (world: World, id: string) => (await pausesOf(world, id, 'VenueRateLimited')).filter((p) => p.status === 418 && p.until > windowEnd);
    const ends = await until('the ban recorded on both bots', async () => {
      const [d, e] = [await bans(a, doraBot), await bans(b, eveBot)];
      return d.length > 0 && e.length > 0 ? [d[0].until, e[0].until] : undefined;
    }, 30_000);
    const met = meter().refusals.slice(before).filter((r) => r.status === 418 && r.route !== OUTSIDER && r.at > windowEnd - 1000);
    const firstMet = Math.min(...met.map((r) => r.at));
    expect(Math.max(...ends) - Math.min(...ends)).toBeLessThan(1000);
    expect(Math.min(...ends)).toBeGreaterThan(windowEnd);
    // nothing else from the runners until the ban ended; then they resume by themselves
    const lifted = async (world: World, id: string) => (await pausesOf(world, id, 'VenueRateLimitLifted')).some((p) => p.until > windowEnd);
    await until('the ban over for both bots', async () => (await lifted(a, doraBot)) && (await lifted(b, eveBot)), 20_000);
    expect(runnerCalls(firstMet + IN_FLIGHT_MS, Math.min(...ends))).toEqual([]);
    const statuses = (await pausesOf(b, eveBot, 'VenueRateLimited')).map((p) => p.status);
    expect(statuses[0]).toBe(429);
    expect(statuses[statuses.length - 1]).toBe(418);
    expect((await views()).map((v) => v.ratelimiteduntil)).toEqual([undefined, undefined]);
    // every fill the venue made is recorded once, on both accounts, and trading goes on
    a.venue.advanceTo(3000);
    for (const [world, id, key, symbol] of [[a, doraBot, DORA, 'BTCUSDT'], [b, eveBot, EVE, 'ETHUSDT']] as const) {
      const venueTrades = () => a.venue.fills(a.venue.account(key.userId, 'Binance', 'spot'), symbol, 0).map((f) => String(f.id));
      await until(`${symbol} fills recorded`, async () => (await fillsOf(world, id)).length === venueTrades().length, 20_000);
      const recorded = await fillsOf(world, id);
      expect(new Set(recorded).size).toBe(recorded.length);
      expect([...recorded].sort()).toEqual([...venueTrades()].sort());
    }
  });
});
