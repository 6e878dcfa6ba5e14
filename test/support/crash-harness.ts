/**
 * What the grid styles' crash tests share (test/short-grid-crash, neutral-grid-crash, infinity-grid-crash):
 * the venue, provider and event store of a run on its own directory; the reference run, in-process on the
 * paper exchange and never crashed; the crash run, the runner child (support/crash-runner.ts) on the ccxt
 * adapter against the venues' stand-ins, SIGKILLed at seeded random moments while it trades, converging
 * after each restart; and the stops at the end. Each test keeps what is its own: its bots, its price path,
 * what "converged" means for its engine, and what it checks.
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
import { CsvReplayFeed, PaperExchangeProvider, PaperVenue } from '@gridrocket/exchanges';
import { GridRunner, engineBotId, isOwnClientOrderId, roundMoney, toGridRules, type GridConfig } from '@gridrocket/trading';
import { checkGridOnPort } from '@gridrocket/trading/testing/grid-invariants';
import { directCommands } from '@gridrocket/trading/nest';
import { until } from '@gridrocket/shared/testing/until';
import { startVenueStandIn, type StandInKey, type VenueStandIn } from '@gridrocket/exchanges/testing/standin/venue-standin';
import { startCrashRunner } from './crash-runner';
import { rng } from './seeded-random';
import { kill9 } from './server-process';

/** The two accounts the crash tests trade on, known to every stand-in. */
export const CRASH_KEYS: StandInKey[] = [
  { apiKey: 'alice-key-0001', secret: 'alice-secret-0001', passphrase: 'alice-pass', userId: 'alice' },
  { apiKey: 'bob-key-0002', secret: 'bob-secret-0002', passphrase: 'bob-pass', userId: 'bob' },
];

export interface CrashBot {
  id: string;
  userId: string;
  exchange: 'Binance' | 'Kucoin';
  market: 'spot' | 'futures';
  symbol: string;
}

/** The four venue markets with a stand-in (@gridrocket/exchanges/testing/standin). */
export const STAND_IN_VENUES = [
  { exchange: 'Binance', market: 'spot' },
  { exchange: 'Binance', market: 'futures' },
  { exchange: 'Kucoin', market: 'spot' },
  { exchange: 'Kucoin', market: 'futures' },
] as const;

/** A bot of the ladder engine (long or short grids). */
export interface GridCrashBot extends CrashBot {
  config: GridConfig;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Temporary directories of one test file, removed after it. */
export function crashDirs(prefix: string): { tmp(): string; cleanup(): void } {
  const dirs: string[] = [];
  return {
    tmp: () => {
      const d = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(d);
      return d;
    },
    cleanup: () => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })),
  };
}

/**
 * One run's venue (its price path replayed on the wall clock, or on the venue's own clock when `clock` is
 * null), provider and event store, on `dir`.
 */
export class CrashWorld<B extends CrashBot> {
  readonly venue: PaperVenue;
  readonly provider: PaperExchangeProvider;
  readonly events: SqliteEventStore;
  constructor(
    readonly dir: string,
    pricePath: string,
    readonly bots: readonly B[],
    clock: (() => number) | null = Date.now,
  ) {
    this.venue = new PaperVenue({ store: join(dir, 'paper.sqlite'), feed: new CsvReplayFeed(pricePath), clock: clock ?? undefined });
    this.provider = new PaperExchangeProvider(this.venue);
    this.events = new SqliteEventStore(join(dir, 'events.sqlite'), 20);
  }
  async stream(b: B) {
    return this.events.readStream(`bot-${b.id}`);
  }
  async count(b: B, type: string): Promise<number> {
    return (await this.stream(b)).filter((e) => e.type === type).length;
  }
  async started(): Promise<boolean> {
    for (const b of this.bots) if (!(await this.stream(b)).some((e) => e.type === 'BotStarted')) return false;
    return true;
  }
  /** Each bot's lifetime profit as its history says (the last ProfitRealized's total). */
  async profits(): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const b of this.bots) {
      const last = (await this.stream(b)).filter((e) => e.type === 'ProfitRealized').pop();
      out[b.id] = last ? (last.data as { totalProfit: number }).totalProfit : 0;
    }
    return out;
  }
  async close(): Promise<void> {
    await this.events.close();
    this.venue.close();
  }
}

/** The ladder engine's market rules for the bot, from its venue. */
export async function gridRulesOf(world: CrashWorld<GridCrashBot>, b: GridCrashBot) {
  return toGridRules(await (await world.provider.for(b)).marketRules(b.symbol));
}

