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
import type { Fill } from '@gridrocket/exchanges';
import { engineBotId, toEngineFill, toGridRules, isOwnClientOrderId, roundMoney } from '@gridrocket/trading';
import { applyNeutralFills, initialNeutralState, neutralDesiredOrders, type NeutralGridConfig, type NeutralState } from '@gridrocket/trading/styles/neutral';
import { CrashWorld, GRID_FILL_TYPES, crashDirs, engineConverged, crashPricePath, createAndStartBots, expectNothingLeft, expectRecordedOnce, referenceProfits, sidesOf, restartThenLastRow, stopClosingAll, usdtOf, withCrashRun, type CrashBot, type CrashScenario } from './support/crash-harness';
import { until } from '@gridrocket/shared/testing/until';

jest.setTimeout(150_000);

const SEED = Number(process.env.CRASH_SEED ?? 32033);
const KILLS = 8;
const STEPS = 24;

/** LTCUSDT on both venues: oscillations through both halves of the grids (lines 87–93, 88–92); the last row falls below every buy. */
const pricePath = () =>
  crashPricePath({ seed: 17, symbol: 'LTCUSDT', exchanges: ['Binance', 'Kucoin'], steps: STEPS, first: 90.2, step: (i, r) => 90 + 3.2 * Math.sin(i * 0.7) + (r() - 0.5) * 1.2, last: 85 }); // the last: after the restart, every buy fills, the grid ends long its bound

interface Bot extends CrashBot {
  market: 'futures';
  config: NeutralGridConfig;
}

const NEUTRAL: NeutralGridConfig = { botType: 'Futures', numOfOrders: 3, orderSize: 0.5, interval: 1, entryPrice: 90, takeProfit: 1, leverage: 3, direction: 'neutral' };
const BOTS: Bot[] = [
  { id: randomUUID(), userId: 'alice', exchange: 'Binance', market: 'futures', symbol: 'LTCUSDT', config: NEUTRAL },
  { id: randomUUID(), userId: 'bob', exchange: 'Kucoin', market: 'futures', symbol: 'LTCUSDT', config: { ...NEUTRAL, numOfOrders: 2, interval: 1.5 } },
];

