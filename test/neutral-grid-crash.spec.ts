/**
 * Crash test of the NEUTRAL futures grid (issue 32), as test/short-grid-crash.spec.ts does for the short
 * one: the runner is its own OS process on the ccxt adapter, trading against the venue-faithful stand-ins
 * of Binance USDⓈ-M and Kucoin futures, and is SIGKILLed at random moments while it applies fills,
 * records them, cancels and places. After each restart it must converge: each bot's open orders on the
 * venue are what the neutral engine wants from the venue's own fills (no duplicate, no orphan, nothing
 * missing), every fill recorded once. At the end the profits equal a crash-free run's, every closing
 * order the venue filled was sent reduce-only (the stand-ins refuse one that would not reduce) and none
 * was refused; after the price falls through every buy, a stop with cancel-all and close-position leaves
 * nothing open, locked or held, and the account moved by the bot's profit plus what closing its lots at
 * market realised.
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
import { PaperExchangeProvider, PaperVenue, CsvReplayFeed, type Fill } from '@gridrocket/exchanges';
import { GridRunner, engineBotId, toEngineFill, toGridRules, isOwnClientOrderId, roundMoney } from '@gridrocket/trading';
import { applyNeutralFills, initialNeutralState, neutralDesiredOrders, type NeutralGridConfig } from '@gridrocket/trading/grid';
import { directCommands } from '@gridrocket/trading/nest';
import { until } from '@gridrocket/shared/testing/until';
import { startVenueStandIn, type StandInKey, type VenueStandIn } from '@gridrocket/exchanges/testing/standin/venue-standin';
import { startCrashRunner } from './support/crash-runner';
import { rng } from './support/seeded-random';
import { kill9 } from './support/server-process';

jest.setTimeout(150_000);

const SEED = Number(process.env.CRASH_SEED ?? 32033);
const KILLS = 8;
const STEPS = 24;

/** LTCUSDT on both venues: oscillations through both halves of the grids (lines 87–93, 88–92); the last row falls below every buy. */
function pricePath(): string {
  const r = rng(17);
  const rows = ['ms,exchange,symbol,price'];
  const at = (ms: number, ltc: number) => {
    for (const ex of ['Binance', 'Kucoin']) rows.push(`${ms},${ex},LTCUSDT,${ltc.toFixed(2)}`);
  };
  at(1000, 90.2);
  for (let i = 1; i <= STEPS; i++) at(1000 + i * 1000, 90 + 3.2 * Math.sin(i * 0.7) + (r() - 0.5) * 1.2);
  at(1000 + (STEPS + 1) * 1000, 85); // after the restart: every buy fills, the grid ends long its bound
  return rows.join('\n');
}

interface Bot {
  id: string;
  userId: string;
  exchange: 'Binance' | 'Kucoin';
  market: 'futures';
  symbol: string;
  config: NeutralGridConfig;
}