/** Each ladder bot's open orders are what the engine wants from the venue's fills, and every one of those fills is recorded. */
export async function laddersConverged(world: CrashWorld<GridCrashBot>): Promise<boolean> {
  for (const b of world.bots) {
    const port = await world.provider.for(b);
    const check = await checkGridOnPort(port, b.symbol, b.config, await gridRulesOf(world, b), engineBotId(b.id, 1));
    if (!check.ok) return false;
    const fills = (await port.recentFills(b.symbol, 0)).filter((f) => isOwnClientOrderId(engineBotId(b.id, 1), f.clientOrderId));
    const recorded = (await world.stream(b)).filter((e) => e.type === 'OrderFilled' || e.type === 'TakeProfitFilled');
    if (recorded.length !== fills.length) return false;
  }
  return true;
}

/**
 * Step 3 of the style crash suites: stop without cancel-all and start again (stopAndStartAgain: it continues),
 * then the path's last row (after `steps` rows), and wait (`what`) until `converged` holds again.
 */
export async function restartThenLastRow<B extends CrashBot>(world: CrashWorld<B>, converged: () => Promise<boolean>, steps: number, what: string): Promise<void> {
  await stopAndStartAgain(world, converged);
  world.venue.advanceTo(1000 + (steps + 1) * 1000);
  await until(what, converged, 60_000);
}

/** An order as a converged check writes it (its client order id, side, price, amount, reduce-only). */
type ShownOrder = { clientOrderId: string; side: string; price: number; amount: number; reduceOnly?: boolean };

/**
 * Each bot's open orders on the venue (those `own` says are its), as `show` writes them, are the ones `want`
 * says its engine wants, and each of the venue's fills of it (`fills`) is recorded (an event of `fillTypes`).
 * The style crash suites' `converged` (issue 42: each wrote this loop).
 */
export async function engineConverged<B extends CrashBot>(
  world: CrashWorld<B>,
  o: { want(b: B): Promise<ShownOrder[]>; own(b: B, clientOrderId: string): boolean; show(order: ShownOrder): string; fills(b: B): Promise<unknown[]>; fillTypes: readonly string[] },
): Promise<boolean> {
  for (const b of world.bots) {
    const port = await world.provider.for(b);
    const want = (await o.want(b)).map(o.show).sort();
    const open = (await port.openOrders(b.symbol)).filter((x) => o.own(b, x.clientOrderId)).map(o.show).sort();
    if (JSON.stringify(want) !== JSON.stringify(open)) return false;
    const recorded = (await world.stream(b)).filter((e) => o.fillTypes.includes(e.type));
    if (recorded.length !== (await o.fills(b)).length) return false;
  }
  return true;
}

export interface CrashScenario {
  steps: number;
  createAndStart(events: SqliteEventStore): Promise<void>;
  converged(): Promise<boolean>;
}

/** The reference: the bots run in-process on the paper exchange over every step of the path, never crashed (the world stays open). */
export async function runReference<B extends CrashBot>(world: CrashWorld<B>, s: CrashScenario): Promise<void> {
  const reads = new SqliteReadStore(join(world.dir, 'read.sqlite'));
  const runner = new GridRunner({ events: world.events, reads, commands: directCommands(world.events), exchanges: world.provider, ownership: new EmbeddedOwnership(), logger: { log: () => undefined, warn: () => undefined, error: (m) => console.error(m) } });
  world.venue.advanceTo(1000);
  await runner.start();
  try {
    await s.createAndStart(world.events);
    await until('reference started', () => world.started());
    await until('reference converged', () => s.converged());
    for (let i = 1; i <= s.steps; i++) {
      world.venue.advanceTo(1000 + i * 1000);
      await until(`reference step ${i}`, () => s.converged());
    }
  } finally {
    await runner.stop();
    await reads.close();
  }
}

/**
 * The crash run: the runner in a child process on the ccxt adapter, against the stand-ins of `venues`
 * (HTTP, each venue's dialect, over the world's venue core). `dispose` in a finally.
 */
export class CrashRun<B extends CrashBot> {
  kills = 0;
  /** Kills that came with work half done (fills unrecorded, orders not yet placed): the test's own strength. */
  midWork = 0;
  private child: ChildProcess | null = null;
  private readonly standIns: VenueStandIn[] = [];
  private env: Record<string, string> = {};

  constructor(
    private readonly world: CrashWorld<B>,
    private readonly s: CrashScenario,
  ) {}

  async start(venues: ReadonlyArray<{ exchange: 'Binance' | 'Kucoin'; market: 'spot' | 'futures' }>): Promise<void> {
    for (const v of venues) this.standIns.push(await startVenueStandIn(this.world.venue, v.exchange, v.market, CRASH_KEYS));
    this.env = {
      STANDIN_ORIGINS: JSON.stringify(Object.fromEntries(this.standIns.map((x) => [x.id, x.origin]))),
      STANDIN_KEYS: JSON.stringify(Object.fromEntries(CRASH_KEYS.map((k) => [k.userId, { apiKey: k.apiKey, secret: k.secret, passphrase: k.passphrase }]))),
    };
    this.child = await startCrashRunner(this.world.dir, 'http://127.0.0.1:1', this.env);
  }

