/**
 * Crash test of the SHORT futures grid (issue 32), the short variant of test/runner-crash.spec.ts's ccxt
 * case: the runner is its own OS process on the ccxt adapter, trading against the venue-faithful
 * stand-ins of Binance USDⓈ-M and Kucoin futures (their REST dialects over one venue core), and is
 * SIGKILLed at random moments while it applies fills, records them, cancels and places. After each
 * restart it must converge: the venue's open orders of each bot equal what the pure engine wants from
 * the venue's own fills (no duplicate, no orphan, nothing missing), every fill recorded once. At the end
 * the profits equal a crash-free run's, every take-profit order the venue filled was sent reduce-only
 * (a stand-in refuses a reduce-only order that would not reduce, docs/exchanges.md), none was refused,
 * and after the price falls through every buy-back and a stop with cancel-all and close-position,
 * nothing is open or locked, no position is left and the account moved by exactly the bot's profit.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { SqliteEventStore } from '@gridrocket/event-store';
import { SqliteReadStore } from '@gridrocket/read-store';
import { BotCommandRunner } from '@gridrocket/bots/nest';
import { EmbeddedOwnership } from '@gridrocket/streaming';
import { PaperExchangeProvider, PaperVenue, CsvReplayFeed } from '@gridrocket/exchanges';
import { GridRunner, engineBotId, toGridRules } from '@gridrocket/trading';
import { directCommands } from '@gridrocket/trading/nest';
import { isOwnClientOrderId, parseClientOrderId, roundMoney, type GridConfig } from '@gridrocket/trading';
import { checkGridOnPort } from '@gridrocket/trading/testing/grid-invariants';
import { until } from '@gridrocket/shared/testing/until';
import { startVenueStandIn, type StandInKey, type VenueStandIn } from '@gridrocket/exchanges/testing/standin/venue-standin';
import { startCrashRunner } from './support/crash-runner';
import { rng } from './support/seeded-random';
import { kill9 } from './support/server-process';

jest.setTimeout(150_000);

const SEED = Number(process.env.CRASH_SEED ?? 32032);
const KILLS = 8;
const STEPS = 24;


/** LTCUSDT on both venues: oscillations through the short ladders (sells 90–93) and their buy-backs; the last row drops below every take-profit. */
function pricePath(): string {
  const r = rng(13);
  const rows = ['ms,exchange,symbol,price'];
  const at = (ms: number, ltc: number) => {
    for (const ex of ['Binance', 'Kucoin']) rows.push(`${ms},${ex},LTCUSDT,${ltc.toFixed(2)}`);
  };
  at(1000, 88);
  for (let i = 1; i <= STEPS; i++) at(1000 + i * 1000, 91 + 3 * Math.sin(i * 0.6 + 1) + (r() - 0.5) * 1.2);
  at(1000 + (STEPS + 1) * 1000, 84); // after the restart: every buy-back fills
  return rows.join('\n');
}

interface Bot {
  id: string;
  userId: string;
  exchange: 'Binance' | 'Kucoin';
  market: 'futures';
  symbol: string;
  config: GridConfig;
}

const SHORT: GridConfig = { botType: 'Futures', numOfOrders: 4, orderSize: 0.5, interval: 1, entryPrice: 90, takeProfit: 1.2, leverage: 3, direction: 'short' };
const BOTS: Bot[] = [
  { id: randomUUID(), userId: 'alice', exchange: 'Binance', market: 'futures', symbol: 'LTCUSDT', config: SHORT },
  { id: randomUUID(), userId: 'bob', exchange: 'Kucoin', market: 'futures', symbol: 'LTCUSDT', config: { ...SHORT, numOfOrders: 3, interval: 1.5, takeProfit: 1 } },
];

const KEYS: StandInKey[] = [
  { apiKey: 'alice-key-0001', secret: 'alice-secret-0001', passphrase: 'alice-pass', userId: 'alice' },
  { apiKey: 'bob-key-0002', secret: 'bob-secret-0002', passphrase: 'bob-pass', userId: 'bob' },
];

