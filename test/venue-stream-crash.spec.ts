/**
 * Issue 39: a runner killed (kill -9) while its account's venue stream is down loses and doubles nothing.
 * The runner is its own OS process (support/crash-runner.ts) on the ccxt adapter, against each venue market's
 * stand-in. A fill comes by the stream; the stream is cut and refused, the bot records the fallback (the
 * bot page shows it); the price falls through a rung and the runner is killed at once, before its polling
 * can see the fill; a new runner process takes the bot over while the stream is still refused and finds the
 * fill by its recovery, then another by polling; it is killed again, the stream comes back, and the runner
 * that takes over records it back (its own stream was never down) and hears the next fill by it. Every fill is recorded exactly once, each with its take-profit, and they are exactly the
 * venue's.
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { BotCommandRunner } from '@gridrocket/bots/nest';
import { botDecider, toBotView, type BotConfig, type BotEvent, type LiveBot } from '@gridrocket/bots';
import { startVenueStandIn, type VenueStandIn } from '@gridrocket/exchanges/testing/standin/venue-standin';
import { until } from '@gridrocket/shared/testing/until';
import { CRASH_KEYS, CrashWorld, STAND_IN_VENUES, crashDirs, type CrashBot } from './support/crash-harness';
import { startCrashRunner } from './support/crash-runner';
import { kill9 } from './support/server-process';

jest.setTimeout(180_000);

const PATH = ['ms,exchange,symbol,price', ...['Binance', 'Kucoin'].flatMap((e) => [`1000,${e},BTCUSDT,61000`, `2000,${e},BTCUSDT,59500`, `3000,${e},BTCUSDT,58500`, `4000,${e},BTCUSDT,57500`, `5000,${e},BTCUSDT,56500`])].join('\n');
const KEY = CRASH_KEYS[0];

const VENUES = STAND_IN_VENUES;

describe.each(VENUES)('a runner killed while its venue stream is down ($exchange $market)', ({ exchange, market }) => {
  const dirs = crashDirs('gr-stream-crash-');
  const bot: CrashBot = { id: randomUUID(), userId: KEY.userId, exchange, market, symbol: 'BTCUSDT' };
  const config: BotConfig = { exchange, symbol: 'BTCUSDT', numOfOrders: 5, orderSize: 0.01, interval: 1000, entryPrice: 60000, takeProfit: 1, leverage: market === 'futures' ? 2 : 1 };
  let world: CrashWorld<CrashBot>;
  let standIn: VenueStandIn;
  let child: ChildProcess | null = null;
  let env: Record<string, string> = {};
  beforeAll(async () => {
    world = new CrashWorld(dirs.tmp(), PATH, [bot]);
    world.venue.advanceTo(1000);
    standIn = await startVenueStandIn(world.venue, exchange, market, CRASH_KEYS);
    env = {
      STANDIN_ORIGINS: JSON.stringify({ [standIn.id]: standIn.origin }),
      STANDIN_KEYS: JSON.stringify(Object.fromEntries(CRASH_KEYS.map((k) => [k.userId, { apiKey: k.apiKey, secret: k.secret, passphrase: k.passphrase }]))),
      POLL_MS: '300',
    };
    child = await startCrashRunner(world.dir, 'http://127.0.0.1:1', env);
  });
  afterAll(async () => {
    if (child) await kill9(child);
    await standIn?.close();
    await world?.close();
    dirs.cleanup();
  });

  const view = async () => toBotView((await world.stream(bot)).reduce((s, e) => botDecider.evolve(s, { type: e.type, data: e.data } as BotEvent), botDecider.initialState) as LiveBot);
  const fills = async () => (await world.stream(bot)).filter((e) => e.type === 'OrderFilled').map((e) => String((e.data as { fillId: string }).fillId));
  const venueFills = () => world.venue.fills(world.venue.account(KEY.userId, exchange, market), 'BTCUSDT', 0).map((f) => String(f.id));
  const recordedAll = async (n: number) => venueFills().length === n && (await fills()).length === n && (await world.count(bot, 'TakeProfitPlaced')) === n;

  it('records every fill once, each with its take-profit, across the fallback, the kill and the return of the stream', async () => {
    const cmd = new BotCommandRunner(world.events);
    const ctx = { userId: KEY.userId, correlationId: randomUUID() };
    await cmd.run({ type: 'CreateBot', botId: bot.id, userId: KEY.userId, botType: market === 'spot' ? 'Spot' : 'Futures', config }, ctx);
    await cmd.run({ type: 'StartBot', botId: bot.id, userId: KEY.userId }, ctx);
    const port = await world.provider.for(bot);
    await until('running with its ladder', async () => (await world.count(bot, 'BotStarted')) === 1 && (await port.openOrders('BTCUSDT')).length === 5, 30_000);
    await until("the account's stream subscribed", () => standIn.subscriptions().user === 1, 15_000);

    // 1. a fill by the stream
    world.venue.advanceTo(2000);
    await until('the first fill and its take-profit', () => recordedAll(1), 15_000);

    // 2. the stream cut and refused: the fallback recorded, and shown
    standIn.streams.refuse();
    standIn.streams.cut();
    await until('the fallback recorded', async () => (await world.count(bot, 'VenueStreamDown')) === 1, 15_000);
    expect((await view()).streamdownsince).toBeDefined();

    // 3. a fill while the stream is down, and the runner killed at once (before a poll can see it)
    world.venue.advanceTo(3000);
    await kill9(child!);
    child = null;
    expect(venueFills()).toHaveLength(2);
    expect(await fills()).toHaveLength(1);
    child = await startCrashRunner(world.dir, 'http://127.0.0.1:1', env);
    await until('the fill made while it was dead, found by the new runner', () => recordedAll(2), 30_000);
    expect((await view()).streamdownsince).toBeDefined(); // the stream is still down: still shown

    // 4. another fill while the stream is still down: found by polling
    world.venue.advanceTo(4000);
    await until('the fill found by polling', () => recordedAll(3), 20_000);

    // 5. killed again while the stream is down; the stream comes back before a new runner takes the bot over:
    // the new runner, whose stream was never down, records it back (the bot page stops saying it is down)
    await kill9(child!);
    child = null;
    standIn.streams.accept();
    child = await startCrashRunner(world.dir, 'http://127.0.0.1:1', env);
    await until('the stream back', async () => (await world.count(bot, 'VenueStreamRestored')) === 1, 90_000);
    expect(await world.count(bot, 'VenueStreamDown')).toBe(1); // one outage, told once, whichever runner saw it
    expect((await view()).streamdownsince).toBeUndefined();
    await until("the account's stream subscribed again", () => standIn.subscriptions().user === 1, 15_000);
    world.venue.advanceTo(5000);
    await until('the last fill and its take-profit', () => recordedAll(4), 15_000);

    // every fill once, exactly the venue's
    const recorded = await fills();
    expect(new Set(recorded).size).toBe(recorded.length);
    expect([...recorded].sort()).toEqual([...venueFills()].sort());
  });
});