const NEUTRAL: NeutralGridConfig = { botType: 'Futures', numOfOrders: 3, orderSize: 0.5, interval: 1, entryPrice: 90, takeProfit: 1, leverage: 3, direction: 'neutral' };
const BOTS: Bot[] = [
  { id: randomUUID(), userId: 'alice', exchange: 'Binance', market: 'futures', symbol: 'LTCUSDT', config: NEUTRAL },
  { id: randomUUID(), userId: 'bob', exchange: 'Kucoin', market: 'futures', symbol: 'LTCUSDT', config: { ...NEUTRAL, numOfOrders: 2, interval: 1.5 } },
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
    const config = { exchange: b.exchange, symbol: b.symbol, numOfOrders: c.numOfOrders, orderSize: c.orderSize, interval: c.interval, entryPrice: c.entryPrice, takeProfit: c.takeProfit, leverage: c.leverage, direction: 'neutral' as const };
    await cmd.run({ type: 'CreateBot', botId: b.id, userId: b.userId, botType: c.botType, config }, ctx);
    await cmd.run({ type: 'StartBot', botId: b.id, userId: b.userId }, ctx);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const FILL_TYPES = ['OrderFilled', 'TakeProfitFilled', 'StopLossTriggered'];
const show = (o: { clientOrderId: string; side: string; price: number; amount: number; reduceOnly?: boolean }) => `${o.clientOrderId} ${o.side} ${o.price} ${o.amount}${o.reduceOnly ? ' reduce-only' : ''}`;

class World {
  venue: PaperVenue;
  provider: PaperExchangeProvider;
  events: SqliteEventStore;
  constructor(readonly dir: string) {
    this.venue = new PaperVenue({ store: join(dir, 'paper.sqlite'), feed: new CsvReplayFeed(pricePath()), clock: Date.now });
    this.provider = new PaperExchangeProvider(this.venue);
    this.events = new SqliteEventStore(join(dir, 'events.sqlite'), 20);
  }
  async fills(b: Bot): Promise<Fill[]> {
    return (await (await this.provider.for(b)).recentFills(b.symbol, 0)).filter((f) => isOwnClientOrderId(engineBotId(b.id), f.clientOrderId));
  }
  /** The neutral engine after the venue's own fills of the bot. */
  async engine(b: Bot) {
    const rules = toGridRules(await (await this.provider.for(b)).marketRules(b.symbol));
    return { rules, state: applyNeutralFills(initialNeutralState(b.config, rules, engineBotId(b.id)), (await this.fills(b)).map((f) => toEngineFill(f))) };
  }
  async converged(): Promise<boolean> {
    for (const b of BOTS) {
      const port = await this.provider.for(b);
      const { rules, state } = await this.engine(b);
      const want = neutralDesiredOrders(rules, state).map(show).sort();
      const open = (await port.openOrders(b.symbol)).filter((o) => isOwnClientOrderId(engineBotId(b.id), o.clientOrderId)).map(show).sort();
      if (JSON.stringify(want) !== JSON.stringify(open)) return false;
      const recorded = (await this.events.readStream(`bot-${b.id}`)).filter((e) => e.type === 'OrderFilled' || e.type === 'TakeProfitFilled');
      if (recorded.length !== (await this.fills(b)).length) return false;
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

describe('neutral grid crash safety on the ccxt adapter against the Binance and Kucoin futures stand-ins', () => {
  const dirs: string[] = [];
  const tmp = () => {
    const d = mkdtempSync(join(tmpdir(), 'gr-neutral-crash-'));
    dirs.push(d);
    return d;
  };
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it(`${KILLS} kills (kill -9) while trading: nothing doubled or lost, closes sent reduce-only, none refused, all closed at the end`, async () => {
    // 1. reference: the same neutral bots and path, in-process on the paper exchange, never crashed
    const ref = new World(tmp());
    const refReads = new SqliteReadStore(join(ref.dir, 'read.sqlite'));
    const refRunner = new GridRunner({ events: ref.events, reads: refReads, commands: directCommands(ref.events), exchanges: ref.provider, ownership: new EmbeddedOwnership(), logger: { log: () => undefined, warn: () => undefined, error: (m) => console.error(m) } });
    ref.venue.advanceTo(1000);
    await refRunner.start();
    await createAndStart(ref.events);
    await until('reference started', () => ref.started());
    await until('reference grids', () => ref.converged());
    for (let i = 1; i <= STEPS; i++) {
      ref.venue.advanceTo(1000 + i * 1000);
      await until(`reference step ${i}`, () => ref.converged());
    }
    const expected = await ref.profits();
    await refRunner.stop();
    await refReads.close();
    await ref.close();
    // the path really trades both halves: each bot completed pairs at a profit
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
        if (!(await world.converged())) midWork++; // killed with fills unrecorded or orders not yet placed
        child = await startCrashRunner(world.dir, 'http://127.0.0.1:1', env);
      };
      await sleep(60 + random() * 200);
      await killAndRestart(); // during the first start (both halves being placed)
      await until('started', () => world.started(), 60_000);
      await until('grids', () => world.converged(), 60_000);
      for (const b of BOTS) {
        const open = await (await world.provider.for(b)).openOrders(b.symbol);
        // buys below the reference and sells above it, none reduce-only (flat)
        expect(open.filter((o) => o.side === 'buy').every((o) => o.price < b.config.entryPrice && !o.reduceOnly)).toBe(true);
        expect(open.filter((o) => o.side === 'sell').every((o) => o.price > b.config.entryPrice && !o.reduceOnly)).toBe(true);
        expect(open).toHaveLength(2 * b.config.numOfOrders);
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
      console.log(`neutral crash test on ccxt (seed ${SEED}): ${kills} kills, ${midWork} with work half done`);
      expect(midWork).toBeGreaterThanOrEqual(1); // (a check on the test's own strength)

      // every fill recorded once; profits equal the uncrashed run's; both halves traded
      const actual = await world.profits();
      for (const b of BOTS) {
        expect({ bot: b.exchange, profit: roundMoney(actual[b.id]) }).toEqual({ bot: b.exchange, profit: roundMoney(expected[b.id]) });
        const stream = await world.events.readStream(`bot-${b.id}`);
        const fillIds = stream.filter((e) => FILL_TYPES.includes(e.type)).map((e) => (e.data as { fillId: string }).fillId);
        expect(new Set(fillIds).size).toBe(fillIds.length);
        expect(stream.filter((e) => e.type === 'BotStarted')).toHaveLength(1);
        expect(stream.filter((e) => e.type === 'BotFailed' || e.type === 'BotNotTrading')).toHaveLength(0);
        expect(new Set(stream.filter((e) => e.type === 'OrderFilled').map((e) => (e.data as { side: string }).side))).toEqual(new Set(['buy', 'sell']));
        // every order placed as a close (TakeProfitPlaced) went to the venue reduce-only, every opening one (OrderPlaced) not: looked up on the venue for each filled order
        const port = await world.provider.for(b);
        const placedAs = new Map(stream.filter((e) => e.type === 'OrderPlaced' || e.type === 'TakeProfitPlaced').map((e) => [(e.data as { clientOrderId: string }).clientOrderId, e.type === 'TakeProfitPlaced']));
        const filledIds = [...new Set((await world.fills(b)).map((f) => f.clientOrderId))];
        expect(filledIds.filter((id) => placedAs.get(id) === true).length).toBeGreaterThan(0);
        for (const id of filledIds) expect({ id, reduceOnly: !!(await port.orderByClientId(b.symbol, id))?.reduceOnly }).toEqual({ id, reduceOnly: placedAs.get(id) });
      }

      // 3. stop without cancel-all, start again (it continues), the price falls through every buy, stop with cancel-all + close position
      const cmd = new BotCommandRunner(world.events);
      const count = async (b: Bot, type: string) => (await world.events.readStream(`bot-${b.id}`)).filter((e) => e.type === type).length;
      for (const b of BOTS) await cmd.run({ type: 'StopBot', botId: b.id, userId: b.userId, cancelAllOrders: false } as never, { userId: b.userId, correlationId: randomUUID() });
      await until('stopped', async () => (await Promise.all(BOTS.map((b) => count(b, 'BotStopped')))).every((n) => n >= 1), 60_000);
      for (const b of BOTS) await cmd.run({ type: 'StartBot', botId: b.id, userId: b.userId, confirmPosition: true }, { userId: b.userId, correlationId: randomUUID() });
      await until('started again', async () => (await Promise.all(BOTS.map((b) => count(b, 'BotStarted')))).every((n) => n >= 2), 60_000);
      await until('continued, not doubled', () => world.converged(), 60_000);
      world.venue.advanceTo(1000 + (STEPS + 1) * 1000);
      await until('buys filled and recorded', () => world.converged(), 60_000);
      const atStop = new Map<string, Awaited<ReturnType<World['engine']>>['state']>();
      for (const b of BOTS) {
        const { state } = await world.engine(b);
        expect({ bot: b.exchange, position: state.position }).toEqual({ bot: b.exchange, position: b.config.numOfOrders * b.config.orderSize }); // long its bound, no more
        atStop.set(b.id, state);
      }
      for (const b of BOTS) await cmd.run({ type: 'StopBot', botId: b.id, userId: b.userId, cancelAllOrders: true, closePosition: true } as never, { userId: b.userId, correlationId: randomUUID() });
      await until('stopped with cancel-all', async () => (await Promise.all(BOTS.map((b) => count(b, 'BotStopped')))).every((n) => n >= 2), 60_000);

      for (const b of BOTS) {
        const port = await world.provider.for(b);
        const label = b.exchange;
        await until(`${label} closed`, async () => (await port.positions(b.symbol)).length === 0, 30_000);
        expect({ label, open: await port.openOrders(b.symbol) }).toEqual({ label, open: [] });
        for (const bal of await port.balances()) expect({ label, asset: bal.symbol, locked: roundMoney(bal.balance - bal.available) }).toEqual({ label, asset: bal.symbol, locked: 0 });
        const stream = await world.events.readStream(`bot-${b.id}`);
        const realised = stream.filter((e) => e.type === 'ProfitRealized').map((e) => (e.data as { amount: number }).amount);
        const lifetime = (stream.filter((e) => e.type === 'ProfitRealized').pop()?.data as { totalProfit: number } | undefined)?.totalProfit ?? 0;
        expect({ label, lifetime: roundMoney(lifetime) }).toEqual({ label, lifetime: roundMoney(realised.reduce((a, x) => a + x, 0)) });
        // the close: one reduce-only market sell of the whole long, under the bot's own prefix
        const all = await port.recentFills(b.symbol, 0);
        const closeFills = all.filter((f) => f.clientOrderId.endsWith('-close') && f.clientOrderId.startsWith(`gr-`));
        expect(closeFills.map((f) => f.side)).toEqual(closeFills.map(() => 'sell'));
        const closed = closeFills.reduce((t, f) => t + f.amount, 0);
        expect(roundMoney(closed)).toBe(roundMoney(b.config.numOfOrders * b.config.orderSize));
        // the account: the pairs' profit, plus closing the open lots at market less their opening fees and the close's fee
        const lots = atStop.get(b.id)!.lots;
        const closeValue = closeFills.reduce((t, f) => t + f.price * f.amount, 0);
        const lotCost = lots.reduce((t, l) => t + l.price * l.amount, 0);
        const expectedMove = lifetime + (closeValue - lotCost) - lots.reduce((t, l) => t + l.fee, 0) - closeFills.reduce((t, f) => t + f.fee, 0);
        expect({ label, moved: roundMoney((await usdtOf(b)) - startBalances.get(b.id)!) }).toEqual({ label, moved: roundMoney(expectedMove) });
      }
    } finally {
      if (child) await kill9(child);
      await Promise.all(standIns.map((s) => s.close()));
      await world.close();
    }
  });
});