async function createAndStart(events: SqliteEventStore) {
  const cmd = new BotCommandRunner(events);
  for (const b of BOTS) {
    const ctx = { userId: b.userId, correlationId: randomUUID() };
    const c = b.config;
    const config = { exchange: b.exchange, symbol: b.symbol, numOfOrders: c.numOfOrders, orderSize: c.orderSize, interval: c.interval, entryPrice: c.entryPrice, takeProfit: c.takeProfit, leverage: c.leverage, direction: 'short' as const };
    await cmd.run({ type: 'CreateBot', botId: b.id, userId: b.userId, botType: c.botType, config }, ctx);
    await cmd.run({ type: 'StartBot', botId: b.id, userId: b.userId }, ctx);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const FILL_TYPES = ['OrderFilled', 'TakeProfitFilled', 'StopLossTriggered'];

class World {
  venue: PaperVenue;
  provider: PaperExchangeProvider;
  events: SqliteEventStore;
  constructor(readonly dir: string) {
    this.venue = new PaperVenue({ store: join(dir, 'paper.sqlite'), feed: new CsvReplayFeed(pricePath()), clock: Date.now });
    this.provider = new PaperExchangeProvider(this.venue);
    this.events = new SqliteEventStore(join(dir, 'events.sqlite'), 20);
  }
  async rules(b: Bot) {
    return toGridRules(await (await this.provider.for(b)).marketRules(b.symbol));
  }
  async converged(): Promise<boolean> {
    for (const b of BOTS) {
      const port = await this.provider.for(b);
      const check = await checkGridOnPort(port, b.symbol, b.config, await this.rules(b), engineBotId(b.id, 1));
      if (!check.ok) return false;
      const fills = (await port.recentFills(b.symbol, 0)).filter((f) => isOwnClientOrderId(engineBotId(b.id, 1), f.clientOrderId));
      const recorded = (await this.events.readStream(`bot-${b.id}`)).filter((e) => e.type === 'OrderFilled' || e.type === 'TakeProfitFilled');
      if (recorded.length !== fills.length) return false;
    }
    return true;
  }
  async started(): Promise<boolean> {
    for (const b of BOTS) if (!(await this.events.readStream(`bot-${b.id}`)).some((e) => e.type === 'BotStarted')) return false;
    return true;
  }
  async profits(): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const b of BOTS) {
      const last = (await this.events.readStream(`bot-${b.id}`)).filter((e) => e.type === 'ProfitRealized').pop();
      out[b.id] = last ? (last.data as { totalProfit: number }).totalProfit : 0;
    }
    return out;
  }
  async close() {
    await this.events.close();
    this.venue.close();
  }
}