  async killAndRestart(): Promise<void> {
    await kill9(this.child!);
    this.kills++;
    if (!(await this.s.converged())) this.midWork++;
    this.child = await startCrashRunner(this.world.dir, 'http://127.0.0.1:1', this.env);
  }

  /**
   * The bots created and started, the runner killed during the first start and at `kills − 1` of the path's
   * steps (seeded), converging after each step; `afterStep` checks what must hold at every step.
   */
  async tradeWithKills(o: { seed: number; kills: number; afterStart?(): Promise<void>; afterStep?(i: number): Promise<void> }): Promise<void> {
    const random = rng(o.seed);
    await this.s.createAndStart(this.world.events);
    await sleep(60 + random() * 200);
    await this.killAndRestart(); // during the first start (the orders being placed)
    await until('started', () => this.world.started(), 60_000);
    await until('converged at start', () => this.s.converged(), 60_000);
    await o.afterStart?.();
    const killSteps = new Set<number>();
    while (killSteps.size < o.kills - 1) killSteps.add(1 + Math.floor(random() * this.s.steps));
    for (let i = 1; i <= this.s.steps; i++) {
      this.world.venue.advanceTo(1000 + i * 1000);
      if (killSteps.has(i)) {
        await sleep(random() * 60);
        await this.killAndRestart();
      }
      await until(`step ${i}`, () => this.s.converged(), 60_000);
      await o.afterStep?.(i);
    }
  }

  async dispose(): Promise<void> {
    if (this.child) await kill9(this.child);
    await Promise.all(this.standIns.map((x) => x.close()));
  }
}

/** Every bot stopped WITHOUT cancel-all and started again (confirming what it holds): it continues, nothing placed twice. */
export async function stopAndStartAgain<B extends CrashBot>(world: CrashWorld<B>, converged: () => Promise<boolean>): Promise<void> {
  const cmd = new BotCommandRunner(world.events);
  for (const b of world.bots) await cmd.run({ type: 'StopBot', botId: b.id, userId: b.userId, cancelAllOrders: false } as never, { userId: b.userId, correlationId: randomUUID() });
  await until('stopped', async () => (await Promise.all(world.bots.map((b) => world.count(b, 'BotStopped')))).every((n) => n >= 1), 60_000);
  for (const b of world.bots) await cmd.run({ type: 'StartBot', botId: b.id, userId: b.userId, confirmPosition: true }, { userId: b.userId, correlationId: randomUUID() });
  await until('started again', async () => (await Promise.all(world.bots.map((b) => world.count(b, 'BotStarted')))).every((n) => n >= 2), 60_000);
  await until('continued, not doubled', converged, 60_000);
}

/** Every bot stopped with cancel-all and close-position. */
export async function stopClosingAll<B extends CrashBot>(world: CrashWorld<B>): Promise<void> {
  const cmd = new BotCommandRunner(world.events);
  for (const b of world.bots) await cmd.run({ type: 'StopBot', botId: b.id, userId: b.userId, cancelAllOrders: true, closePosition: true } as never, { userId: b.userId, correlationId: randomUUID() });
  await until('stopped with cancel-all', async () => (await Promise.all(world.bots.map((b) => world.count(b, 'BotStopped')))).every((n) => n >= 2), 60_000);
}

/** The fill event types a crash suite counts as its engine's fills. */
export const GRID_FILL_TYPES = ['OrderFilled', 'TakeProfitFilled', 'StopLossTriggered'];

/**
 * A price path of `steps` one-second steps on `exchanges`' `symbol`: `first` at 1000 ms, then `step(i, r)`
 * (r: the path's seeded random) at each step, and `last` one step after the path (the fall after the restart).
 */
export function crashPricePath(o: { seed: number; symbol: string; exchanges: readonly string[]; steps: number; first: number; step(i: number, r: () => number): number; last: number }): string {
  const r = rng(o.seed);
  const rows = ['ms,exchange,symbol,price'];
  const at = (ms: number, price: number) => {
    for (const ex of o.exchanges) rows.push(`${ms},${ex},${o.symbol},${price.toFixed(2)}`);
  };
  at(1000, o.first);
  for (let i = 1; i <= o.steps; i++) at(1000 + i * 1000, o.step(i, r));
  at(1000 + (o.steps + 1) * 1000, o.last);
  return rows.join('\n');
}

/** Creates and starts each bot with the config the create route would store for it (`configOf`). */
export async function createAndStartBots<B extends CrashBot>(events: SqliteEventStore, bots: readonly B[], configOf: (b: B) => { botType: 'Spot' | 'Futures'; config: Record<string, unknown> }): Promise<void> {
  const cmd = new BotCommandRunner(events);
  for (const b of bots) {
    const ctx = { userId: b.userId, correlationId: randomUUID() };
    const { botType, config } = configOf(b);
    await cmd.run({ type: 'CreateBot', botId: b.id, userId: b.userId, botType, config } as never, ctx);
    await cmd.run({ type: 'StartBot', botId: b.id, userId: b.userId }, ctx);
  }
}