const createAndStart = (events: SqliteEventStore) =>
  createAndStartBots(events, BOTS, ({ exchange, symbol, config: c }) => ({ botType: c.botType, config: { exchange, symbol, numOfOrders: c.numOfOrders, orderSize: c.orderSize, interval: c.interval, entryPrice: c.entryPrice, takeProfit: c.takeProfit, leverage: c.leverage, direction: 'neutral' as const } }));

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
  converged(): Promise<boolean> {
    const want = async (b: Bot) => {
      const { rules, state } = await this.engine(b);
      return neutralDesiredOrders(rules, state);
    };
    const own = (b: Bot, clientOrderId: string) => isOwnClientOrderId(engineBotId(b.id), clientOrderId);
    return engineConverged(this, { want, own, show, fills: (b) => this.fills(b), fillTypes: ['OrderFilled', 'TakeProfitFilled'] });
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
    const expected = await referenceProfits(new NeutralWorld(dirs.tmp(), pricePath(), BOTS));
    // the path really trades both halves: each bot completed pairs at a profit
    expect(Object.values(expected).filter((p) => p > 0)).toHaveLength(BOTS.length);

    // 2. the crash run: runner child on ccxt → stand-ins (HTTP, each venue's dialect) → venue core
    const world = new NeutralWorld(dirs.tmp(), pricePath(), BOTS);
    const afterStart = async () => {
      for (const b of BOTS) {
        const open = await (await world.provider.for(b)).openOrders(b.symbol);
        // buys below the reference and sells above it, none reduce-only (flat)
        expect(open.filter((o) => o.side === 'buy').every((o) => o.price < b.config.entryPrice && !o.reduceOnly)).toBe(true);
        expect(open.filter((o) => o.side === 'sell').every((o) => o.price > b.config.entryPrice && !o.reduceOnly)).toBe(true);
        expect(open).toHaveLength(2 * b.config.numOfOrders);
      }
    };
    await withCrashRun(world, { name: 'neutral', venues: [{ exchange: 'Binance', market: 'futures' }, { exchange: 'Kucoin', market: 'futures' }], seed: SEED, kills: KILLS, afterStart }, async (startBalances) => {
      // every fill recorded once; profits equal the uncrashed run's; both halves traded
      const actual = await world.profits();
      for (const b of BOTS) {
        const stream = await expectRecordedOnce(world, b, b.exchange, { actual: actual[b.id], expected: expected[b.id] }, GRID_FILL_TYPES);
        expect(sidesOf(stream, 'OrderFilled')).toEqual(new Set(['buy', 'sell']));
        // every order placed as a close (TakeProfitPlaced) went to the venue reduce-only, every opening one (OrderPlaced) not: looked up on the venue for each filled order
        const port = await world.provider.for(b);
        const placedAs = new Map(stream.filter((e) => e.type === 'OrderPlaced' || e.type === 'TakeProfitPlaced').map((e) => [(e.data as { clientOrderId: string }).clientOrderId, e.type === 'TakeProfitPlaced']));
        const filledIds = [...new Set((await world.fills(b)).map((f) => f.clientOrderId))];
        expect(filledIds.filter((id) => placedAs.get(id) === true).length).toBeGreaterThan(0);
        for (const id of filledIds) expect({ id, reduceOnly: !!(await port.orderByClientId(b.symbol, id))?.reduceOnly }).toEqual({ id, reduceOnly: placedAs.get(id) });
      }

      // 3. stop without cancel-all, start again (it continues), the price falls through every buy, stop with cancel-all + close position
      await restartThenLastRow(world, () => world.converged(), STEPS, 'buys filled and recorded');
      const atStop = new Map<string, NeutralState>();
      for (const b of BOTS) {
        const { state } = await world.engine(b);
        expect({ bot: b.exchange, position: state.position }).toEqual({ bot: b.exchange, position: b.config.numOfOrders * b.config.orderSize }); // long its bound, no more
        atStop.set(b.id, state);
      }
      await stopClosingAll(world);

      for (const b of BOTS) {
        const label = b.exchange;
        await until(`${label} closed`, async () => (await (await world.provider.for(b)).positions(b.symbol)).length === 0, 30_000);
        const { port, stream, lifetime } = await expectNothingLeft(world, b, label);
        // the close: one reduce-only market sell of the whole long, under the bot's own prefix
        const all = await port.recentFills(b.symbol, 0);
        const closeFills = all.filter((f) => f.clientOrderId.endsWith('-close') && f.clientOrderId.startsWith(`gr-`));
        expect(closeFills.map((f) => f.side)).toEqual(closeFills.map(() => 'sell'));
        const closed = closeFills.reduce((t, f) => t + f.amount, 0);
        expect(roundMoney(closed)).toBe(roundMoney(b.config.numOfOrders * b.config.orderSize));
        // the close realised closing the open lots at market less their opening fees and the close's fee (issue 40:
        // PositionClosed, in the lifetime profit); the account, flat, moved by exactly the bot's profit
        const lots = atStop.get(b.id)!.lots;
        const closeValue = closeFills.reduce((t, f) => t + f.price * f.amount, 0);
        const lotCost = lots.reduce((t, l) => t + l.price * l.amount, 0);
        const closeProfit = stream.filter((e) => e.type === 'PositionClosed').reduce((t, e) => t + (e.data as { profit: number }).profit, 0);
        expect({ label, closeProfit: roundMoney(closeProfit) }).toEqual({ label, closeProfit: roundMoney(closeValue - lotCost - lots.reduce((t, l) => t + l.fee, 0) - closeFills.reduce((t, f) => t + f.fee, 0)) });
        expect({ label, moved: roundMoney((await usdtOf(world, b)) - startBalances.get(b.id)!) }).toEqual({ label, moved: roundMoney(lifetime) });
      }
    });
  });
});