describe('short grid crash safety on the ccxt adapter against the Binance and Kucoin futures stand-ins', () => {
  const dirs: string[] = [];
  const tmp = () => {
    const d = mkdtempSync(join(tmpdir(), 'gr-short-crash-'));
    dirs.push(d);
    return d;
  };
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it(`${KILLS} kills (kill -9) while trading: nothing doubled or lost, take-profits sent reduce-only, none refused, all closed at the end`, async () => {
    // 1. reference: the same short bots and path, in-process on the paper exchange, never crashed
    const ref = new World(tmp());
    const refReads = new SqliteReadStore(join(ref.dir, 'read.sqlite'));
    const refRunner = new GridRunner({ events: ref.events, reads: refReads, commands: directCommands(ref.events), exchanges: ref.provider, ownership: new EmbeddedOwnership(), logger: { log: () => undefined, warn: () => undefined, error: (m) => console.error(m) } });
    ref.venue.advanceTo(1000);
    await refRunner.start();
    await createAndStart(ref.events);
    await until('reference started', () => ref.started());
    await until('reference ladders', () => ref.converged());
    for (let i = 1; i <= STEPS; i++) {
      ref.venue.advanceTo(1000 + i * 1000);
      await until(`reference step ${i}`, () => ref.converged());
    }
    const expected = await ref.profits();
    await refRunner.stop();
    await refReads.close();
    await ref.close();
    // the path really trades: both short bots bought back at a profit at least once
    expect(Object.values(expected).filter((p) => p > 0)).toHaveLength(BOTS.length);

    // 2. the crash run: runner child on ccxt → stand-ins (HTTP, each venue's dialect) → venue core
    const world = new World(tmp());
    world.venue.advanceTo(1000);
    const standIns: VenueStandIn[] = [];
    let child: ChildProcess | null = null;
    const startBalances = new Map<string, number>();
    const usdtOf = async (b: Bot) => (await (await world.provider.for(b)).balances()).find((x) => x.symbol === 'USDT')!.balance;
    try {
      for (const exchange of ['Binance', 'Kucoin'] as const) standIns.push(await startVenueStandIn(world.venue, exchange, 'futures', KEYS));
      for (const b of BOTS) startBalances.set(b.id, await usdtOf(b));
      const env = {
        STANDIN_ORIGINS: JSON.stringify(Object.fromEntries(standIns.map((s) => [s.id, s.origin]))),
        STANDIN_KEYS: JSON.stringify(Object.fromEntries(KEYS.map((k) => [k.userId, { apiKey: k.apiKey, secret: k.secret, passphrase: k.passphrase }]))),
      };
      const random = rng(SEED);
      child = await startCrashRunner(world.dir, 'http://127.0.0.1:1', env);
      await createAndStart(world.events);
      let kills = 0;
      let midWork = 0;
      const killAndRestart = async () => {
        await kill9(child!);
        kills++;
        if (!(await world.converged())) midWork++; // killed with fills unrecorded or orders not yet replaced
        child = await startCrashRunner(world.dir, 'http://127.0.0.1:1', env);
      };
      await sleep(60 + random() * 200);
      await killAndRestart(); // during the first start (the ladders of sells being placed)
      await until('started', () => world.started(), 60_000);
      await until('ladders', () => world.converged(), 60_000);
      for (const b of BOTS) {
        const open = await (await world.provider.for(b)).openOrders(b.symbol);
        expect(open.length).toBeGreaterThan(0);
        expect(open.every((o) => o.side === 'sell' && o.price >= b.config.entryPrice && !o.reduceOnly)).toBe(true); // the short ladder, above the entry
      }
      const killSteps = new Set<number>();
      while (killSteps.size < KILLS - 1) killSteps.add(1 + Math.floor(random() * STEPS));
      for (let i = 1; i <= STEPS; i++) {
        world.venue.advanceTo(1000 + i * 1000);
        if (killSteps.has(i)) {
          await sleep(random() * 60);
          await killAndRestart();
        }
        await until(`step ${i}`, () => world.converged(), 60_000);
      }
      expect(kills).toBe(KILLS);
      console.log(`short crash test on ccxt (seed ${SEED}): ${kills} kills, ${midWork} with work half done`);
      expect(midWork).toBeGreaterThanOrEqual(1); // (a check on the test's own strength)

      // every fill recorded once; profits equal the uncrashed run's
      const actual = await world.profits();
      for (const b of BOTS) {
        expect({ bot: b.exchange, profit: roundMoney(actual[b.id]) }).toEqual({ bot: b.exchange, profit: roundMoney(expected[b.id]) });
        const stream = await world.events.readStream(`bot-${b.id}`);
        const fillIds = stream.filter((e) => FILL_TYPES.includes(e.type)).map((e) => (e.data as { fillId: string }).fillId);
        expect(new Set(fillIds).size).toBe(fillIds.length);
        expect(stream.filter((e) => e.type === 'BotStarted')).toHaveLength(1);
        expect(stream.filter((e) => e.type === 'BotFailed' || e.type === 'BotNotTrading')).toHaveLength(0);
        // the recorded fills are the short's: rungs sold, take-profits bought
        const sides = new Set(stream.filter((e) => e.type === 'OrderFilled').map((e) => (e.data as { side: string }).side));
        expect([...sides]).toEqual(['sell']);
        expect(new Set(stream.filter((e) => e.type === 'TakeProfitFilled').map((e) => (e.data as { side: string }).side))).toEqual(new Set(['buy']));
        // every take-profit the venue filled was a reduce-only buy (looked up on the venue, through ccxt's stand-in)
        const port = await world.provider.for(b);
        const tpIds = [...new Set((await port.recentFills(b.symbol, 0)).filter((f) => parseClientOrderId(f.clientOrderId)?.kind === 'take-profit').map((f) => f.clientOrderId))];
        expect(tpIds.length).toBeGreaterThan(0);
        for (const id of tpIds) expect({ id, order: await port.orderByClientId(b.symbol, id) }).toMatchObject({ id, order: { side: 'buy', reduceOnly: true } });
      }

      // 3. stop without cancel-all, start again (it continues), the price falls through every buy-back, stop with cancel-all + close position
      const cmd = new BotCommandRunner(world.events);
      const count = async (b: Bot, type: string) => (await world.events.readStream(`bot-${b.id}`)).filter((e) => e.type === type).length;
      for (const b of BOTS) await cmd.run({ type: 'StopBot', botId: b.id, userId: b.userId, cancelAllOrders: false } as never, { userId: b.userId, correlationId: randomUUID() });
      await until('stopped', async () => (await Promise.all(BOTS.map((b) => count(b, 'BotStopped')))).every((n) => n >= 1), 60_000);
      for (const b of BOTS) await cmd.run({ type: 'StartBot', botId: b.id, userId: b.userId, confirmPosition: true }, { userId: b.userId, correlationId: randomUUID() });
      await until('started again', async () => (await Promise.all(BOTS.map((b) => count(b, 'BotStarted')))).every((n) => n >= 2), 60_000);
      await until('continued, not doubled', () => world.converged(), 60_000);
      world.venue.advanceTo(1000 + (STEPS + 1) * 1000);
      await until('buy-backs filled and recorded', () => world.converged(), 60_000);
      for (const b of BOTS) await cmd.run({ type: 'StopBot', botId: b.id, userId: b.userId, cancelAllOrders: true, closePosition: true } as never, { userId: b.userId, correlationId: randomUUID() });
      await until('stopped with cancel-all', async () => (await Promise.all(BOTS.map((b) => count(b, 'BotStopped')))).every((n) => n >= 2), 60_000);

      for (const b of BOTS) {
        const port = await world.provider.for(b);
        const label = b.exchange;
        expect({ label, open: await port.openOrders(b.symbol) }).toEqual({ label, open: [] });
        for (const bal of await port.balances()) expect({ label, asset: bal.symbol, locked: roundMoney(bal.balance - bal.available) }).toEqual({ label, asset: bal.symbol, locked: 0 });
        expect({ label, positions: await port.positions(b.symbol) }).toEqual({ label, positions: [] });
        const stream = await world.events.readStream(`bot-${b.id}`);
        const realised = stream.filter((e) => e.type === 'ProfitRealized').map((e) => (e.data as { amount: number }).amount);
        const lifetime = (stream.filter((e) => e.type === 'ProfitRealized').pop()?.data as { totalProfit: number } | undefined)?.totalProfit ?? 0;
        expect(lifetime).toBeGreaterThan(0);
        expect({ label, lifetime: roundMoney(lifetime) }).toEqual({ label, lifetime: roundMoney(realised.reduce((a, x) => a + x, 0)) });
        expect({ label, moved: roundMoney((await usdtOf(b)) - startBalances.get(b.id)!) }).toEqual({ label, moved: roundMoney(lifetime) });
      }
    } finally {
      if (child) await kill9(child);
      await Promise.all(standIns.map((s) => s.close()));
      await world.close();
    }
  });
});