/** The reference run's profits (the world closed after it); each bot's engine state is read by `keep` before. */
export async function referenceProfits<B extends CrashBot, W extends CrashWorld<B> & { scenario(): CrashScenario }>(world: W, keep?: (w: W) => Promise<void>): Promise<Record<string, number>> {
  await runReference(world, world.scenario());
  const expected = await world.profits();
  await keep?.(world);
  await world.close();
  return expected;
}

/** The bot's USDT balance on the world's venue. */
export async function usdtOf<B extends CrashBot>(world: CrashWorld<B>, b: B): Promise<number> {
  return (await (await world.provider.for(b)).balances()).find((x) => x.symbol === 'USDT')!.balance;
}

/**
 * The crash run of `world` against `venues`' stand-ins with `kills` seeded kills, then `after` (the
 * balances at the start given), the run disposed and the world closed in any case. Checks the kills were
 * made and at least one came with work half done (the test's own strength).
 */
export async function withCrashRun<B extends CrashBot, W extends CrashWorld<B> & { scenario(): CrashScenario }>(
  world: W,
  o: { name: string; venues: ReadonlyArray<{ exchange: 'Binance' | 'Kucoin'; market: 'spot' | 'futures' }>; seed: number; kills: number; afterStart?(): Promise<void>; afterStep?(i: number): Promise<void> },
  after: (startBalances: Map<string, number>) => Promise<void>,
): Promise<void> {
  world.venue.advanceTo(1000);
  const run = new CrashRun(world, world.scenario());
  const startBalances = new Map<string, number>();
  try {
    for (const b of world.bots) startBalances.set(b.id, await usdtOf(world, b));
    await run.start(o.venues);
    await run.tradeWithKills({ seed: o.seed, kills: o.kills, afterStart: o.afterStart, afterStep: o.afterStep });
    expect(run.kills).toBe(o.kills);
    console.log(`${o.name} crash test on ccxt (seed ${o.seed}): ${run.kills} kills, ${run.midWork} with work half done`);
    expect(run.midWork).toBeGreaterThanOrEqual(1); // (a check on the test's own strength)
    await after(startBalances);
  } finally {
    await run.dispose();
    await world.close();
  }
}

/** Every fill of the bot recorded once, its profit the uncrashed run's, started once, never failed; returns its stream. */
export async function expectRecordedOnce<B extends CrashBot>(world: CrashWorld<B>, b: B, label: string, profit: { actual: number; expected: number }, fillTypes: readonly string[]) {
  expect({ bot: label, profit: roundMoney(profit.actual) }).toEqual({ bot: label, profit: roundMoney(profit.expected) });
  const stream = await world.stream(b);
  const fillIds = stream.filter((e) => fillTypes.includes(e.type)).map((e) => (e.data as { fillId: string }).fillId);
  expect(new Set(fillIds).size).toBe(fillIds.length);
  expect(stream.filter((e) => e.type === 'BotStarted')).toHaveLength(1);
  expect(stream.filter((e) => e.type === 'BotFailed' || e.type === 'BotNotTrading')).toHaveLength(0);
  return stream;
}

/** The sides the bot's recorded events of `type` were filled on. */
export const sidesOf = (stream: ReadonlyArray<{ type: string; data: unknown }>, type: string) => new Set(stream.filter((e) => e.type === type).map((e) => (e.data as { side: string }).side));

/**
 * After the stop with cancel-all: nothing open, nothing locked, and the lifetime profit the sum of what was
 * realised. Returns the bot's stream and lifetime profit.
 */
export async function expectNothingLeft<B extends CrashBot>(world: CrashWorld<B>, b: B, label: string) {
  const port = await world.provider.for(b);
  expect({ label, open: await port.openOrders(b.symbol) }).toEqual({ label, open: [] });
  for (const bal of await port.balances()) expect({ label, asset: bal.symbol, locked: roundMoney(bal.balance - bal.available) }).toEqual({ label, asset: bal.symbol, locked: 0 });
  const stream = await world.stream(b);
  const realised = stream.filter((e) => e.type === 'ProfitRealized').map((e) => (e.data as { amount: number }).amount);
  const lifetime = (stream.filter((e) => e.type === 'ProfitRealized').pop()?.data as { totalProfit: number } | undefined)?.totalProfit ?? 0;
  expect({ label, lifetime: roundMoney(lifetime) }).toEqual({ label, lifetime: roundMoney(realised.reduce((a, x) => a + x, 0)) });
  return { port, stream, lifetime };
}
