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
import { randomUUID } from 'node:crypto';
import type { SqliteEventStore } from '@gridrocket/event-store';
import { BotCommandRunner } from '@gridrocket/bots/nest';
import type { Fill } from '@gridrocket/exchanges';
import { engineBotId, toEngineFill, toGridRules, isOwnClientOrderId, roundMoney } from '@gridrocket/trading';
import { applyNeutralFills, initialNeutralState, neutralDesiredOrders, type NeutralGridConfig, type NeutralState } from '@gridrocket/trading/grid';
import { CrashRun, CrashWorld, crashDirs, runReference, stopAndStartAgain, stopClosingAll, type CrashBot, type CrashScenario } from './support/crash-harness';
import { rng } from './support/seeded-random';
import { until } from '@gridrocket/shared/testing/until';

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

interface Bot extends CrashBot {
  market: 'futures';
  config: NeutralGridConfig;
}

const NEUTRAL: NeutralGridConfig = { botType: 'Futures', numOfOrders: 3, orderSize: 0.5, interval: 1, entryPrice: 90, takeProfit: 1, leverage: 3, direction: 'neutral' };
const BOTS: Bot[] = [
  { id: randomUUID(), userId: 'alice', exchange: 'Binance', market: 'futures', symbol: 'LTCUSDT', config: NEUTRAL },
  { id: randomUUID(), userId: 'bob', exchange: 'Kucoin', market: 'futures', symbol: 'LTCUSDT', config: { ...NEUTRAL, numOfOrders: 2, interval: 1.5 } },
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

const FILL_TYPES = ['OrderFilled', 'TakeProfitFilled', 'StopLossTriggered'];
const show = (o: { clientOrderId: string; side: string; price: number; amount: number; reduceOnly?: boolean }) => `${o.clientOrderId} ${o.side} ${o.price} ${o.amount}${o.reduceOnly ? ' reduce-only' : ''}`;

class NeutralWorld extends CrashWorld<Bot> {
  async fills(b: Bot): Promise<Fill[]> {
    return (await (await this.provider.for(b)).recentFills(b.symbol, 0)).filter((f) => isOwnClientOrderId(engineBotId(b.id), f.clientOrderId));
  }
  /** The neutral engine after the venue's own fills of the bot. */
  async engine(b: Bot): Promise<{ rules: ReturnType<typeof toGridRules>; state: NeutralState }> {
    const rules = toGridRules(await (await this.provider.for(b)).marketRules(b.symbol));
    return { rules, state: applyNeutralFills(initialNeutralState(b.config, rules, engineBotId(b.id)), (await this.fills(b)).map((f) => toEngineFill(f))) };
  }
  /** Each bot's open orders are what the engine wants from the venue's fills, and every fill is recorded. */
  async converged(): Promise<boolean> {
    for (const b of this.bots) {
      const port = await this.provider.for(b);
      const { rules, state } = await this.engine(b);
      const want = neutralDesiredOrders(rules, state).map(show).sort();
      const open = (await port.openOrders(b.symbol)).filter((o) => isOwnClientOrderId(engineBotId(b.id), o.clientOrderId)).map(show).sort();
      if (JSON.stringify(want) !== JSON.stringify(open)) return false;
      const recorded = (await this.stream(b)).filter((e) => e.type === 'OrderFilled' || e.type === 'TakeProfitFilled');
      if (recorded.length !== (await this.fills(b)).length) return false;
    }
    return true;
  }
  scenario(): CrashScenario {
    return { steps: STEPS, createAndStart, converged: () => this.converged() };
  }
}

describe('neutral grid crash safety on the ccxt adapter against the Binance and Kucoin futures stand-ins', () => {
  const dirs = crashDirs('gr-neutral-crash-');
  afterAll(() => dirs.cleanup());

  it(`${KILLS} kills (kill -9) while trading: nothing doubled or lost, closes sent reduce-only, none refused, all closed at the end`, async () => {
    // 1. reference: the same neutral bots and path, in-process on the paper exchange, never crashed
    const ref = new NeutralWorld(dirs.tmp(), pricePath(), BOTS);
    await runReference(ref, ref.scenario());
    const expected = await ref.profits();
    await ref.close();
    // the path really trades both halves: each bot completed pairs at a profit
    expect(Object.values(expected).filter((p) => p > 0)).toHaveLength(BOTS.length);

    // 2. the crash run: runner child on ccxt → stand-ins (HTTP, each venue's dialect) → venue core
    const world = new NeutralWorld(dirs.tmp(), pricePath(), BOTS);
    world.venue.advanceTo(1000);
    const run = new CrashRun(world, world.scenario());
    const startBalances = new Map<string, number>();
    const usdtOf = async (b: Bot) => (await (await world.provider.for(b)).balances()).find((x) => x.symbol === 'USDT')!.balance;
    try {
      for (const b of BOTS) startBalances.set(b.id, await usdtOf(b));
      await run.start([{ exchange: 'Binance', market: 'futures' }, { exchange: 'Kucoin', market: 'futures' }]);
      await run.tradeWithKills({
        seed: SEED,
        kills: KILLS,
        afterStart: async () => {
          for (const b of BOTS) {
            const open = await (await world.provider.for(b)).openOrders(b.symbol);
            // buys below the reference and sells above it, none reduce-only (flat)
            expect(open.filter((o) => o.side === 'buy').every((o) => o.price < b.config.entryPrice && !o.reduceOnly)).toBe(true);
            expect(open.filter((o) => o.side === 'sell').every((o) => o.price > b.config.entryPrice && !o.reduceOnly)).toBe(true);
            expect(open).toHaveLength(2 * b.config.numOfOrders);
          }
        },
      });
      expect(run.kills).toBe(KILLS);
      console.log(`neutral crash test on ccxt (seed ${SEED}): ${run.kills} kills, ${run.midWork} with work half done`);
      expect(run.midWork).toBeGreaterThanOrEqual(1); // (a check on the test's own strength)

      // every fill recorded once; profits equal the uncrashed run's; both halves traded
      const actual = await world.profits();
      for (const b of BOTS) {
        expect({ bot: b.exchange, profit: roundMoney(actual[b.id]) }).toEqual({ bot: b.exchange, profit: roundMoney(expected[b.id]) });
        const stream = await world.stream(b);
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
      await stopAndStartAgain(world, () => world.converged());
      world.venue.advanceTo(1000 + (STEPS + 1) * 1000);
      await until('buys filled and recorded', () => world.converged(), 60_000);
      const atStop = new Map<string, NeutralState>();
      for (const b of BOTS) {
        const { state } = await world.engine(b);
        expect({ bot: b.exchange, position: state.position }).toEqual({ bot: b.exchange, position: b.config.numOfOrders * b.config.orderSize }); // long its bound, no more
        atStop.set(b.id, state);
      }
      await stopClosingAll(world);

      for (const b of BOTS) {
        const port = await world.provider.for(b);
        const label = b.exchange;
        await until(`${label} closed`, async () => (await port.positions(b.symbol)).length === 0, 30_000);
        expect({ label, open: await port.openOrders(b.symbol) }).toEqual({ label, open: [] });
        for (const bal of await port.balances()) expect({ label, asset: bal.symbol, locked: roundMoney(bal.balance - bal.available) }).toEqual({ label, asset: bal.symbol, locked: 0 });
        const stream = await world.stream(b);
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
      await run.dispose();
      await world.close();
    }
  });
});
